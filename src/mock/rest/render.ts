// REST v1 wire shapes of stored records: only properties the response schema declares, plus the
// derived fields a real record carries. Secrets (registry password) are never rendered.
import { DEFAULT_ACCOUNT } from '../accounts.js';
import type { EndpointRecord, NetworkVolumeRecord, PodRecord, RegistryAuthRecord, TemplateRecord, Worker } from '../types.js';
import type { FaultName } from '../options.js';
import { restV1Properties } from '../spec-facts.js';
import { podCpuFlavorId, podMemoryGb } from '../state/pod-hardware.js';
import { podTemplateId } from '../state/pod-template.js';

const POD = restV1Properties('Pod');
const ENDPOINT = restV1Properties('Endpoint');
const TEMPLATE = restV1Properties('Template');
const NETWORK_VOLUME = restV1Properties('NetworkVolume');

function pick(record: Record<string, unknown>, allowed: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in record) if (allowed.has(key) && record[key] !== undefined) out[key] = record[key];
  return out;
}

const GPU_HOURLY_PRICE = 0.69;
const CPU_HOURLY_PRICE = 0.08;

export function podHourlyCost(pod: PodRecord): number {
  const gpuCount = (pod['gpuCount'] as number | undefined) ?? 1;
  return pod['computeType'] === 'CPU' ? CPU_HOURLY_PRICE : Math.round(GPU_HOURLY_PRICE * gpuCount * 100) / 100;
}

export function podGpuType(pod: PodRecord): string | undefined {
  if (pod['computeType'] === 'CPU') return undefined;
  const ids = pod['gpuTypeIds'];
  return Array.isArray(ids) && typeof ids[0] === 'string' ? ids[0] : 'NVIDIA GeForce RTX 4090';
}

export function renderPod(
  pod: PodRecord,
  extras: { template?: TemplateRecord; networkVolume?: NetworkVolumeRecord; userId?: string } = {},
  faults?: ReadonlySet<FaultName>,
): Record<string, unknown> {
  const out = pick(pod, POD);
  const cost = podHourlyCost(pod);
  out['costPerHr'] = cost;
  out['adjustedCostPerHr'] = cost;
  out['consumerUserId'] = extras.userId ?? DEFAULT_ACCOUNT;
  out['machineId'] = `m${pod.id.slice(0, 11)}`;
  out['endpointId'] = (pod['endpointId'] as string | undefined) ?? null;
  out['templateId'] = podTemplateId(pod) ?? null;
  out['env'] = (pod['env'] as Record<string, string> | undefined) ?? {};
  out['vcpuCount'] = (pod['vcpuCount'] as number | undefined) ?? 2;
  // The stored figures (RESTV2-CROSS-006); fault rest-v1-pod-memory-constant brings back the old constant.
  out['memoryInGb'] = faults?.has('rest-v1-pod-memory-constant') ? 31 : podMemoryGb(pod);
  const flavor = podCpuFlavorId(pod);
  if (flavor !== undefined && !faults?.has('rest-v1-pod-memory-constant')) out['cpuFlavorId'] = flavor;
  else delete out['cpuFlavorId'];
  out['containerDiskInGb'] = (pod['containerDiskInGb'] as number | undefined) ?? 50;
  out['volumeInGb'] = (pod['volumeInGb'] as number | undefined) ?? 20;
  out['volumeMountPath'] = (pod['volumeMountPath'] as string | undefined) ?? '/workspace';
  const running = pod.desiredStatus === 'RUNNING';
  out['publicIp'] = running ? '100.64.0.10' : null;
  out['portMappings'] = running ? { '22': 10341 } : null;
  const gpuType = podGpuType(pod);
  if (gpuType) out['gpu'] = { id: gpuType, count: (pod['gpuCount'] as number | undefined) ?? 1, displayName: gpuType.replace(/^(NVIDIA|AMD) (GeForce )?/, '') };
  if (extras.template) out['template'] = renderTemplate(extras.template);
  if (extras.networkVolume) out['networkVolume'] = renderNetworkVolume(extras.networkVolume);
  return out;
}

export function renderEndpoint(
  endpoint: EndpointRecord,
  extras: { template?: TemplateRecord; workers?: readonly Worker[] } = {},
): Record<string, unknown> {
  const out = pick(endpoint, ENDPOINT);
  if (extras.template) out['template'] = renderTemplate(extras.template);
  if (extras.workers) {
    const gpuCount = (endpoint['gpuCount'] as number | undefined) ?? 1;
    out['workers'] = extras.workers.map((w) => ({
      id: w.id, desiredStatus: 'RUNNING', endpointId: endpoint.id, templateId: endpoint.templateId,
      ...(w.gpuTypeId ? { gpu: { id: w.gpuTypeId, count: gpuCount, displayName: w.gpuTypeId } } : {}),
    }));
  }
  return out;
}

export function renderTemplate(template: TemplateRecord): Record<string, unknown> {
  const out = pick(template, TEMPLATE);
  out['isRunpod'] = false;
  out['earned'] = 0;
  out['runtimeInMin'] = 0;
  return out;
}

export function renderNetworkVolume(volume: NetworkVolumeRecord): Record<string, unknown> {
  return pick(volume as unknown as Record<string, unknown>, NETWORK_VOLUME);
}

export function renderRegistryAuth(auth: RegistryAuthRecord, echoPassword: boolean): Record<string, unknown> {
  return echoPassword ? { id: auth.id, name: auth.name, password: auth.password } : { id: auth.id, name: auth.name };
}
