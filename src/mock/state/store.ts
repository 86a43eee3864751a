// Resource state shared by REST v1 and GraphQL: pods, endpoints, templates, network volumes,
// registry auths, secrets. Enforces the cross-resource rules (unique names, references, template
// in use + delete delay). Rendering to wire shapes lives in rest/render.ts and graphql/.
import type { Clock } from '../clock.js';
import type {
  ClusterRecord, EcrDelegationRecord, EndpointRecord, NetworkVolumeRecord, PodRecord, RegistryAuthRecord, SandboxRecord, SecretRecord, TemplateRecord,
} from '../types.js';
import { accountKind, DEFAULT_ACCOUNT } from '../account-names.js';
import { TrackedMap, type ChangeSink } from '../state-journal/tracked-map.js';
import { resourceId } from './ids.js';
import { PodLifecycle } from './pods.js';
import { secretInputFailure, templateInputFailure } from './input-bounds.js';
import { addSecret, type NewSecret, type SecretChecks } from './secrets.js';
import { noteRelease } from './releases.js';
import { missingReference } from './references.js';

export { ok, notFound, badRequest, type Failure, type Result, type StoreSnapshot, type PodChange, type PodObserver } from './results.js';
import { ok, notFound, badRequest, type Failure, type Result, type StoreSnapshot, type PodObserver } from './results.js';

type Body = Record<string, unknown>;

const ENDPOINT_DEFAULTS = {
  computeType: 'GPU', gpuCount: 1, workersMin: 0, workersMax: 3, idleTimeout: 5, scalerType: 'QUEUE_DELAY',
  scalerValue: 4, executionTimeoutMs: 600_000, env: {},
};
const TEMPLATE_DEFAULTS = {
  category: 'NVIDIA', containerDiskInGb: 50, dockerEntrypoint: [], dockerStartCmd: [], env: {}, isPublic: false,
  isServerless: false, ports: [], readme: '', volumeInGb: 20, volumeMountPath: '/workspace',
};

export class ResourceStore {
  /**
   * Every collection of records, by the name --state stores it under. A new kind of resource is a
   * `this.collection(name)`: then every set/delete of any surface is journaled (src/mock/state-journal).
   */
  readonly collections = new Map<string, TrackedMap<{ id: string }>>();
  // Made in the constructor: a collection's journal kind and owner directory need the account.
  readonly pods: TrackedMap<PodRecord>;
  readonly endpoints: TrackedMap<EndpointRecord>;
  readonly templates: TrackedMap<TemplateRecord>;
  readonly networkVolumes: TrackedMap<NetworkVolumeRecord>;
  readonly registryAuths: TrackedMap<RegistryAuthRecord>;
  readonly secrets: TrackedMap<SecretRecord>;
  readonly ecrDelegations: TrackedMap<EcrDelegationRecord>;
  readonly clusters: TrackedMap<ClusterRecord>;
  /** REST v2 sandboxes (their lifecycle: rest-v2/sandbox-lifecycle.ts). */
  readonly sandboxes: TrackedMap<SandboxRecord>;
  private keys: string[] = [];
  /** Where changes are journaled (--state); undefined without it. */
  private sink: ChangeSink | undefined;
  podObserver: PodObserver | undefined;
  private readonly podLifecycle: PodLifecycle;

  constructor(
    private readonly clock: Clock,
    private readonly templateDeleteDelayMs: () => number,
    private readonly allowDeleteInUse: boolean,
    /** Heap ceiling: a Failure refuses every create (CAPACITY-HEAP-001). */
    private readonly atCapacity: () => Failure | undefined = () => undefined,
    /** The account owning every record of this store (its user id on every surface). */
    readonly account: string = DEFAULT_ACCOUNT,
    /** Owner of every id of one kind across accounts (src/mock/accounts.ts). */
    private readonly ownersOf: (kind: string) => Map<string, string> = () => new Map(),
  ) {
    this.pods = this.collection('pods');
    this.endpoints = this.collection('endpoints');
    this.templates = this.collection('templates');
    this.networkVolumes = this.collection('networkVolumes');
    this.registryAuths = this.collection('registryAuths');
    this.secrets = this.collection('secrets');
    this.ecrDelegations = this.collection('ecrDelegations');
    this.clusters = this.collection('clusters');
    this.sandboxes = this.collection('sandboxes');
    this.podLifecycle = new PodLifecycle({
      pods: this.pods, clock,
      refusal: (body) => this.checkRefs(body),
      atCapacity: () => this.atCapacity(),
      template: (id) => this.referenced('templates', id),
      templateReleased: (id) => this.templateReleased(id),
      observer: () => this.podObserver,
    });
  }

  /** Journal id of this account's SSH keys (kind `account`): `sshKeys`, or `sshKeys@ACCOUNT`. */
  get sshKeysId(): string {
    return accountKind('sshKeys', this.account);
  }

  /**
   * A reference in a body (templateId, networkVolumeId, …) resolves in this account only; fault
   * `foreign-reference-accepted` resolves it in any account.
   */
  referenced<K extends 'templates' | 'networkVolumes' | 'registryAuths' | 'secrets'>(kind: K, id: string): ReturnType<ResourceStore[K]['get']> {
    const own = this[kind].get(id);
    if (own !== undefined || this.foreignLookup === undefined) return own as ReturnType<ResourceStore[K]['get']>;
    return this.foreignLookup(kind, id) as ReturnType<ResourceStore[K]['get']>;
  }

  /** Set only by fault `foreign-reference-accepted`: finds a referenced record in another account. */
  foreignLookup: ((kind: string, id: string) => unknown) | undefined;

  private collection<T extends { id: string }>(kind: string): TrackedMap<T> {
    const map = new TrackedMap<T>(accountKind(kind, this.account), true, { owners: this.ownersOf(kind), account: this.account });
    this.collections.set(kind, map as unknown as TrackedMap<{ id: string }>);
    return map;
  }

  /** Account SSH public keys (REST v2 account/ssh-keys); assigning journals the change. */
  get sshKeys(): string[] {
    if (this.sink?.readsMayChange) this.sink.changed('account', this.sshKeysId);
    return this.keys;
  }

  set sshKeys(keys: string[]) {
    this.keys = keys;
    this.sink?.changed('account', this.sshKeysId);
  }

  /** The SSH keys without counting as a read (the journal reading what to write). */
  storedSshKeys(): readonly string[] {
    return this.keys;
  }

  /** Journals every later change to `sink` (--state). */
  journalTo(sink: ChangeSink | undefined): void {
    this.sink = sink;
    for (const map of this.collections.values()) map.sink = sink;
  }

  private iso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  // ---- references -----------------------------------------------------------------------

  private checkRefs(body: Body): Failure | undefined {
    return missingReference(body, (kind, id) => this.referenced(kind, id) !== undefined);
  }

  /** Records that a pod or endpoint stopped using a template (starts the delete delay). */
  private templateReleased(templateId: unknown): void {
    if (typeof templateId !== 'string') return;
    const t = this.templates.get(templateId);
    if (t) {
      t.lastUsedAt = this.clock.now();
      this.templates.touch(t.id);
    }
  }

  // ---- endpoints ------------------------------------------------------------------------

  createEndpoint(body: Body): Result<EndpointRecord> {
    const refused = this.checkRefs(body) ?? this.atCapacity();
    if (refused) return refused;
    const record: EndpointRecord = {
      ...ENDPOINT_DEFAULTS,
      ...body,
      id: resourceId(),
      name: typeof body['name'] === 'string' ? body['name'] : `endpoint-${this.endpoints.size + 1}`,
      templateId: body['templateId'] as string,
      createdAt: this.iso(),
      userId: this.account,
      version: 0,
    };
    const workers = workersConflict(record, body);
    if (workers) return workers;
    this.endpoints.set(record.id, record);
    noteRelease(record, this.templates.get(record.templateId), this.clock.now());
    return ok(record);
  }

  updateEndpoint(id: string, body: Body): Result<EndpointRecord> {
    const record = this.endpoints.get(id);
    if (!record) return notFound('endpoint');
    const refs = this.checkRefs(body);
    if (refs) return refs;
    const next = { ...record, ...body, id, version: record.version + 1 } as EndpointRecord;
    const workers = workersConflict(next, body);
    if (workers) return workers;
    if (next.templateId !== record.templateId) this.templateReleased(record.templateId);
    this.endpoints.set(id, next);
    noteRelease(next, this.templates.get(next.templateId), this.clock.now());
    return ok(next);
  }

  deleteEndpoint(id: string): Result<EndpointRecord> {
    const record = this.endpoints.get(id);
    if (!record) return notFound('endpoint');
    this.endpoints.delete(id);
    this.templateReleased(record.templateId);
    return ok(record);
  }

  // ---- templates ------------------------------------------------------------------------

  templateByName(name: string): TemplateRecord | undefined {
    for (const t of this.templates.values()) if (t.name === name) return t;
    return undefined;
  }

  /** REST create, or GraphQL create/replace (`replaceId`: full replace keeping id and usage). */
  saveTemplate(body: Body, replaceId?: string): Result<TemplateRecord> {
    const name = body['name'] as string;
    // Input bounds (the id's too) before any lookup: a bad input is named as such, not as "not found".
    const invalid = templateInputFailure(replaceId === undefined ? body : { ...body, id: replaceId });
    if (invalid) return invalid;
    const existing = replaceId ? this.templates.get(replaceId) : undefined;
    if (replaceId && !existing) return notFound('template');
    const clash = this.templateByName(name);
    if (clash && clash.id !== replaceId) return badRequest(`a template named '${name}' already exists`, '/body/name');
    const refused = this.checkRefs(body) ?? (replaceId ? undefined : this.atCapacity());
    if (refused) return refused;
    const record: TemplateRecord = { ...TEMPLATE_DEFAULTS, ...body, id: replaceId ?? resourceId(), name, imageName: body['imageName'] as string };
    if (existing?.lastUsedAt !== undefined) record.lastUsedAt = existing.lastUsedAt;
    this.templates.set(record.id, record);
    if (replaceId) this.templateChanged(record);
    return ok(record);
  }

  updateTemplate(id: string, body: Body): Result<TemplateRecord> {
    const record = this.templates.get(id);
    if (!record) return notFound('template');
    if (typeof body['name'] === 'string') {
      const clash = this.templateByName(body['name']);
      if (clash && clash.id !== id) return badRequest(`a template named '${body['name']}' already exists`, '/body/name');
    }
    const refs = this.checkRefs(body);
    if (refs) return refs;
    const next = { ...record, ...body, id } as TemplateRecord;
    this.templates.set(id, next);
    this.templateChanged(next);
    return ok(next);
  }

  /** A template change is a new release of every endpoint whose workers run it. */
  private templateChanged(template: TemplateRecord): void {
    for (const e of this.endpoints.values()) {
      if (e.templateId !== template.id) continue;
      noteRelease(e, template, this.clock.now());
      this.endpoints.touch(e.id);
    }
  }

  templateUsers(id: string): string[] {
    const users: string[] = [];
    for (const p of this.pods.values()) if (p.templateId === id) users.push(`pod ${p.id}`);
    for (const e of this.endpoints.values()) if (e.templateId === id) users.push(`endpoint ${e.id}`);
    return users;
  }

  deleteTemplate(id: string): Result<TemplateRecord> {
    const record = this.templates.get(id);
    if (!record) return notFound('template');
    if (!this.allowDeleteInUse) {
      const users = this.templateUsers(id);
      if (users.length > 0) return badRequest(`template is in use by ${users.join(', ')}`);
      if (record.lastUsedAt !== undefined) {
        const readyAt = record.lastUsedAt + this.templateDeleteDelayMs();
        if (this.clock.now() < readyAt) {
          return badRequest(`template was used recently; it can be deleted in ${Math.ceil((readyAt - this.clock.now()) / 1000)} s`);
        }
      }
    }
    this.templates.delete(id);
    return ok(record);
  }

  // ---- pods (their lifecycle: pods.ts) --------------------------------------------------

  createPod(body: Body): Result<PodRecord> {
    return this.podLifecycle.create(body);
  }

  updatePod(id: string, body: Body): Result<PodRecord> {
    return this.podLifecycle.update(id, body);
  }

  setPodStatus(id: string, action: 'start' | 'stop' | 'reset' | 'restart'): Result<PodRecord> {
    return this.podLifecycle.setStatus(id, action);
  }

  deletePod(id: string): Result<PodRecord> {
    return this.podLifecycle.delete(id);
  }

  // ---- network volumes, registry auths, secrets ------------------------------------------

  createNetworkVolume(body: Body): Result<NetworkVolumeRecord> {
    const refused = this.atCapacity();
    if (refused) return refused;
    const record: NetworkVolumeRecord = {
      id: resourceId(), name: body['name'] as string, size: body['size'] as number,
      dataCenterId: body['dataCenterId'] as string, createdAt: this.clock.now(),
    };
    this.networkVolumes.set(record.id, record);
    return ok(record);
  }

  updateNetworkVolume(id: string, body: Body): Result<NetworkVolumeRecord> {
    const record = this.networkVolumes.get(id);
    if (!record) return notFound('network volume');
    if (typeof body['size'] === 'number' && body['size'] < record.size) {
      return badRequest(`size must not shrink: the volume has ${record.size} GB`, '/body/size');
    }
    if (typeof body['name'] === 'string') record.name = body['name'];
    if (typeof body['size'] === 'number') record.size = body['size'];
    this.networkVolumes.touch(id);
    return ok(record);
  }

  deleteNetworkVolume(id: string): Result<NetworkVolumeRecord> {
    const record = this.networkVolumes.get(id);
    if (!record) return notFound('network volume');
    for (const p of this.pods.values()) if (p['networkVolumeId'] === id) return badRequest(`network volume is attached to pod ${p.id}`);
    for (const e of this.endpoints.values()) {
      const ids = Array.isArray(e['networkVolumeIds']) ? (e['networkVolumeIds'] as string[]) : [];
      if (e['networkVolumeId'] === id || ids.includes(id)) return badRequest(`network volume is attached to endpoint ${e.id}`);
    }
    this.networkVolumes.delete(id);
    return ok(record);
  }

  createRegistryAuth(body: Body): Result<RegistryAuthRecord> {
    const name = body['name'] as string;
    for (const a of this.registryAuths.values()) if (a.name === name) return badRequest(`a container registry auth named '${name}' already exists`, '/body/name');
    const refused = this.atCapacity();
    if (refused) return refused;
    const record: RegistryAuthRecord = { id: resourceId(), name, username: body['username'] as string, password: body['password'] as string };
    this.registryAuths.set(record.id, record);
    return ok(record);
  }

  /** Replaces username and password (GraphQL updateRegistryAuth; REST v2 has no update). */
  updateRegistryAuth(id: string, username: string, password: string): Result<RegistryAuthRecord> {
    const record = this.registryAuths.get(id);
    if (!record) return notFound('container registry auth');
    record.username = username;
    record.password = password;
    return ok(record);
  }

  /** Seed: an unknown id on delete is "400 invalid id". */
  deleteRegistryAuth(id: string): Result<RegistryAuthRecord> {
    const record = this.registryAuths.get(id);
    if (!record) return badRequest(`invalid container registry auth id '${id}'`, '/path/containerRegistryAuthId');
    this.registryAuths.delete(id);
    return ok(record);
  }

  /** GraphQL secretCreate and the control API: the GraphQL bounds first (REST v2 bodies passed their validator). */
  createSecret(name: string, value: string, description: string | null): Result<SecretRecord> {
    const invalid = secretInputFailure({ name, value, description });
    if (invalid) return invalid;
    return this.addSecret({ name, value, description });
  }

  /** Unique name (without case), the per-account maximum, the heap ceiling (state/secrets.ts). */
  addSecret(input: NewSecret, checks?: SecretChecks): Result<SecretRecord> {
    return addSecret(this.secrets, input, this.clock.now(), this.atCapacity, checks);
  }

  secretValue(name: string): string | undefined {
    for (const s of this.secrets.values()) if (s.name === name) return s.value;
    return undefined;
  }

  // ---- persistence ----------------------------------------------------------------------

  snapshot(): StoreSnapshot {
    return {
      pods: [...this.pods.values()], endpoints: [...this.endpoints.values()], templates: [...this.templates.values()],
      networkVolumes: [...this.networkVolumes.values()], registryAuths: [...this.registryAuths.values()],
      secrets: [...this.secrets.values()], ecrDelegations: [...this.ecrDelegations.values()], clusters: [...this.clusters.values()], sandboxes: [...this.sandboxes.values()], sshKeys: [...this.sshKeys],
    };
  }

  restore(s: Partial<StoreSnapshot>): void {
    this.clear();
    // Every collection by its name, so a collection added later is restored without a change here.
    for (const [kind, map] of this.collections) {
      for (const r of ((s as Record<string, unknown>)[kind] as { id: string }[] | undefined) ?? []) map.set(r.id, r);
    }
    this.sshKeys = [...(s.sshKeys ?? [])];
  }

  clear(): void {
    for (const map of this.collections.values()) map.clear();
    this.sshKeys = [];
    this.podObserver?.cleared();
  }
}

/** REST-ENDPOINT-009: workersMin may not exceed workersMax (default 3); names the field the caller sent. */
function workersConflict(record: Record<string, unknown>, body: Body): Failure | undefined {
  const min = record['workersMin'] as number;
  const max = record['workersMax'] as number;
  if (min <= max) return undefined;
  const path = body['workersMax'] !== undefined ? '/body/workersMax' : '/body/workersMin';
  return badRequest(`workersMin (${min}) must not exceed workersMax (${max}${body['workersMax'] === undefined ? ', the current or default value' : ''})`, path);
}
