// The REST v2 resources a fuzz run needs, created through REST v2 itself (so any REST v2 target
// works): one to read (fixture) and one to change (scratch) per collection, fresh ones for deletes,
// the catalogue entries valid requests name (read from the catalogue, never guessed), a worker of
// an endpoint, and the account's SSH keys restored at the end (updateSshKeys replaces them).
import { randomBytes } from 'node:crypto';
import type { ResourceKind, Role } from './references.js';
import type { Answer, Transport } from './transport.js';

export type RestV2Kind = Extract<ResourceKind, `v2${string}` | 'gpuType' | 'gpuTypeSpare' | 'gpuPool' | 'cpuType' | 'dataCenter' | 'cudaVersion'>;
type Creatable = 'v2pod' | 'v2cluster' | 'v2endpoint' | 'v2template' | 'v2networkVolume' | 'v2registry' | 'v2delegation' | 'v2secret' | 'v2sandbox';

const COLLECTION: Record<Creatable, string> = {
  v2pod: '/pods',
  v2cluster: '/clusters',
  v2endpoint: '/serverless',
  v2template: '/templates',
  v2networkVolume: '/network-volumes',
  v2registry: '/registries',
  v2delegation: '/registries/delegations',
  v2secret: '/account/secrets',
  v2sandbox: '/sandboxes',
};
/** Users before what they use: sandboxes, pods and clusters before volumes, endpoints before templates. */
const DELETE_ORDER: Creatable[] = ['v2sandbox', 'v2pod', 'v2cluster', 'v2endpoint', 'v2template', 'v2networkVolume', 'v2registry', 'v2delegation', 'v2secret'];
const WORKER_POLLS = 60;
/**
 * Mock time a new pod needs to be RUNNING (RESTV2-ACTION-001: 2 s to provision, then starting) and a new
 * sandbox's container to accept commands (5 s CREATING, then 10 s), with room.
 */
const PROVISION_MS = 16_000;

export interface RestV2FixtureOptions {
  workerImage: string;
  name: (prefix: string) => string;
  secret: (value: string) => void;
}

export class RestV2Fixtures {
  private readonly ids = new Map<string, string>();
  private readonly created = new Map<Creatable, Set<string>>();
  private sshKeys: unknown[] | undefined;
  private counter = 0;

  constructor(private readonly transport: Transport, private readonly options: RestV2FixtureOptions) {}

  async setup(): Promise<void> {
    const t = this.transport;
    const keys = await t.restV2('GET', '/account/ssh-keys');
    if (keys.status === 200) this.sshKeys = (keys.body as { keys?: unknown[] }).keys ?? [];
    await this.catalogue();
    for (const role of ['fixture', 'scratch'] as const) {
      for (const kind of ['v2registry', 'v2template', 'v2networkVolume', 'v2pod', 'v2cluster', 'v2endpoint', 'v2delegation', 'v2sandbox'] as const) {
        this.ids.set(`${kind}:${role}`, await this.create(kind));
      }
    }
    this.ids.set('v2worker:fixture', await this.worker(this.ids.get('v2endpoint:fixture')!));
    // On a clock the run controls, let the pods come up, so reads show running pods (runtime, ports) too.
    if (this.transport.target.controlUrl) await this.transport.pass(PROVISION_MS);
  }

  /** The first listed GPU type with a pool, CPU flavour and data centre (and a GPU type of another pool): what valid requests name. */
  private async catalogue(): Promise<void> {
    const gpus = await this.list('/catalog/gpus', 'gpus') as { id: string; pool?: string | null }[];
    const gpu = gpus.find((g) => typeof g.pool === 'string') ?? gpus[0];
    if (!gpu) throw new Error('setup: the REST v2 catalogue lists no GPU type');
    this.ids.set('gpuType:fixture', gpu.id);
    if (gpu.pool) this.ids.set('gpuPool:fixture', gpu.pool);
    // A type of another pool: what an excludedTypes list can name without emptying the fixture pool.
    this.ids.set('gpuTypeSpare:fixture', (gpus.find((g) => g.pool !== gpu.pool) ?? gpu).id);
    const stock = await this.transport.restV2('GET', `/catalog/gpus/${encodeURIComponent(gpu.id)}?include=AVAILABILITY&product=POD`);
    const cuda = (stock.body as { cudaVersions?: { version: string }[] } | undefined)?.cudaVersions?.[0]?.version;
    if (cuda) this.ids.set('cudaVersion:fixture', cuda);
    const cpus = await this.list('/catalog/cpus', 'cpus') as { id: string }[];
    if (cpus[0]) this.ids.set('cpuType:fixture', cpus[0].id);
    const centres = await this.list('/catalog/datacenters', 'dataCenters') as { id: string }[];
    if (centres[0]) this.ids.set('dataCenter:fixture', centres[0].id);
  }

  private async list(path: string, key: string): Promise<unknown[]> {
    const answer = await this.transport.restV2('GET', path);
    const items = (answer.body as Record<string, unknown> | undefined)?.[key];
    if (answer.status !== 200 || !Array.isArray(items)) throw new Error(`setup: GET ${path} answered ${answer.status}`);
    return items;
  }

  private async worker(endpointId: string): Promise<string> {
    for (let i = 0; i < WORKER_POLLS; i++) {
      const answer = await this.transport.restV2('GET', `/serverless/${encodeURIComponent(endpointId)}/workers`);
      const workers = (answer.body as { workers?: { id: string }[] } | undefined)?.workers;
      if (workers?.[0]) return workers[0].id;
      await this.transport.pass(this.transport.target.controlUrl ? 1_000 : 50);
    }
    throw new Error('setup: the REST v2 fixture endpoint started no worker');
  }

  /** The id (or catalogue value) a placeholder stands for. */
  async idOf(kind: RestV2Kind, role: Role): Promise<string> {
    if (role === 'fresh' && kind in COLLECTION) return this.create(kind as Creatable);
    // Secrets are made when first named: set-up keeps to the requests (and REST v2 quota) it made before them.
    if (kind === 'v2secret' && !this.ids.has(`v2secret:${role}`)) this.ids.set(`v2secret:${role}`, await this.create('v2secret'));
    const id = this.ids.get(`${kind}:${role === 'fresh' ? 'fixture' : role}`) ?? this.ids.get(`${kind}:fixture`);
    if (!id) throw new Error(`no REST v2 ${role} ${kind} was set up`);
    return id;
  }

  /** The scratch resource a request under `path` may change, for the stored-nothing observation. */
  scratchPath(path: string): string | undefined {
    const kind = (Object.keys(COLLECTION) as Creatable[]).find((k) => path.startsWith(`${COLLECTION[k]}/{`));
    const id = kind && this.ids.get(`${kind}:scratch`);
    return id ? `${COLLECTION[kind]}/${encodeURIComponent(id)}` : undefined;
  }

  /** Tracks what a generated create made, so the cleanup deletes it. */
  record(path: string, answer: Answer): void {
    const kind = (Object.keys(COLLECTION) as Creatable[]).find((k) => COLLECTION[k] === path);
    const id = (answer.body as { id?: unknown } | undefined)?.id;
    if (kind && typeof id === 'string') this.track(kind, id);
  }

  private track(kind: Creatable, id: string): void {
    let set = this.created.get(kind);
    if (!set) this.created.set(kind, (set = new Set()));
    set.add(id);
  }

  private async create(kind: Creatable): Promise<string> {
    const name = this.options.name(kind);
    const image = this.options.workerImage;
    const bodies: Record<Creatable, () => Record<string, unknown>> = {
      v2registry: () => {
        const password = `pw-${randomBytes(12).toString('hex')}`;
        this.options.secret(password);
        return { name, username: 'agreement', password };
      },
      v2template: () => ({ name, image }),
      v2networkVolume: () => ({ name, size: 10, dataCenter: this.ids.get('dataCenter:fixture') }),
      v2pod: () => ({ name, image, ports: ['8888/http', '22/tcp'], gpu: { id: this.ids.get('gpuType:fixture'), count: 1 } }),
      v2cluster: () => ({ name, type: 'TRAINING', image, compute: { gpuTypeId: 'NVIDIA H100 80GB HBM3', gpuCountPerPod: 8, podCount: 2 } }),
      v2endpoint: () => ({
        name, type: 'QUEUE', image, gpu: { pools: [this.ids.get('gpuPool:fixture')] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 1, max: 2 },
      }),
      // Names of the pattern (a letter first, then letters, digits and _.-/); the value is registered as a secret.
      v2secret: () => {
        const value = `sv-${randomBytes(12).toString('hex')}`;
        this.options.secret(value);
        return { name: name.replace(/[^A-Za-z0-9_.\-/]/g, '_').replace(/^[^A-Za-z_]/, 's'), value };
      },
      // The public image of the sandbox pages; terminated by the cleanup (a terminated sandbox stays readable).
      v2sandbox: () => ({ name, imageName: 'python:3.12-slim' }),
      v2delegation: () => {
        const account = String(100_000_000_000 + (randomBytes(4).readUInt32BE() % 899_999_999_999));
        return { resource: `arn:aws:ecr:us-east-2:${account}:repository/agree/${name.toLowerCase()}-${++this.counter}` };
      },
    };
    const answer = await this.transport.restV2('POST', COLLECTION[kind], bodies[kind]());
    if (answer.status !== 201 && answer.status !== 200) throw new Error(`setup: REST v2 POST ${COLLECTION[kind]} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    const id = String((answer.body as { id: string }).id);
    this.track(kind, id);
    return id;
  }

  /**
   * Deletes what the run created (first pass: what REST v1 resources still use stays, see retry) and
   * puts the SSH keys back; returns what could not be deleted (first pass: what is left for the retry).
   */
  async cleanup(final = false): Promise<string[]> {
    const left: string[] = [];
    for (const kind of DELETE_ORDER) {
      for (const id of this.created.get(kind) ?? []) {
        const path = `${COLLECTION[kind]}/${encodeURIComponent(id)}`;
        let answer = await this.transport.restV2('DELETE', path);
        // A generated PATCH may have locked the pod (RESTV2-ACTION-004): unlock, then delete.
        if (answer.status === 409 && kind === 'v2pod' && (await this.transport.restV2('PATCH', path, { locked: false })).status === 200) {
          answer = await this.transport.restV2('DELETE', path);
        }
        if (answer.status === 204 || answer.status === 404) this.created.get(kind)!.delete(id);
        else left.push(`${kind} ${id} (HTTP ${answer.status})`);
      }
    }
    if (!final) return left;
    this.created.clear();
    if (this.sshKeys) {
      const restored = await this.transport.restV2('PUT', '/account/ssh-keys', { keys: this.sshKeys });
      if (restored.status !== 200) left.push(`account SSH keys not restored (HTTP ${restored.status})`);
    }
    return left;
  }
}
