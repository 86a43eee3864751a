// GraphQL views of stored records for the operations the official SDKs send (User, Pod, Endpoint,
// GpuType, NetworkVolume): the same stored record every other surface renders, with the same derived
// figures (cost as REST v1, memory and CPU flavour from state/pod-hardware.ts, runtime ports as REST v2).
// Registry credentials render as {id, name}: there is no way to select a password.
import type { MockCore } from '../core.js';
import { mapInSlices } from '../turns.js';
import { podGpuType, podHourlyCost } from '../rest/render.js';
import { gpuType, typesOfPool, type GpuTypeData } from '../rest-v2/catalog-data.js';
import { poolsOf } from '../rest-v2/endpoint-shape.js';
import { podMemoryGb } from '../state/pod-hardware.js';
import type { EndpointRecord, NetworkVolumeRecord, PodRecord, RegistryAuthRecord } from '../types.js';
import { renderDockerArgs, startCommandOf } from './docker-args.js';
import { lowestPrice, type LowestPriceInput } from './public-catalogue.js';

/** The account id every mock resource belongs to (REST v1 endpoint userId, pod consumerUserId). */
const PUBLIC_IP = '100.64.0.10';
const FIRST_PUBLIC_PORT = 10341;

type View = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const envPairs = (v: unknown): [string, string][] => Object.entries((v as Record<string, string> | undefined) ?? {});

export function networkVolumeView(v: NetworkVolumeRecord): View {
  return { id: v.id, name: v.name, size: v.size, dataCenterId: v.dataCenterId };
}

export function registryAuthView(a: RegistryAuthRecord): View {
  return { id: a.id, name: a.name };
}

/** tcp ports get public ports from 10341 up on the public IP (as REST v2 runtime.ports); http ports are proxied. */
function runtimePorts(ports: readonly string[]): View[] {
  let next = FIRST_PUBLIC_PORT;
  return ports.map((spec) => {
    const [port, type = 'http'] = spec.split('/');
    const tcp = type === 'tcp';
    return { ip: tcp ? PUBLIC_IP : null, isIpPublic: tcp, privatePort: Number(port), publicPort: tcp ? next++ : null, type };
  });
}

export function podView(core: MockCore, pod: PodRecord): View {
  const running = pod.desiredStatus === 'RUNNING' && typeof pod.runningSince === 'number';
  const uptime = running ? Math.max(0, Math.floor((core.clock.now() - (pod.runningSince as number)) / 1000)) : 0;
  const ports = strings(pod['ports']);
  const cpu = pod['computeType'] === 'CPU';
  const gpu = podGpuType(pod);
  return {
    id: pod.id,
    name: pod.name,
    imageName: typeof pod['image'] === 'string' ? pod['image'] : null,
    desiredStatus: pod.desiredStatus,
    dockerArgs: renderDockerArgs(startCommandOf(pod)),
    dockerId: null,
    env: envPairs(pod['env']).map(([k, v]) => `${k}=${v}`),
    gpuCount: cpu ? 0 : ((pod['gpuCount'] as number | undefined) ?? 1),
    vcpuCount: (pod['vcpuCount'] as number | undefined) ?? 2,
    memoryInGb: podMemoryGb(pod),
    // The REST v1 view's defaults, so both surfaces show the same figures for one pod.
    containerDiskInGb: (pod['containerDiskInGb'] as number | undefined) ?? 50,
    volumeInGb: (pod['volumeInGb'] as number | undefined) ?? 20,
    volumeMountPath: (pod['volumeMountPath'] as string | undefined) ?? '/workspace',
    ports: ports.join(','),
    port: null,
    costPerHr: podHourlyCost(pod),
    podType: 'RESERVED',
    lastStatusChange: pod.lastStatusChange ?? null,
    uptimeSeconds: uptime,
    machineId: `m${pod.id.slice(0, 11)}`,
    machine: { gpuDisplayName: gpu ? (gpuType(gpu)?.name ?? gpu) : null, podHostId: `${pod.id}-64411eb2` },
    runtime: running ? { uptimeInSeconds: uptime, ports: runtimePorts(ports) } : null,
  };
}

/** gpuIds of an endpoint: its pools, then `-<type>` for each type of those pools it leaves out. */
function gpuIdsOf(e: EndpointRecord): string {
  const pools = poolsOf(e);
  const types = strings(e['gpuTypeIds']);
  const excluded = types.length === 0 ? [] : pools.flatMap(typesOfPool).filter((id) => !types.includes(id));
  return [...pools, ...excluded.map((id) => `-${id}`)].join(',');
}

export function endpointView(core: MockCore, e: EndpointRecord): View {
  const volumeId = typeof e['networkVolumeId'] === 'string' && e['networkVolumeId'] !== '' ? e['networkVolumeId'] : strings(e['networkVolumeIds'])[0];
  const volume = volumeId ? core.store.networkVolumes.get(volumeId) : undefined;
  const locations = strings(e['dataCenterIds']);
  const cuda = strings(e['allowedCudaVersions']);
  return {
    id: e.id,
    name: e.name,
    templateId: e.templateId,
    gpuIds: gpuIdsOf(e),
    gpuCount: (e['gpuCount'] as number | undefined) ?? 1,
    networkVolumeId: volumeId ?? null,
    networkVolume: volume ? networkVolumeView(volume) : null,
    locations: locations.length > 0 ? locations.join(',') : null,
    idleTimeout: e['idleTimeout'] ?? null,
    scalerType: e['scalerType'] ?? null,
    scalerValue: e['scalerValue'] ?? null,
    workersMin: e['workersMin'] ?? null,
    workersMax: e['workersMax'] ?? null,
    workersStandby: 0,
    flashBootType: e['flashboot'] === true ? 'FLASHBOOT' : 'OFF',
    allowedCudaVersions: cuda.length > 0 ? cuda.join(',') : null,
    env: envPairs(e['env']).map(([key, value]) => ({ key, value })),
    userId: e.userId,
    version: e.version,
    type: 'QB',
    aiKey: null,
    createdAt: e.createdAt,
  };
}

export function userView(core: MockCore): View {
  const keys = core.store.sshKeys;
  return {
    id: core.account,
    pubKey: keys.length > 0 ? keys.join('\n') : null,
    // Lists resolve lazily: `myself { id pubKey }` renders no pod.
    networkVolumes: () => [...core.store.networkVolumes.values()].map(networkVolumeView),
    // Views built a slice per turn (turns.ts): an account has no maximum size.
    pods: () => mapInSlices([...core.store.pods.values()], (p) => podView(core, p)),
    endpoints: () => [...core.store.endpoints.values()].map((e) => endpointView(core, e)),
  };
}

export function gpuTypeView(core: MockCore, t: GpuTypeData): View {
  const offered = !core.unavailableGpuTypes.has(t.id);
  return {
    id: t.id,
    displayName: t.name,
    manufacturer: t.manufacturer,
    memoryInGb: t.memory,
    cudaCores: null,
    maxGpuCount: Math.max(t.maxCount.secure, t.maxCount.community),
    secureCloud: offered && t.secure,
    communityCloud: offered && t.community,
    securePrice: t.secure ? t.price.secure : null,
    communityPrice: t.community ? t.price.community : null,
    oneMonthPrice: null,
    threeMonthPrice: null,
    oneWeekPrice: null,
    communitySpotPrice: null,
    secureSpotPrice: null,
    lowestPrice: (args: { input?: LowestPriceInput | null }) => lowestPrice(core, t, args.input),
  };
}
