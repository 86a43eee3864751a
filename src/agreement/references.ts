// Which inputs name an existing resource, and which resource a request should name: the one the
// setup created for reading (fixture), one it may change (scratch), or a fresh one it may delete.
// Placeholders in generated requests are replaced by real ids just before sending.
import type { OperationModel } from './spec-model.js';

export type ResourceKind = 'pod' | 'endpoint' | 'template' | 'templateName' | 'networkVolume' | 'registryAuth' | 'job' | 'secret'
  // REST v2 resources (created through REST v2) and what its catalogue lists.
  | 'v2pod' | 'v2cluster' | 'v2endpoint' | 'v2template' | 'v2networkVolume' | 'v2registry' | 'v2delegation' | 'v2secret' | 'v2worker' | 'v2sandbox'
  | 'gpuType' | 'gpuTypeSpare' | 'gpuPool' | 'cpuType' | 'dataCenter' | 'cudaVersion';
export type Role = 'fixture' | 'scratch' | 'fresh';

const PATH_REFERENCES: Record<string, ResourceKind> = {
  podId: 'pod',
  endpointId: 'endpoint',
  templateId: 'template',
  networkVolumeId: 'networkVolume',
  containerRegistryAuthId: 'registryAuth',
  jobId: 'job',
};

/** Body properties (REST v1) that must name an existing resource. */
const BODY_REFERENCES: Record<string, ResourceKind> = {
  templateId: 'template',
  networkVolumeId: 'networkVolume',
  networkVolumeIds: 'networkVolume',
  containerRegistryAuthId: 'registryAuth',
};

/** REST v2 path `{id}`: the resource of the collection the path starts with (longest prefix first). */
const V2_PATH_KINDS: [prefix: string, kind: ResourceKind][] = [
  ['/registries/delegations/', 'v2delegation'],
  ['/account/secrets/', 'v2secret'],
  ['/pods/', 'v2pod'],
  ['/clusters/', 'v2cluster'],
  ['/serverless/', 'v2endpoint'],
  ['/templates/', 'v2template'],
  ['/network-volumes/', 'v2networkVolume'],
  ['/registries/', 'v2registry'],
  ['/sandboxes/', 'v2sandbox'],
  ['/catalog/gpus/', 'gpuType'],
  ['/catalog/cpus/', 'cpuType'],
  ['/catalog/datacenters/', 'dataCenter'],
];

/** REST v2 body properties (by place in the body) that name a resource or a catalogue entry. */
const V2_BODY_REFERENCES: Record<string, ResourceKind> = {
  templateId: 'v2template',
  registry: 'v2registry',
  'mounts.network[].volumeId': 'v2networkVolume',
  networkVolumes: 'v2networkVolume',
  'gpu.id': 'gpuType',
  // A type outside the fixture pool: excluding the pool's own types could leave it none (RESTV2-ENDPOINT-002).
  'gpu.excludedTypes': 'gpuTypeSpare',
  'compute.gpuTypeId': 'gpuType',
  'gpu.pools': 'gpuPool',
  // A CUDA version the fixture GPU type's hosts have (a random major.minor matches none: RESTV2-POD-008).
  'gpu.allowedCudaVersions': 'cudaVersion',
  'gpu.minCudaVersion': 'cudaVersion',
  'cpu.id': 'cpuType',
  'cpu[].id': 'cpuType',
  dataCenterIds: 'dataCenter',
  dataCenter: 'dataCenter',
  // createSandbox: a listed CPU flavor and data centre (a random name is 422, RESTV2-SANDBOX-002).
  cpuFlavorId: 'cpuType',
  dataCenterId: 'dataCenter',
};

/** Catalogue entries are only ever read: every request names the same listed one. */
const CATALOGUE: ReadonlySet<ResourceKind> = new Set(['gpuType', 'gpuTypeSpare', 'gpuPool', 'cpuType', 'dataCenter', 'cudaVersion', 'v2worker']);

/** GraphQL variables and input fields that name an existing resource, per root field. */
const GRAPHQL_REFERENCES: Record<string, Record<string, { kind: ResourceKind; role: Role }>> = {
  podTemplate: { id: { kind: 'template', role: 'fixture' } },
  saveTemplate: { id: { kind: 'template', role: 'scratch' }, containerRegistryAuthId: { kind: 'registryAuth', role: 'fixture' } },
  deleteTemplate: { templateName: { kind: 'templateName', role: 'fresh' } },
  secretDelete: { id: { kind: 'secret', role: 'fresh' } },
};

const MARK = '\u0001ref:';

export function placeholder(kind: ResourceKind, role: Role): string {
  return `${MARK}${kind}:${role}\u0001`;
}

const PLACEHOLDER = /^\u0001ref:(\w+):(fixture|scratch|fresh)\u0001$/;

export function parsePlaceholder(value: unknown): { kind: ResourceKind; role: Role } | undefined {
  const match = typeof value === 'string' ? PLACEHOLDER.exec(value) : null;
  return match ? { kind: match[1] as ResourceKind, role: match[2] as Role } : undefined;
}

/**
 * The reference kind and role of an input, or undefined when it names no resource. `at` is a body
 * property's place in the body (`gpu.id`), which REST v2 needs: its `id`s mean different things.
 */
export function reference(op: OperationModel, where: 'path' | 'body', name: string, at: string = name): { kind: ResourceKind; role: Role } | undefined {
  if (op.surface === 'graphql') return GRAPHQL_REFERENCES[op.operationId]?.[name];
  if (op.surface === 'restV2') return restV2Reference(op, where, name, at);
  if (where === 'body') {
    const kind = BODY_REFERENCES[name];
    return kind ? { kind, role: 'fixture' } : undefined;
  }
  const kind = PATH_REFERENCES[name];
  if (!kind) return undefined;
  // Jobs are shared: reading, cancelling or retrying one only moves it through documented states.
  if (kind === 'job') return { kind, role: 'fixture' };
  return { kind, role: pathRole(op) };
}

function restV2Reference(op: OperationModel, where: 'path' | 'body', name: string, at: string): { kind: ResourceKind; role: Role } | undefined {
  let kind: ResourceKind | undefined;
  if (where === 'body') kind = V2_BODY_REFERENCES[at];
  else if (name === 'workerId') kind = 'v2worker';
  else if (name === 'id') kind = V2_PATH_KINDS.find(([prefix]) => op.path.startsWith(prefix))?.[1];
  if (!kind) return undefined;
  if (where === 'body' || CATALOGUE.has(kind)) return { kind, role: 'fixture' };
  // podAction may terminate the pod: a fresh one, like a delete.
  return { kind, role: op.operationId === 'podAction' ? 'fresh' : pathRole(op) };
}

/** The queue v2 endpoint a request goes to: its own id is not a parameter of the queue spec. */
export function queueEndpointRole(op: OperationModel): 'queue' | 'sync' {
  return op.params.some((p) => p.name === 'wait') && op.method === 'POST' ? 'sync' : 'queue';
}

function pathRole(op: OperationModel): Role {
  if (op.method === 'DELETE') return 'fresh';
  if (op.method === 'GET') return 'fixture';
  return 'scratch';
}

/** Whether a request names something the setup did not create (a random id): then a 404/400 is expected. */
export function namesUnknownReference(op: OperationModel, path: Record<string, string>, body: unknown): boolean {
  for (const [name, value] of Object.entries(path)) {
    if (reference(op, 'path', name) && !parsePlaceholder(value)) return true;
  }
  let unknown = false;
  const walk = (node: unknown, at: string): void => {
    if (unknown || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item) => walk(item, `${at}[]`));
    for (const [key, value] of Object.entries(node)) {
      const where = at ? `${at}.${key}` : key;
      if (reference(op, 'body', key, where) && value !== undefined && value !== null) {
        const values = Array.isArray(value) ? value : [value];
        if (values.some((v) => !parsePlaceholder(v))) unknown = true;
      } else walk(value, where);
    }
  };
  walk(body, '');
  return unknown;
}
