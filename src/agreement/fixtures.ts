// The resources a fuzz run needs and leaves nothing of: created in a setup step (read-only fixtures,
// scratch resources the run may change, fresh ones per delete), resolved into generated requests in
// place of placeholders, observed to prove a refused request stored nothing, deleted at the end.
// They are made through the target's management interface: REST v1 when given, else REST v2
// (fixtures-management.ts), so a target without REST v1 (the service today) gets the same run.
import { randomBytes } from 'node:crypto';
import { listSize, managementOf, newPassword, type ManagedKind, type Management } from './fixtures-management.js';
import { RestV2Fixtures, type RestV2Kind } from './fixtures-rest-v2.js';
import { parsePlaceholder, queueEndpointRole, type ResourceKind, type Role } from './references.js';
import type { RequestCase } from './requests.js';
import type { Answer, Transport } from './transport.js';

type Creatable = Exclude<ResourceKind, 'job' | 'templateName' | RestV2Kind>;
const REST_V2_KINDS: ReadonlySet<string> = new Set(['gpuType', 'gpuTypeSpare', 'gpuPool', 'cpuType', 'dataCenter', 'cudaVersion']);
const isRestV2Kind = (kind: ResourceKind): kind is RestV2Kind => kind.startsWith('v2') || REST_V2_KINDS.has(kind);

const COLLECTIONS: Record<string, Creatable> = {
  '/pods': 'pod',
  '/endpoints': 'endpoint',
  '/templates': 'template',
  '/networkvolumes': 'networkVolume',
  '/containerregistryauth': 'registryAuth',
};
const DELETE_ORDER: Creatable[] = ['pod', 'endpoint', 'template', 'networkVolume', 'registryAuth', 'secret'];
/** Worker bounds of the endpoints the run submits to: one worker kept up, so lowPriority submissions (which scale nothing up) still run. */
const KEPT_UP = { min: 1, max: 3 };
const TEMPLATE_DELETE_DELAY_MS = 120_000;
const JOB_SETTLE_POLLS = 200;

export interface FixtureOptions {
  workerImage: string;
  /** Registers a secret value the run sends (so it is never printed and never comes back). */
  secret: (value: string) => void;
}

export class Fixtures {
  readonly tag = randomBytes(3).toString('hex');
  private counter = 0;
  /** Which fixture job the next job placeholder gets (apart from the name counter, so new fixtures do not move it). */
  private jobTurn = 0;
  private readonly created = new Map<Creatable, Set<string>>();
  private readonly fixture = new Map<ResourceKind, string>();
  private readonly scratch = new Map<ResourceKind, string>();
  private readonly templateNames = new Map<string, string>();
  /** The last stored-state observation (see remembered()). */
  private lastObservation: { key: string; fingerprint: string; changes: number } | undefined;
  jobs: string[] = [];
  endpoints = { queue: '', sync: '', sink: '' };
  /** REST v2's own resources, when the target has REST v2. */
  private readonly v2: RestV2Fixtures | undefined;
  /** Where pods, endpoints, templates, volumes and registry auths are made: REST v1, else REST v2. */
  private readonly management: Management | undefined;

  constructor(private readonly transport: Transport, private readonly options: FixtureOptions) {
    this.v2 = transport.target.restV2Url ? new RestV2Fixtures(transport, { workerImage: options.workerImage, secret: options.secret, name: (p) => this.name(p) }) : undefined;
    this.management = managementOf(transport);
  }

  /** The surface the fixtures are made through. */
  get managedBy(): 'restV1' | 'restV2' | undefined {
    return this.management?.surface;
  }

  private managed(): Management {
    if (!this.management) throw new Error('setup: the target has no management surface to create fixtures with (give --rest-v2-url or --rest-url)');
    return this.management;
  }

  name(prefix: string): string {
    return `agree-${prefix}-${this.tag}-${++this.counter}`;
  }

  async setup(): Promise<void> {
    this.fixture.set('registryAuth', await this.create('registryAuth'));
    this.scratch.set('registryAuth', this.fixture.get('registryAuth')!);
    for (const kind of ['template', 'networkVolume', 'pod'] as const) {
      this.fixture.set(kind, await this.create(kind));
      this.scratch.set(kind, await this.create(kind));
    }
    this.endpoints.queue = await this.create('endpoint', KEPT_UP);
    this.endpoints.sync = await this.create('endpoint', KEPT_UP);
    this.endpoints.sink = await this.create('endpoint');
    this.fixture.set('endpoint', this.endpoints.queue);
    this.scratch.set('endpoint', await this.create('endpoint'));
    await this.submitJobs();
    await this.v2?.setup();
  }

  /** Jobs in several states on the queue endpoint: completed, failed (retryable), long-lived. */
  private async submitJobs(): Promise<void> {
    const bodies = [
      { input: { mock: { durationMs: 0 } } },
      { input: { mock: { durationMs: 0, error: 'agreement fixture failure' } } },
      { input: { mock: { durationMs: 0 } }, policy: { ttl: 604_800_000 } },
    ];
    for (const body of bodies) {
      const answer = await this.transport.queue(this.endpoints.queue, 'POST', '/run', body);
      if (answer.status !== 200) throw new Error(`setup: runJob answered ${answer.status}`);
      this.jobs.push(String((answer.body as { id: string }).id));
    }
    for (let i = 0; i < JOB_SETTLE_POLLS; i++) {
      const health = await this.transport.queue(this.endpoints.queue, 'GET', '/health');
      const jobs = (health.body as { jobs?: { inQueue: number; inProgress: number } }).jobs;
      if (jobs && jobs.inQueue + jobs.inProgress === 0) return;
      await this.transport.pass(this.transport.target.controlUrl ? 1_000 : 20);
    }
  }

  private async create(kind: Creatable, workers?: { min: number; max: number }): Promise<string> {
    const name = this.name(kind);
    if (kind === 'secret') {
      const value = `sv-${randomBytes(12).toString('hex')}`;
      this.options.secret(value);
      const answer = await this.transport.graphql('mutation($input: SecretCreateInput!) { secretCreate(input: $input) { id } }', { input: { name, value } });
      const id = (answer.body as { data?: { secretCreate?: { id?: string } } }).data?.secretCreate?.id;
      if (!id) throw new Error(`setup: secretCreate failed: ${answer.text.slice(0, 200)}`);
      this.track('secret', id);
      return id;
    }
    const management = this.managed();
    let password: string | undefined;
    if (kind === 'registryAuth') this.options.secret((password = newPassword()));
    const templateId = kind === 'endpoint' ? this.fixture.get('template') : undefined;
    const answer = await management.create(kind, {
      name, image: this.options.workerImage, ...(workers ? { workers } : {}), ...(templateId ? { templateId } : {}), ...(password ? { password } : {}),
    });
    if (answer.status !== 200 && answer.status !== 201) {
      throw new Error(`setup: creating a ${kind} (${management.surface} POST ${management.collection(kind)}) answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    }
    const id = String((answer.body as { id: string }).id);
    this.track(kind, id);
    if (kind === 'template') this.templateNames.set(id, name);
    return id;
  }

  /** A's read of one of its objects, through the surface that made it (the isolation world's re-reads). */
  read(kind: ManagedKind, id: string): Promise<Answer> {
    const management = this.managed();
    return management.get(`${management.collection(kind)}/${encodeURIComponent(id)}`);
  }

  private track(kind: Creatable, id: string): void {
    let set = this.created.get(kind);
    if (!set) this.created.set(kind, (set = new Set()));
    set.add(id);
  }

  /** The queue v2 endpoint a request goes to; refused requests go to a sink no valid request uses. */
  endpointFor(c: RequestCase, phase: 'valid' | 'invalid'): string | undefined {
    if (c.op.surface !== 'queueV2') return undefined;
    if (phase === 'invalid') return this.endpoints.sink;
    return queueEndpointRole(c.op) === 'sync' ? this.endpoints.sync : this.endpoints.queue;
  }

  /** Replaces placeholders by ids (creating a fresh resource where the request may delete it). */
  async resolve<T extends RequestCase>(c: T): Promise<T> {
    const path: Record<string, string> = {};
    for (const [name, value] of Object.entries(c.path)) path[name] = String(await this.idFor(value));
    const body = await this.resolveValue(c.body);
    return { ...c, path, body };
  }

  private async resolveValue(node: unknown): Promise<unknown> {
    if (parsePlaceholder(node)) return this.idFor(node);
    if (Array.isArray(node)) return Promise.all(node.map((n) => this.resolveValue(n)));
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) out[k] = await this.resolveValue(v);
      return out;
    }
    return node;
  }

  private async idFor(value: unknown): Promise<unknown> {
    const ref = parsePlaceholder(value);
    if (!ref) return value;
    return this.idOf(ref.kind, ref.role);
  }

  private async idOf(kind: ResourceKind, role: Role): Promise<string> {
    if (isRestV2Kind(kind)) {
      if (!this.v2) throw new Error(`a REST v2 ${kind} was asked for, but the target has no REST v2`);
      return this.v2.idOf(kind, role);
    }
    if (kind === 'job') return this.jobs[this.jobTurn++ % this.jobs.length]!;
    if (kind === 'templateName') return this.templateNames.get(await this.create('template'))!;
    if (role === 'fresh') return this.create(kind);
    const id = (role === 'scratch' ? this.scratch : this.fixture).get(kind);
    if (!id) throw new Error(`no ${role} ${kind} was set up`);
    return id;
  }

  /** Tracks what a generated request created, so the cleanup deletes it. */
  record(c: RequestCase, answer: Answer): void {
    if (answer.status < 200 || answer.status > 299) return;
    const body = answer.body as Record<string, unknown> | undefined;
    if (c.op.surface === 'restV2' && c.op.method === 'POST') this.v2?.record(c.op.path, answer);
    if (c.op.surface === 'restV1' && c.op.method === 'POST') {
      const kind = COLLECTIONS[c.op.path];
      if (kind && typeof body?.['id'] === 'string') this.track(kind, body['id']);
    }
    if (c.op.surface === 'graphql') {
      const data = (body?.['data'] ?? {}) as Record<string, { id?: unknown } | null>;
      const made = data['saveTemplate'] ?? data['secretCreate'];
      if (made && typeof made.id === 'string') this.track(data['saveTemplate'] ? 'template' : 'secret', made.id);
    }
  }

  /**
   * A fingerprint of what a request could have stored: list sizes of its collection, the scratch
   * resource it may change, or the job counts of the sink endpoint. undefined when nothing is observable.
   */
  async observe(c: RequestCase): Promise<string | undefined> {
    const { op } = c;
    if (op.method === 'GET') return undefined;
    if (op.surface === 'queueV2') {
      const jobs = (await this.transport.queue(this.endpoints.sink, 'GET', '/health')).body as { jobs: Record<string, number> };
      return JSON.stringify(jobs.jobs);
    }
    if (op.surface === 'graphql') {
      if (op.operationId !== 'saveTemplate' && op.operationId !== 'deleteTemplate') return undefined;
      const management = this.managed();
      const templates = management.collection('template');
      return this.snapshot(templates, op.operationId === 'saveTemplate' ? `${templates}/${this.scratch.get('template')}` : undefined, management);
    }
    if (op.surface === 'restV2') return this.snapshotV2(c);
    const collection = `/${op.path.split('/')[1]}`;
    const kind = COLLECTIONS[collection];
    const scratchId = kind ? this.scratch.get(kind) : undefined;
    const changes = op.method !== 'DELETE' && op.path.includes('{');
    return this.snapshot(collection, changes && scratchId ? `${collection}/${scratchId}` : undefined);
  }

  /**
   * An observation made anew, or the last one when it looked at the same things and nothing was sent to the
   * target since (the fingerprint after one refused request is the one before the next: half the listings).
   */
  private async remembered(key: string, observe: () => Promise<string>): Promise<string> {
    const last = this.lastObservation;
    if (last?.key === key && last.changes === this.transport.changes) return last.fingerprint;
    const fingerprint = await observe();
    this.lastObservation = { key, fingerprint, changes: this.transport.changes };
    return fingerprint;
  }

  /** REST v2: the collection listed and the scratch resource a PATCH/POST under it may change. */
  private snapshotV2(c: RequestCase): Promise<string> {
    const { op } = c;
    if (op.path === '/account/ssh-keys') return this.remembered(`restV2 ${op.path}`, async () => (await this.transport.restV2('GET', op.path)).text);
    const collection = op.path.startsWith('/registries/delegations') ? '/registries/delegations' : `/${op.path.split('/')[1]}`;
    const one = op.method !== 'DELETE' ? this.v2?.scratchPath(op.path) : undefined;
    return this.remembered(`restV2 ${collection} ${one ?? ''}`, () => this.listV2(collection, one));
  }

  private async listV2(collection: string, one: string | undefined): Promise<string> {
    const list = await this.transport.restV2('GET', collection);
    const items = itemsOf(list);
    let size: number | string = items ? items.length : `HTTP ${list.status}`;
    // A sandbox ends on the clock (idle timeout, max lifetime) and leaves the default listing on its own: the
    // ended ones are counted too (ids of both listings, read live first, so one ending in between counts once).
    if (collection === '/sandboxes' && items) {
      const ended = itemsOf(await this.transport.restV2('GET', '/sandboxes?state=TERMINATED'));
      size = ended ? new Set([...items, ...ended].map((s) => (s as { id?: unknown } | null)?.id)).size : size;
    }
    return `${size}|${one ? stableText((await this.transport.restV2('GET', one)).body) : ''}`;
  }

  /** A collection's size and one resource of it, through REST v1 (REST v1's own operations) or the given management surface. */
  private snapshot(collection: string, resource?: string, through?: Management): Promise<string> {
    const get = (path: string) => (through ? through.get(path) : this.transport.rest('GET', path));
    return this.remembered(`${through?.surface ?? 'restV1'} ${collection} ${resource ?? ''}`, async () => {
      const size = listSize(await get(collection));
      const one = resource ? (await get(resource)).text : '';
      return `${size}|${one}`;
    });
  }

  /** Deletes everything the run created; returns what could not be deleted. */
  async cleanup(): Promise<string[]> {
    // REST v2 first (its pods and endpoints use REST v2 templates and credentials), then REST v1 and GraphQL,
    // then REST v2 again for what a REST v1 pod or endpoint was still using.
    const early = (await this.v2?.cleanup()) ?? [];
    const left: string[] = [];
    for (const kind of DELETE_ORDER) {
      for (const id of this.created.get(kind) ?? []) {
        if (!(await this.remove(kind, id))) left.push(`${kind} ${id}`);
      }
    }
    // A template an endpoint used until just now stays undeletable for the documented delay (either surface's).
    const inUse = left.some((l) => l.startsWith('template ')) || early.some((l) => l.startsWith('v2template '));
    if (inUse && this.transport.target.controlUrl) {
      await this.transport.pass(TEMPLATE_DELETE_DELAY_MS);
      const retry = left.filter((l) => l.startsWith('template '));
      for (const entry of retry) if (await this.remove('template', entry.slice('template '.length))) left.splice(left.indexOf(entry), 1);
    }
    this.created.clear();
    left.push(...((await this.v2?.cleanup(true)) ?? []));
    return left;
  }

  private async remove(kind: Creatable, id: string): Promise<boolean> {
    if (kind === 'secret') {
      const answer = await this.transport.graphql('mutation($id: ID!) { secretDelete(id: $id) }', { id });
      return answer.status === 200;
    }
    return this.managed().remove(kind, id);
  }
}

/** What the clock changes on its own (a pod's status, runtime and the ssh it has once running), left out of a stored-state fingerprint. */
const MOVING = new Set(['status', 'actions', 'runtime', 'startedAt', 'cost', 'ssh']);

function itemsOf(answer: Answer): unknown[] | undefined {
  const body = answer.body as Record<string, unknown> | undefined;
  return body && typeof body === 'object' ? (Object.values(body).find(Array.isArray) as unknown[] | undefined) : undefined;
}

function stableText(body: unknown): string {
  return JSON.stringify(body, (key, value) => (MOVING.has(key) ? undefined : value)) ?? '';
}
