// What a check gets: validated HTTP, time (virtual via the control API, or real), fixtures that
// clean up after themselves, job helpers, secrets bookkeeping and assertions.
import { randomBytes } from 'node:crypto';
import { CheckFailure, type Answer, type CallOptions, type Http, type HttpSurface } from './http.js';
import { needsOf, REST_SURFACES, type Need, type Usage } from './needs.js';
import { requireUrl, SurfaceNotConfigured, urlOf } from './surfaces.js';
import { surfaceOfRule, type SurfaceName } from '../contract/surfaces.js';
import { Fixtures } from './fixtures.js';
import { sendDirect, type DirectRequest } from './lb-http.js';
import { managementOrder, SetUp, type ManagementCalls } from './management/index.js';
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

export class Ctx {
  private readonly cleanups: (() => Promise<unknown>)[] = [];
  private readonly fixtures: Fixtures;
  readonly http: Http;
  readonly values: Record<string, unknown>;

  /** `needs`: what the check declares (needs.ts); decides which management surface sets up its resources. */
  constructor(
    readonly rule: CatalogueRule,
    readonly target: TargetConfig,
    readonly settings: RunSettings,
    private readonly state: RunState,
    needs: ReadonlySet<Need> = needsOf(rule),
  ) {
    this.http = state.http;
    this.values = rule.values ?? {};
    this.fixtures = new Fixtures(this, state, new SetUp({
      calls: this.managementCalls,
      usage: state.usage,
      needs,
      order: managementOrder(surfaceOfRule(rule.surface), needs),
      configured: (s) => urlOf(target, s) !== undefined,
      missing: () => state.missing,
      capabilityMissing: (cause) => new CapabilityMissing(cause),
    }));
  }

  get controlled(): boolean {
    return this.target.controlUrl !== undefined;
  }

  /** A surface's base URL (for calls outside the operations table); the surface counts as used. */
  baseUrl(surface: SurfaceName): string {
    this.state.usage.record(surface);
    return requireUrl(this.target, surface);
  }

  /**
   * The REST surface a check declaring 'rest' reads back through: REST v1 when the target gives it and
   * the preflight found it working, else REST v2.
   */
  restSurface(): 'restV1' | 'restV2' {
    const usable = REST_SURFACES.find((s) => urlOf(this.target, s) !== undefined && !this.state.missing.has(s));
    if (usable) return usable;
    const cause = this.state.missing.get('rest');
    if (cause) throw new CapabilityMissing(cause);
    throw new SurfaceNotConfigured('restV2', 'needs --rest-v2-url or --rest-url (a REST management surface)');
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
    return this.quotaWaited(() => this.http.call<T>('restV2', operationId, call), quota);
  }

  /** A REST v2 request outside the operations table (a wrong method, OPTIONS), its 429 waited out as v2() does. */
  v2Raw<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    return this.quotaWaited(() => this.http.raw<T>(method, `${this.baseUrl('restV2')}${path}`, body, { ...headers }), 'wait');
  }

  private async quotaWaited<T>(send: () => Promise<Answer<T>>, quota: 'wait' | 'raw'): Promise<Answer<T>> {
    for (let attempt = 0; ; attempt++) {
      const answer = await send();
      if (answer.status !== 429 || quota === 'raw' || attempt === 3) return answer;
      const seconds = Number(answer.headers.get('retry-after'));
      if (!Number.isFinite(seconds) || seconds < 0) return answer;
      await this.pass(seconds * 1000);
    }
  }

  gql<T = any>(query: string, variables: Record<string, unknown> = {}, options: { key?: string | null; via?: 'query' | 'bearer' } = {}): Promise<Answer<T>> {
    return this.http.graphql<T>(query, variables, options);
  }

  // ---- fixtures (fixtures.ts, through the set-up seam management/) ------------------------------

  /** The calls the set-up seam makes, validated and scanned like every other. */
  get managementCalls(): ManagementCalls {
    return { rest: (op, o) => this.rest(op, o), v2: (op, o) => this.v2(op, o), gql: (q, v) => this.gql(q, v) };
  }

  capabilityMissing(cause: string): CapabilityMissing {
    return new CapabilityMissing(cause);
  }

  /** The set-up seam of this check: create, update, remove and find resources whatever the surface. */
  get setUp(): SetUp {
    return this.fixtures.setUp;
  }

  sharedTemplate(): Promise<string> {
    return this.fixtures.sharedTemplate();
  }

  deleteTemplateEventually(id: string): Promise<boolean> {
    return this.fixtures.deleteTemplateEventually(id);
  }

  template(overrides: Record<string, unknown> = {}): Promise<{ id: string; name: string; body: any }> {
    return this.fixtures.template(overrides);
  }

  anyEndpoint(): Promise<string> {
    return this.fixtures.anyEndpoint();
  }

  endpoint(overrides: Record<string, unknown> = {}): Promise<string> {
    return this.fixtures.endpoint(overrides);
  }

  updateEndpoint(endpointId: string, patch: Record<string, unknown>): Promise<void> {
    return this.fixtures.updateEndpoint(endpointId, patch);
  }

  registryAuth(): Promise<{ id: string; name: string; password: string }> {
    return this.fixtures.registryAuth();
  }

  pod(overrides: Record<string, unknown> = {}): Promise<any> {
    return this.fixtures.pod(overrides);
  }

  volume(overrides: Record<string, unknown> = {}): Promise<any> {
    return this.fixtures.volume(overrides);
  }

  secretResource(): Promise<{ id: string; name: string; value: string }> {
    return this.fixtures.secretResource();
  }

  // ---- jobs ---------------------------------------------------------------------------------

  /** Submits with runJob and returns the id (asserting 200). */
  async run(endpointId: string, mock: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, input: Record<string, unknown> = {}): Promise<string> {
    const answer = await this.queue(endpointId, 'runJob', { body: { input: { ...input, mock }, ...extra } });
    expectStatus(answer, 200, 'runJob');
    return String(answer.body.id);
  }

  /** A request to a load-balancing endpoint's own address (target.lbUrl), for its workers. */
  lb(endpointId: string, request: DirectRequest): Promise<Answer> {
    return sendDirect(this.http, endpointId, request);
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
