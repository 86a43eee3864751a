// What a check gets: validated HTTP, time (virtual via the control API, or real), fixtures that
// clean up after themselves, job helpers, secrets bookkeeping and assertions.
import { randomBytes } from 'node:crypto';
import { CheckFailure, type Answer, type CallOptions, type Http, type HttpSurface } from './http.js';
import type { Need, Usage } from './needs.js';
import { requireUrl } from './surfaces.js';
import { type SurfaceName } from '../contract/surfaces.js';
import type { RunSettings, TargetConfig } from './target.js';
import type { CatalogueRule } from './types.js';

/** Thrown when a check needs clock control (or real waiting the tier does not allow). */
export class NeedsClock extends Error {
  override name = 'NeedsClock';
}

/** Thrown when a check reaches for a capability the preflight found missing; the message is the root cause. */
export class CapabilityMissing extends Error {
  override name = 'CapabilityMissing';
}

export interface RunState {
  http: Http;
  runId: string;
  counter: number;
  /** The template the suite's endpoints share, created by the first check that needs it. */
  sharedTemplate?: Promise<string>;
  /** Cleanups that could not finish during their check (e.g. template delete delay). */
  deferred: (() => Promise<boolean>)[];
  /** What the running check uses (needs.ts). */
  usage: Usage;
  /** Capabilities the preflight found missing, with their root cause. */
  missing: Map<Need, string>;
}

export const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'] as const;
const TEMPLATE_DELETE_DELAY_MS = 120_000;

export class Ctx {
  private readonly cleanups: (() => Promise<unknown>)[] = [];
  readonly http: Http;
  readonly values: Record<string, unknown>;

  constructor(
    readonly rule: CatalogueRule,
    readonly target: TargetConfig,
    readonly settings: RunSettings,
    private readonly state: RunState,
  ) {
    this.http = state.http;
    this.values = rule.values ?? {};
  }

  get controlled(): boolean {
    return this.target.controlUrl !== undefined;
  }

  /** A surface's base URL (for calls outside the operations table); the surface counts as used. */
  baseUrl(surface: SurfaceName): string {
    this.state.usage.record(surface);
    return requireUrl(this.target, surface);
  }

  /** Waiting for the target's jobs to progress: declared with needs 'jobs', refused when the preflight saw none finish. */
  private awaitsProgress(): void {
    this.state.usage.record('jobs');
    this.state.usage.touch('clock');
    const cause = this.state.missing.get('jobs');
    if (cause) throw new CapabilityMissing(cause);
  }

  // ---- naming, secrets, cleanup -------------------------------------------------------

  name(prefix: string): string {
    return `cc-${prefix}-${this.state.runId}-${++this.state.counter}`;
  }

  secret(label: string): string {
    return this.http.secrets.add(`${label.replace(/\s+/g, '-')}-${randomBytes(10).toString('hex')}`, label);
  }

  cleanup(fn: () => Promise<unknown>): void {
    this.cleanups.push(fn);
  }

  async runCleanups(): Promise<void> {
    while (this.cleanups.length > 0) {
      const fn = this.cleanups.pop()!;
      try {
        await fn();
      } catch {
        /* best effort: a failing cleanup must not hide the check's own outcome */
      }
    }
  }

  value<T>(name: string): T {
    const v = this.values[name];
    if (v === undefined) throw new Error(`${this.rule.id}: rules.yaml has no values.${name}`);
    return v as T;
  }

  // ---- time ----------------------------------------------------------------------------

  /** Lets `ms` pass: advances the target's clock, or waits for real when that is allowed. */
  async pass(ms: number): Promise<void> {
    this.state.usage.touch('clock');
    if (ms <= 0) return;
    if (this.controlled) {
      const answer = await this.http.raw('POST', `${this.target.controlUrl}/clock/advance`, { ms });
      if (answer.status !== 200) throw new CheckFailure(`clock control: POST /clock/advance answered ${answer.status}`);
      return;
    }
    const allowed = ms <= 2_000 || (this.settings.tier === 'slow' && ms <= this.settings.maxRealWaitMs);
    if (!allowed) throw new NeedsClock(`needs ${formatMs(ms)} to pass; give --control-url or run the slow tier`);
    await sleep(ms);
  }

  /** Polls `probe` in real time until it returns a value (bounded by count and time). */
  async eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T> {
    this.awaitsProgress();
    const limit = timeoutMs ?? (this.controlled ? this.settings.controlledJobTimeoutMs ?? 3_000 : this.settings.jobTimeoutMs);
    const deadline = Date.now() + limit;
    let delay = 2;
    for (let i = 0; i < 500; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) break;
      await sleep(delay);
      delay = Math.min(delay * 2, 250);
    }
    throw new CheckFailure(`timed out after ${formatMs(limit)} waiting for ${what}`);
  }

  /**
   * Waits until the endpoint holds at least `count` queued or running jobs, so a clock jump cannot
   * overtake a submission (e.g. a held /runsync) that is still on its way to the server.
   */
  async untilSubmitted(endpointId: string, count: number): Promise<void> {
    await this.eventually(`${count} submitted job(s) to reach the target`, async () => {
      const health = await this.queue(endpointId, 'getHealth');
      return health.body.jobs.inQueue + health.body.jobs.inProgress >= count ? true : undefined;
    }, 10_000);
  }

  // ---- HTTP shortcuts --------------------------------------------------------------------

  rest<T = any>(operationId: string, options: CallOptions = {}): Promise<Answer<T>> {
    return this.http.call<T>('restV1', operationId, options);
  }

  queue<T = any>(endpointId: string, operationId: string, options: CallOptions = {}): Promise<Answer<T>> {
    return this.http.call<T>('queueV2', operationId, { ...options, endpointId });
  }

  call<T = any>(surface: HttpSurface, operationId: string, options: CallOptions = {}): Promise<Answer<T>> {
    return this.http.call<T>(surface, operationId, options);
  }

  /**
   * One REST v2 operation. A 429 (per-caller minute/hour/day quota) is waited out as its Retry-After
   * says — by the clock when the target exposes control — and the call repeated (at most 3 times);
   * `{ quota: 'raw' }` hands the 429 to the check instead (RESTV2 rate-limit rules).
   */
  async v2<T = any>(operationId: string, options: CallOptions & { quota?: 'wait' | 'raw' } = {}): Promise<Answer<T>> {
    const { quota = 'wait', ...call } = options;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.http.call<T>('restV2', operationId, call);
      if (answer.status !== 429 || quota === 'raw' || attempt === 3) return answer;
      const seconds = Number(answer.headers.get('retry-after'));
      if (!Number.isFinite(seconds) || seconds < 0) return answer;
      await this.pass(seconds * 1000);
    }
  }

  gql<T = any>(query: string, variables: Record<string, unknown> = {}, options: { key?: string | null; via?: 'query' | 'bearer' } = {}): Promise<Answer<T>> {
    return this.http.graphql<T>(query, variables, options);
  }

  // ---- fixtures ---------------------------------------------------------------------------

  /** A template the suite's endpoints share (deleted at the end of the run, after the delete delay). */
  async sharedTemplate(): Promise<string> {
    // One creation even when concurrent checks ask at once; a failed creation is retried by the next asker.
    // Created outside the asking check's bookkeeping: which check asks first differs between runs.
    this.state.sharedTemplate ??= this.state.usage.outside(() => this.createSharedTemplate()).catch((error: unknown) => {
      this.state.sharedTemplate = undefined;
      throw error;
    });
    return this.state.sharedTemplate;
  }

  private async createSharedTemplate(): Promise<string> {
    const name = `cc-shared-${this.state.runId}`;
    const created = await this.rest('createTemplate', { body: { name, imageName: this.target.workerImage, isServerless: true, volumeInGb: 0, containerDiskInGb: 10 } });
    expectStatus(created, 200, 'createTemplate (shared worker template)');
    const id = String(created.body.id);
    this.state.deferred.push(() => this.deleteTemplateEventually(id));
    return id;
  }

  /** Deletes a template, letting the documented delete delay pass when it was recently in use. */
  async deleteTemplateEventually(id: string): Promise<boolean> {
    const first = await this.rest('deleteTemplate', { path: { templateId: id } });
    if (first.status === 204 || first.status === 404) return true;
    if (this.controlled) {
      await this.pass(TEMPLATE_DELETE_DELAY_MS);
      const second = await this.rest('deleteTemplate', { path: { templateId: id } });
      return second.status === 204 || second.status === 404;
    }
    // Real time: retried at the end of the run, until the documented delay has passed.
    if (!this.state.deferred.includes(this.retryLater(id))) this.state.deferred.push(this.retryLater(id));
    return false;
  }

  private readonly retries = new Map<string, () => Promise<boolean>>();
  private retryLater(id: string): () => Promise<boolean> {
    let fn = this.retries.get(id);
    if (!fn) {
      fn = async () => [204, 404].includes((await this.rest('deleteTemplate', { path: { templateId: id } })).status);
      this.retries.set(id, fn);
    }
    return fn;
  }

  async template(overrides: Record<string, unknown> = {}): Promise<{ id: string; name: string; body: any }> {
    const name = (overrides['name'] as string | undefined) ?? this.name('tpl');
    const created = await this.rest('createTemplate', { body: { name, imageName: this.target.workerImage, ...overrides } });
    expectStatus(created, 200, 'createTemplate (fixture)');
    const id = String(created.body.id);
    this.cleanup(() => this.deleteTemplateEventually(id));
    return { id, name, body: created.body };
  }

  /**
   * The target's own endpoint (`--endpoint-id`) when one was given, else a fresh one: for checks that
   * only need a working queue and read no counters, limits or configuration.
   */
  async anyEndpoint(): Promise<string> {
    return this.state.usage.as('endpoint', async () => this.target.endpointId ?? this.endpoint());
  }

  /** A queue endpoint created for this check (own queue, counters and rate windows). */
  async endpoint(overrides: Record<string, unknown> = {}): Promise<string> {
    const templateId = (overrides['templateId'] as string | undefined) ?? (await this.sharedTemplate());
    const created = await this.rest('createEndpoint', {
      body: { name: this.name('ep'), templateId, workersMin: 0, workersMax: 1, idleTimeout: 5, ...overrides },
    });
    expectStatus(created, 200, 'createEndpoint (fixture)');
    const id = String(created.body.id);
    this.cleanup(() => this.rest('deleteEndpoint', { path: { endpointId: id } }));
    return id;
  }

  async registryAuth(): Promise<{ id: string; name: string; password: string }> {
    const name = this.name('auth');
    const password = this.secret('registry password');
    const created = await this.rest('createContainerRegistryAuth', { body: { name, username: 'conformance', password } });
    expectStatus(created, 200, 'createContainerRegistryAuth (fixture)');
    const id = String(created.body.id);
    this.cleanup(() => this.rest('deleteContainerRegistryAuth', { path: { containerRegistryAuthId: id } }));
    return { id, name, password };
  }

  async pod(overrides: Record<string, unknown> = {}): Promise<any> {
    const created = await this.rest('createPod', { body: { name: this.name('pod'), imageName: this.target.workerImage, gpuCount: 1, ...overrides } });
    expectStatus(created, 201, 'createPod (fixture)');
    const id = String(created.body.id);
    this.cleanup(() => this.rest('deletePod', { path: { podId: id } }));
    return created.body;
  }

  async volume(overrides: Record<string, unknown> = {}): Promise<any> {
    const created = await this.rest('createNetworkVolume', { body: { name: this.name('vol'), size: 10, dataCenterId: 'EU-RO-1', ...overrides } });
    expectStatus(created, 200, 'createNetworkVolume (fixture)');
    const id = String(created.body.id);
    this.cleanup(() => this.rest('deleteNetworkVolume', { path: { networkVolumeId: id } }));
    return created.body;
  }

  async secretResource(): Promise<{ id: string; name: string; value: string }> {
    const name = this.name('secret');
    const value = this.secret('secret value');
    const answer = await this.gql('mutation($input: SecretCreateInput!) { secretCreate(input: $input) { id name description } }', { input: { name, value } });
    const created = answer.body?.data?.secretCreate;
    if (!created?.id) throw new CheckFailure(`secretCreate (fixture) failed: ${errorsOf(answer)}`);
    this.cleanup(() => this.gql('mutation($id: ID!) { secretDelete(id: $id) }', { id: created.id }));
    return { id: created.id, name, value };
  }

  // ---- jobs ---------------------------------------------------------------------------------

  /** Submits with runJob and returns the id (asserting 200). */
  async run(endpointId: string, mock: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, input: Record<string, unknown> = {}): Promise<string> {
    const answer = await this.queue(endpointId, 'runJob', { body: { input: { ...input, mock }, ...extra } });
    expectStatus(answer, 200, 'runJob');
    return String(answer.body.id);
  }

  async status(endpointId: string, jobId: string): Promise<Answer> {
    return this.queue(endpointId, 'getJobStatus', { path: { jobId } });
  }

  /** Polls getJobStatus until the status is one of `want`; returns the record. */
  async waitForStatus(endpointId: string, jobId: string, want: readonly string[], timeoutMs?: number): Promise<any> {
    let last = '?';
    try {
      return await this.eventually(`job to reach ${want.join('|')}`, async () => {
        const answer = await this.status(endpointId, jobId);
        last = answer.status === 200 ? String(answer.body.status) : `HTTP ${answer.status}`;
        return answer.status === 200 && want.includes(answer.body.status) ? answer.body : undefined;
      }, timeoutMs);
    } catch (error) {
      if (error instanceof CheckFailure) throw new CheckFailure(`${error.message} (last seen: ${last})`);
      throw error;
    }
  }

  /** Lets a job of `durationMs` finish: passes the time, then polls for a terminal status. */
  async finish(endpointId: string, jobId: string, durationMs: number): Promise<any> {
    this.awaitsProgress();
    await this.pass(durationMs);
    return this.waitForStatus(endpointId, jobId, TERMINAL);
  }
}

// ---- assertions -------------------------------------------------------------------------------

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

export function expectStatus(answer: Answer, status: number | number[], what: string): void {
  const wanted = Array.isArray(status) ? status : [status];
  if (!wanted.includes(answer.status)) {
    throw new CheckFailure(`${what}: expected HTTP ${wanted.join(' or ')}, got ${answer.status}${describeBody(answer.body)}`);
  }
}

export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new CheckFailure(`${what}: expected ${short(expected)}, got ${short(actual)}`);
  }
}

export function errorsOf(answer: Answer): string {
  const errors = answer.body?.errors;
  return Array.isArray(errors) ? errors.map((e: { message?: string }) => e.message).join('; ') : `HTTP ${answer.status}`;
}

function describeBody(body: unknown): string {
  if (body === undefined) return '';
  const message = (body as { message?: unknown })?.message;
  return typeof message === 'string' ? ` (${message.slice(0, 160)})` : ` (${short(body)})`;
}

export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

export function formatMs(ms: number): string {
  if (ms >= 86_400_000) return `${+(ms / 86_400_000).toFixed(1)} d`;
  if (ms >= 3_600_000) return `${+(ms / 3_600_000).toFixed(1)} h`;
  if (ms >= 60_000) return `${+(ms / 60_000).toFixed(1)} min`;
  if (ms >= 1_000) return `${+(ms / 1_000).toFixed(1)} s`;
  return `${ms} ms`;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
