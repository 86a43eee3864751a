// REST v2 serverless endpoint ⇄ stored (REST v1-shaped) endpoint, per specs/migration/rest-v1-to-v2.yaml:
// workers.{min,max,idleTimeout} ⇄ workersMin/workersMax/idleTimeout, scaling ⇄ scalerType/scalerValue,
// timeout ⇄ executionTimeoutMs, networkVolumes ⇄ networkVolumeIds, flashboot ⇄ flashboot (boolean),
// gpu.pools ⇄ gpuTypeIds (every type of the pools, minus gpu.excludedTypes), cpu ⇄ cpuFlavorIds + vcpuCount.
// The container settings come from the endpoint's template. v2-only fields are stored beside:
// endpointType, flashbootMode, queueDelay (exact), cpuConfigs (a vCPU count per flavour).
import type { MockCore } from '../core.js';
import type { EndpointRecord } from '../types.js';
import { DEFAULT_GPU_TYPE, cpuType, dataCenter, gpuType, isGpuPool, typesOfPool } from './catalog-data.js';
import { problem } from './problem.js';
import { argsFromWords, type Body } from './shared.js';
import type { V2Reply } from './types.js';

/** Defaults of a REST v2 create (CreateEndpointRequest), which differ from REST v1's (idle 5 s, timeout 600 s). */
export const V2_ENDPOINT_DEFAULTS = { workersMin: 0, workersMax: 3, idleTimeout: 10, executionTimeoutMs: 300_000 };
/** CPU flavour of a CPU endpoint stored without one (REST v1 lets the service choose). */
export const DEFAULT_CPU_FLAVOR = 'cpu3c';

const unique = <T>(items: T[]): T[] => [...new Set(items)];
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export type FlashbootMode = 'OFF' | 'FLASHBOOT' | 'PRIORITY_FLASHBOOT';

function flashbootOf(e: EndpointRecord): FlashbootMode {
  if (e['flashboot'] !== true) return 'OFF';
  const mode = e['flashbootMode'];
  return mode === 'FLASHBOOT' || mode === 'PRIORITY_FLASHBOOT' ? mode : 'FLASHBOOT';
}

/** GPU types of the endpoint, or the mock's default GPU when REST v1 left the choice to the service. */
const gpuTypesOf = (e: EndpointRecord): string[] => {
  const ids = strings(e['gpuTypeIds']);
  return ids.length > 0 ? ids : [DEFAULT_GPU_TYPE];
};

/** Pools holding the endpoint's GPU types, in order; types in no pool show the default GPU's pool. */
export function poolsOf(e: EndpointRecord): string[] {
  const pools = unique(gpuTypesOf(e).map((id) => gpuType(id)?.pool).filter((p): p is string => typeof p === 'string'));
  return pools.length > 0 ? pools : [gpuType(DEFAULT_GPU_TYPE)!.pool!];
}

function renderGpu(e: EndpointRecord): Record<string, unknown> {
  const types = gpuTypesOf(e);
  const pools = poolsOf(e);
  const excluded = pools.flatMap(typesOfPool).filter((id) => !types.includes(id));
  const minCuda = e['minCudaVersion'];
  return {
    pools,
    ...(excluded.length > 0 ? { excludedTypes: excluded } : {}),
    count: (e['gpuCount'] as number | undefined) ?? 1,
    allowedCudaVersions: strings(e['allowedCudaVersions']),
    minCudaVersion: typeof minCuda === 'string' && minCuda !== '' ? minCuda : null,
  };
}

function renderCpu(e: EndpointRecord): Record<string, unknown>[] {
  const ids = strings(e['cpuFlavorIds']);
  const configs = e['cpuConfigs'] as { id: string; vcpuCount: number }[] | undefined;
  const fromStore = ids.length > 0 ? ids : [DEFAULT_CPU_FLAVOR];
  const list = configs && JSON.stringify(configs.map((c) => c.id)) === JSON.stringify(fromStore)
    ? configs
    : fromStore.map((id) => ({ id, vcpuCount: (e['vcpuCount'] as number | undefined) ?? 2 }));
  return list.map((c) => ({ id: c.id, vcpuCount: c.vcpuCount, memory: Math.max(1, Math.round(c.vcpuCount * (cpuType(c.id)?.ramGbPerVcpu ?? 2))) }));
}

function renderScaling(e: EndpointRecord): Record<string, unknown> {
  const value = (e['scalerValue'] as number | undefined) ?? 4;
  if (e['scalerType'] === 'REQUEST_COUNT') return { type: 'REQUEST_COUNT', requestCount: value };
  // The stored integer is REST v1's; the exact (fractional) v2 value is kept beside while it still matches.
  const exact = e['queueDelay'];
  return { type: 'QUEUE_DELAY', queueDelay: typeof exact === 'number' && Math.max(1, Math.round(exact)) === value ? exact : value };
}

export function renderEndpointV2(core: MockCore, e: EndpointRecord): Record<string, unknown> {
  const t = core.store.templates.get(e.templateId);
  const registry = t?.['containerRegistryAuthId'];
  const volumes = unique([...strings(e['networkVolumeIds']), ...(typeof e['networkVolumeId'] === 'string' ? [e['networkVolumeId']] : [])]);
  const out: Record<string, unknown> = {
    id: e.id,
    name: e.name,
    type: e['endpointType'] === 'LOAD_BALANCER' ? 'LOAD_BALANCER' : 'QUEUE',
    image: t?.imageName ?? '',
    args: argsFromWords(t?.['dockerStartCmd']),
    disk: (t?.['containerDiskInGb'] as number | undefined) ?? 50,
    ports: strings(t?.['ports']),
    env: { ...(t?.['env'] as object | undefined), ...(e['env'] as object | undefined) },
    registry: typeof registry === 'string' && registry !== '' ? registry : null,
    workers: { min: (e['workersMin'] as number | undefined) ?? 0, max: (e['workersMax'] as number | undefined) ?? 3, idleTimeout: (e['idleTimeout'] as number | undefined) ?? 5 },
    scaling: renderScaling(e),
    dataCenterIds: strings(e['dataCenterIds']),
    networkVolumes: volumes,
    timeout: (e['executionTimeoutMs'] as number | undefined) ?? 600_000,
    flashboot: flashbootOf(e),
    createdAt: e.createdAt,
  };
  if (e['computeType'] === 'CPU') out['cpu'] = renderCpu(e);
  else out['gpu'] = renderGpu(e);
  return out;
}

// ---- request bodies → stored fields ------------------------------------------------------------

export type Refusal = V2Reply;
export const isRefusal = (v: unknown): v is Refusal => typeof (v as V2Reply)?.status === 'number';

/** gpu of a create or update in stored fields; `current` is the endpoint being updated. */
export function gpuFields(gpu: Body, current?: EndpointRecord): Body | Refusal {
  const out: Body = { computeType: 'GPU' };
  if (gpu['pools'] !== undefined) {
    const pools = strings(gpu['pools']);
    const badPool = pools.findIndex((p) => !isGpuPool(p));
    if (badPool >= 0) return problem(422, `'${pools[badPool]}' is no GPU pool`, [`/body/gpu/pools/${badPool}: unknown pool (see the pool of listGpuTypes)`]);
    const excluded = strings(gpu['excludedTypes']);
    const badType = excluded.findIndex((id) => !gpuType(id));
    if (badType >= 0) return problem(422, `'${excluded[badType]}' is no GPU type`, [`/body/gpu/excludedTypes/${badType}: unknown GPU type`]);
    const types = unique(pools.flatMap(typesOfPool)).filter((id) => !excluded.includes(id));
    if (types.length === 0) return problem(400, 'gpu.excludedTypes leaves no GPU type in the chosen pools', ['/body/gpu/excludedTypes: keep at least one type of the pools']);
    out['gpuTypeIds'] = types;
  }
  if (gpu['count'] !== undefined) out['gpuCount'] = gpu['count'];
  else if (!current) out['gpuCount'] = 1;
  const allowed = gpu['allowedCudaVersions'] !== undefined ? strings(gpu['allowedCudaVersions']) : strings(current?.['allowedCudaVersions']);
  const floorSent = gpu['minCudaVersion'];
  const floor = floorSent === '' ? undefined : (floorSent as string | undefined) ?? (current?.['minCudaVersion'] as string | undefined);
  if (allowed.length > 0 && floor !== undefined) {
    return problem(400, 'gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion exclude each other', ['/body/gpu/minCudaVersion: not together with a non-empty allowedCudaVersions']);
  }
  out['allowedCudaVersions'] = allowed;
  // An empty minCudaVersion clears the floor.
  out['minCudaVersion'] = floor;
  return out;
}

export function cpuFields(cpu: { id: string; vcpuCount: number }[]): Body | Refusal {
  for (const [i, c] of cpu.entries()) {
    const flavor = cpuType(c.id);
    if (!flavor) return problem(422, `'${c.id}' is no CPU flavour`, [`/body/cpu/${i}/id: unknown CPU flavour (see listCpuTypes)`]);
    if (c.vcpuCount < flavor.vcpu.min || c.vcpuCount > flavor.vcpu.max) {
      return problem(422, `${c.id} has ${flavor.vcpu.min}–${flavor.vcpu.max} vCPUs`, [`/body/cpu/${i}/vcpuCount: must be within ${flavor.vcpu.min}..${flavor.vcpu.max} for ${c.id}`]);
    }
  }
  const configs = cpu.map((c) => ({ id: c.id, vcpuCount: c.vcpuCount }));
  return { computeType: 'CPU', cpuFlavorIds: configs.map((c) => c.id), vcpuCount: configs[0]!.vcpuCount, cpuConfigs: configs };
}

/** The scalar settings of a create/update body (PATCH: only those sent), in stored names. */
export function settingFields(b: Body): Body | Refusal {
  const out: Body = {};
  if (typeof b['name'] === 'string') out['name'] = b['name'];
  const workers = b['workers'] as { min?: number; max?: number; idleTimeout?: number } | undefined;
  if (workers?.min !== undefined) out['workersMin'] = workers.min;
  if (workers?.max !== undefined) out['workersMax'] = workers.max;
  if (workers?.idleTimeout !== undefined) out['idleTimeout'] = workers.idleTimeout;
  const scaling = b['scaling'] as { type: string; queueDelay?: number; requestCount?: number } | undefined;
  if (scaling?.type === 'QUEUE_DELAY') Object.assign(out, { scalerType: 'QUEUE_DELAY', scalerValue: Math.max(1, Math.round(scaling.queueDelay!)), queueDelay: scaling.queueDelay });
  if (scaling?.type === 'REQUEST_COUNT') Object.assign(out, { scalerType: 'REQUEST_COUNT', scalerValue: scaling.requestCount, queueDelay: undefined });
  if (b['timeout'] !== undefined) out['executionTimeoutMs'] = b['timeout'];
  if (typeof b['flashboot'] === 'string') Object.assign(out, { flashboot: b['flashboot'] !== 'OFF', flashbootMode: b['flashboot'] });
  if (b['networkVolumes'] !== undefined) Object.assign(out, { networkVolumeIds: b['networkVolumes'], networkVolumeId: undefined });
  if (b['dataCenterIds'] !== undefined) {
    const ids = strings(b['dataCenterIds']);
    const bad = ids.findIndex((id) => !dataCenter(id));
    if (bad >= 0) return problem(422, `data center '${ids[bad]}' is not in the catalog`, [`/body/dataCenterIds/${bad}: unknown data center (see listDataCenters)`]);
    out['dataCenterIds'] = ids;
  }
  return out;
}

/** REST-ENDPOINT-009 in REST v2 words: workers.min may not exceed workers.max. */
export function workersRefusal(min: number, max: number): Refusal | undefined {
  if (min <= max) return undefined;
  return problem(400, `workers.min (${min}) must not exceed workers.max (${max})`, [`/body/workers/min: must be at most workers.max (${max})`]);
}
