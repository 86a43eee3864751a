// What checks create for what they judge, each removed again after its check: templates, queue
// endpoints, registry auths, pods, network volumes, secrets. All of it goes through the check's
// set-up seam (management/), so the same check runs on whatever management surface the target has.
// Inputs use the seed's (REST v1) field names.
import { MANAGEMENT_SURFACES, SetUp, type ManagementCalls, type Made } from './management/index.js';
import type { Need, Usage } from './needs.js';
import { urlOf } from './surfaces.js';
import type { TargetConfig } from './target.js';

/** What fixtures use of their check's context (context.ts Ctx). */
export interface FixtureHost {
  readonly target: TargetConfig;
  readonly controlled: boolean;
  readonly managementCalls: ManagementCalls;
  name(prefix: string): string;
  secret(label: string): string;
  cleanup(fn: () => Promise<unknown>): void;
  pass(ms: number): Promise<void>;
  capabilityMissing(cause: string): Error;
}

/** What fixtures keep for the whole run (context.ts RunState). */
export interface FixtureState {
  runId: string;
  sharedTemplate?: Promise<string>;
  deferred: (() => Promise<boolean>)[];
  usage: Usage;
  missing: Map<Need, string>;
}

const TEMPLATE_DELETE_DELAY_MS = 120_000;

export class Fixtures {
  private readonly retries = new Map<string, () => Promise<boolean>>();

  constructor(private readonly ctx: FixtureHost, private readonly state: FixtureState, readonly setUp: SetUp) {}

  /** A template the suite's endpoints share (deleted at the end of the run, after the delete delay). */
  async sharedTemplate(): Promise<string> {
    // One creation even when concurrent checks ask at once; a failed creation is retried by the next asker.
    // Created outside the asking check's bookkeeping (which check asks first differs between runs),
    // through the target's preferred management surface whatever the asking check declares.
    this.state.sharedTemplate ??= this.state.usage.outside(() => this.createSharedTemplate()).catch((error: unknown) => {
      this.state.sharedTemplate = undefined;
      throw error;
    });
    return this.state.sharedTemplate;
  }

  private async createSharedTemplate(): Promise<string> {
    const seam = runSeam(this.ctx, this.state);
    const made = await seam.create('template', { name: `cc-shared-${this.state.runId}`, imageName: this.ctx.target.workerImage, isServerless: true, volumeInGb: 0, containerDiskInGb: 10 });
    this.state.deferred.push(() => this.deleteTemplateEventually(made.id, seam));
    return made.id;
  }

  /** Deletes a template, letting the documented delete delay pass when it was recently in use. */
  async deleteTemplateEventually(id: string, seam: SetUp = this.setUp): Promise<boolean> {
    if ((await seam.remove('template', id)).done) return true;
    if (this.ctx.controlled) {
      await this.ctx.pass(TEMPLATE_DELETE_DELAY_MS);
      return (await seam.remove('template', id)).done;
    }
    // Real time: retried at the end of the run, until the documented delay has passed.
    const retry = this.retryLater(id, seam);
    if (!this.state.deferred.includes(retry)) this.state.deferred.push(retry);
    return false;
  }

  private retryLater(id: string, seam: SetUp): () => Promise<boolean> {
    let fn = this.retries.get(id);
    if (!fn) {
      fn = async () => (await seam.remove('template', id)).done;
      this.retries.set(id, fn);
    }
    return fn;
  }

  async template(overrides: Record<string, unknown> = {}): Promise<{ id: string; name: string; body: any }> {
    const name = (overrides['name'] as string | undefined) ?? this.ctx.name('tpl');
    const made = await this.setUp.create('template', { name, imageName: this.ctx.target.workerImage, ...overrides });
    this.ctx.cleanup(() => this.deleteTemplateEventually(made.id));
    return { id: made.id, name, body: made.body };
  }

  /**
   * The target's own endpoint (`--endpoint-id`) when one was given, else a fresh one: for checks that
   * only need a working queue and read no counters, limits or configuration.
   */
  async anyEndpoint(): Promise<string> {
    return this.state.usage.as('endpoint', async () => this.ctx.target.endpointId ?? this.endpoint());
  }

  /** A queue endpoint created for this check (own queue, counters and rate windows). */
  async endpoint(overrides: Record<string, unknown> = {}): Promise<string> {
    const templateId = (overrides['templateId'] as string | undefined) ?? (await this.sharedTemplate());
    const made = await this.setUp.create('endpoint', { name: this.ctx.name('ep'), templateId, workersMin: 0, workersMax: 1, idleTimeout: 5, ...overrides });
    this.ctx.cleanup(() => this.setUp.remove('endpoint', made.id));
    return made.id;
  }

  /** Changes an endpoint's settings (seed names: workersMax, executionTimeoutMs…) through the seam. */
  updateEndpoint(endpointId: string, patch: Record<string, unknown>): Promise<void> {
    return this.setUp.update('endpoint', endpointId, patch);
  }

  async registryAuth(): Promise<{ id: string; name: string; password: string }> {
    const name = this.ctx.name('auth');
    const password = this.ctx.secret('registry password');
    const made = await this.made('registryAuth', { name, username: 'conformance', password });
    return { id: made.id, name, password };
  }

  async pod(overrides: Record<string, unknown> = {}): Promise<any> {
    return (await this.made('pod', { name: this.ctx.name('pod'), imageName: this.ctx.target.workerImage, gpuCount: 1, ...overrides })).body;
  }

  async volume(overrides: Record<string, unknown> = {}): Promise<any> {
    return (await this.made('volume', { name: this.ctx.name('vol'), size: 10, dataCenterId: 'EU-RO-1', ...overrides })).body;
  }

  async secretResource(): Promise<{ id: string; name: string; value: string }> {
    const name = this.ctx.name('secret');
    const value = this.ctx.secret('secret value');
    const made = await this.made('secret', { name, value });
    return { id: made.id, name, value };
  }

  private async made(kind: 'registryAuth' | 'pod' | 'volume' | 'secret', input: Record<string, unknown>): Promise<Made> {
    const made = await this.setUp.create(kind, input);
    this.ctx.cleanup(() => this.setUp.remove(kind, made.id));
    return made;
  }
}

/** The seam of the whole run (shared fixtures, the preflight): the target's preferred management surface. */
export function runSeam(ctx: FixtureHost, state: FixtureState): SetUp {
  return new SetUp({
    calls: ctx.managementCalls,
    usage: state.usage,
    needs: new Set(['manage']),
    order: MANAGEMENT_SURFACES,
    configured: (s) => urlOf(ctx.target, s) !== undefined,
    missing: () => state.missing,
    capabilityMissing: (cause) => ctx.capabilityMissing(cause),
  });
}
