// REST v2 pod bodies (createPod, updatePod) as stored (REST v1-shaped) fields, following the migration
// map backwards, with the cross-field rules the public description states: exactly one of gpu or cpu,
// one kind of mount (none persistent on CPU pods), a template as a one-time source of settings.
// Refusals carry the documented status: 400 cross-field rule or no placement (placement.ts), 404 unknown
// reference, 422 serverless template.
import type { ResourceStore } from '../state/store.js';
import type { PodRecord, TemplateRecord } from '../types.js';
import type { MockCore } from '../core.js';
import { publicTemplate } from './catalog-data.js';
import { podGpuType } from '../rest/render.js';
import { globalNetworkRefusal, place } from './placement.js';
import { podDataCenter } from './pod-view.js';
import { wordsFromArgs, type Body } from './shared.js';

export interface Refusal {
  status: 400 | 404 | 409 | 422;
  detail: string;
  /** `"<path>: <message>"` lines. */
  errors: string[];
}

const refuse = (status: Refusal['status'], path: string, message: string): Refusal => ({ status, detail: message, errors: [`${path}: ${message}`] });
export const isRefusal = (v: unknown): v is Refusal =>
  typeof v === 'object' && v !== null && typeof (v as Refusal).detail === 'string' && Array.isArray((v as Refusal).errors);

interface Mounts {
  persistent?: { size: number; path: string };
  network?: { volumeId: string; path: string }[];
}

/**
 * Container settings a template supplies (image, args, disk, ports, env, registry), as stored fields, and
 * the reference to it (RESTV2-CROSS-004): `templateId` for the account's own templates, which the store
 * then guards against deletion, `catalogTemplateId` for public catalog templates (state/pod-template.ts).
 */
function templateSettings(store: ResourceStore, t: TemplateRecord, keepReference: boolean): Body {
  const out: Body = { imageName: t.imageName };
  if (keepReference) Object.assign(out, store.templates.has(t.id) ? { templateId: t.id, catalogTemplateId: undefined } : { catalogTemplateId: t.id, templateId: undefined });
  for (const key of ['dockerStartCmd', 'containerDiskInGb', 'ports', 'env', 'containerRegistryAuthId'] as const) {
    if (t[key] !== undefined) out[key] = t[key];
  }
  return out;
}

function usableTemplate(store: ResourceStore, id: string): TemplateRecord | Refusal {
  // Own templates or RunPod's public catalog templates.
  const t = store.templates.get(id) ?? publicTemplate(id);
  if (!t) return refuse(404, '/body/templateId', `template ${id} does not exist`);
  if (t['isServerless'] === true) return refuse(422, '/body/templateId', `template ${id} is a serverless template; pods need a pod template`);
  return t;
}

/** The container settings of a body (v2 names) as stored fields; only what was sent. */
function containerFields(body: Body): Body {
  const out: Body = {};
  if (body['image'] !== undefined) out['imageName'] = body['image'];
  if (typeof body['args'] === 'string') out['dockerStartCmd'] = wordsFromArgs(body['args']);
  if (body['disk'] !== undefined) out['containerDiskInGb'] = body['disk'];
  if (body['ports'] !== undefined) out['ports'] = body['ports'];
  if (body['registry'] !== undefined) out['containerRegistryAuthId'] = body['registry'] ?? undefined;
  return out;
}

/** 404 for an unknown registry credential, named by its v2 path. */
function registryRefusal(store: ResourceStore, fields: Body): Refusal | undefined {
  const id = fields['containerRegistryAuthId'];
  return typeof id === 'string' && id !== '' && !store.registryAuths.has(id) ? refuse(404, '/body/registry', `registry credential ${id} does not exist`) : undefined;
}

function mountRefusal(mounts: Mounts | undefined, cpu: boolean): Refusal | undefined {
  if (mounts?.persistent && (mounts.network?.length ?? 0) > 0) return refuse(400, '/body/mounts', 'persistent and network mounts exclude each other');
  if (mounts?.persistent && cpu) return refuse(400, '/body/mounts/persistent', 'CPU pods take no persistent mount');
  return undefined;
}

/** createPod body → stored fields (computeType, gpuTypeIds … as REST v1 names them). */
export function createPodFields(core: MockCore, body: Body): Body | Refusal {
  const { store } = core;
  const gpu = body['gpu'] as { id: string; count?: number; allowedCudaVersions?: string[]; minCudaVersion?: string; minRamPerGpu?: number; minVcpuCountPerGpu?: number } | undefined;
  const cpu = body['cpu'] as { id: string; vcpuCount: number } | undefined;
  if ((gpu === undefined) === (cpu === undefined)) return refuse(400, '/body', 'exactly one of gpu or cpu is required');
  const mounts = body['mounts'] as Mounts | undefined;
  const mountProblem = mountRefusal(mounts, cpu !== undefined);
  if (mountProblem) return mountProblem;

  let fields: Body = {};
  let startSsh = body['startSsh'] === true;
  let cuda: string[] | undefined = gpu?.allowedCudaVersions;
  if (typeof body['templateId'] === 'string') {
    const t = usableTemplate(store, body['templateId']);
    if (isRefusal(t)) return t;
    // Fault rest-v2-pod-template-dropped: the template is used once and forgotten (no reference, no guard).
    fields = templateSettings(store, t, !core.options.faults.has('rest-v2-pod-template-dropped'));
    if (body['startSsh'] === undefined) startSsh = t['startSsh'] !== false;
    // Sending either CUDA field replaces the template's constraint; CPU pods ignore it.
    if (gpu && gpu.allowedCudaVersions === undefined && gpu.minCudaVersion === undefined && Array.isArray(t['allowedCudaVersions'])) cuda = t['allowedCudaVersions'] as string[];
    const volume = typeof t['volumeInGb'] === 'number' ? t['volumeInGb'] : 0;
    if (gpu && !mounts && volume > 0) Object.assign(fields, { volumeInGb: volume, volumeMountPath: t['volumeMountPath'] ?? '/workspace' });
  }
  const env = { ...((fields['env'] as Record<string, string> | undefined) ?? {}), ...((body['env'] as Record<string, string> | undefined) ?? {}) };
  Object.assign(fields, containerFields(body), { name: body['name'], env, cloudType: body['cloud'] ?? 'SECURE', createdThrough: 'restV2' });
  if (fields['imageName'] === undefined) return refuse(400, '/body/image', 'image is required (the template names none)');
  const registry = registryRefusal(store, fields);
  if (registry) return registry;

  if (gpu) {
    Object.assign(fields, { computeType: 'GPU', gpuTypeIds: [gpu.id], gpuCount: gpu.count ?? 1 });
    if (cuda !== undefined) fields['allowedCudaVersions'] = cuda;
    if (gpu.minCudaVersion !== undefined) fields['minCudaVersion'] = gpu.minCudaVersion;
    // Stored under their REST v1 names: the pod's RAM follows them (state/pod-hardware.ts).
    if (gpu.minRamPerGpu !== undefined) fields['minRAMPerGPU'] = gpu.minRamPerGpu;
    if (gpu.minVcpuCountPerGpu !== undefined) fields['minVCPUPerGPU'] = gpu.minVcpuCountPerGpu;
  } else {
    Object.assign(fields, { computeType: 'CPU', cpuFlavorIds: [cpu!.id], vcpuCount: cpu!.vcpuCount });
  }
  // Fault rest-v2-global-networking-unchecked: stored as asked, without its GPU and data centre conditions.
  const unchecked = core.options.faults.has('rest-v2-global-networking-unchecked');
  const globalNetwork = body['globalNetworking'] === true && !unchecked;
  if (globalNetwork) {
    const refused = globalNetworkRefusal(gpu?.id, undefined);
    if (refused) return refuse(400, refused.path, refused.message);
  }
  if (body['globalNetworking'] === true) fields['globalNetworking'] = true;
  const preferred = Array.isArray(body['dataCenterIds']) ? (body['dataCenterIds'] as string[]) : [];
  if (preferred.length > 0) fields['dataCenterIds'] = preferred;

  const fixed = mountFields(core, mounts, preferred, fields);
  if (isRefusal(fixed)) return fixed;
  const placed = place(core, {
    ...(gpu ? { gpu: { id: gpu.id, count: gpu.count ?? 1, allowedCudaVersions: cuda, minCudaVersion: gpu.minCudaVersion } } : { cpu: cpu! }),
    cloud: fields['cloudType'] as 'SECURE' | 'COMMUNITY',
    preferred,
    ...(fixed !== undefined ? { fixed } : {}),
    globalNetwork,
    at: gpu ? { id: '/body/gpu/id', count: '/body/gpu/count', cuda: '/body/gpu/allowedCudaVersions' } : { id: '/body/cpu/id', count: '/body/cpu/vcpuCount', cuda: '/body/cpu' },
  });
  if (!placed.ok) return refuse(400, placed.path, placed.message);
  fields['dataCenterId'] = placed.dataCenterId;
  if (placed.cudaVersion !== null) fields['cudaVersion'] = placed.cudaVersion;
  if (startSsh && store.sshKeys.length > 0 && env['PUBLIC_KEY'] === undefined) env['PUBLIC_KEY'] = store.sshKeys.join('\n');
  if (startSsh) fields['startSsh'] = true;
  if (body['startJupyter'] === true) fields['startJupyter'] = true;
  return fields;
}

/** Mount fields; a network volume fixes the data centre (returned). */
function mountFields(core: MockCore, mounts: Mounts | undefined, preferred: readonly string[], fields: Body): Refusal | string | undefined {
  const network = mounts?.network?.[0];
  if (network) {
    const volume = core.store.networkVolumes.get(network.volumeId);
    if (!volume) return refuse(404, '/body/mounts/network/0/volumeId', `network volume ${network.volumeId} does not exist`);
    if (preferred.length > 0 && !preferred.includes(volume.dataCenterId)) {
      return refuse(400, '/body/dataCenterIds', `network volume ${volume.id} is in ${volume.dataCenterId}, which dataCenterIds excludes`);
    }
    Object.assign(fields, { networkVolumeId: volume.id, volumeMountPath: network.path, volumeInGb: 0 });
    return volume.dataCenterId;
  }
  if (mounts?.persistent) Object.assign(fields, { volumeInGb: mounts.persistent.size, volumeMountPath: mounts.persistent.path });
  else if (fields['volumeInGb'] === undefined) fields['volumeInGb'] = 0;
  return undefined;
}

/** updatePod body → stored fields to merge; PATCH semantics (absent = unchanged). */
export function updatePodFields(core: MockCore, pod: PodRecord, body: Body): Body | Refusal {
  const { store } = core;
  let fields: Body = {};
  let env = body['env'] as Record<string, string> | undefined;
  if (typeof body['templateId'] === 'string') {
    // One-time application of the template's container settings (not its mounts); body fields win.
    const t = usableTemplate(store, body['templateId']);
    if (isRefusal(t)) return t;
    fields = templateSettings(store, t, !core.options.faults.has('rest-v2-pod-template-dropped'));
    env = { ...((t['env'] as Record<string, string> | undefined) ?? {}), ...(env ?? {}) };
  }
  Object.assign(fields, containerFields(body));
  if (env !== undefined) fields['env'] = env;
  for (const key of ['name', 'locked'] as const) if (body[key] !== undefined) fields[key] = body[key];
  if (typeof body['globalNetworking'] === 'boolean' && core.options.faults.has('rest-v2-global-networking-unchecked')) {
    fields['globalNetworking'] = body['globalNetworking'];
  } else if (typeof body['globalNetworking'] === 'boolean') {
    // Takes effect on the pod's next start or restart (store.setPodStatus), not live.
    const gpuTypeId = pod['computeType'] === 'CPU' ? undefined : podGpuType(pod);
    const refused = body['globalNetworking'] ? globalNetworkRefusal(gpuTypeId, podDataCenter(core, pod)) : undefined;
    if (refused) return refuse(400, refused.path, refused.message);
    fields['globalNetworkingNext'] = body['globalNetworking'];
  }
  const registry = registryRefusal(store, fields);
  if (registry) return registry;
  const mounts = body['mounts'] as Mounts | undefined;
  const mountProblem = mountRefusal(mounts, pod['computeType'] === 'CPU') ?? changeMounts(pod, mounts, fields);
  return mountProblem ?? fields;
}

/** The mount kind is fixed at create; a network mount's volume is immutable; paths and sizes may change. */
function changeMounts(pod: PodRecord, mounts: Mounts | undefined, fields: Body): Refusal | undefined {
  if (!mounts || (mounts.persistent === undefined && mounts.network === undefined)) return undefined;
  const current = typeof pod['networkVolumeId'] === 'string' && pod['networkVolumeId'] !== '' ? 'network'
    : pod['computeType'] !== 'CPU' && (typeof pod['volumeInGb'] !== 'number' || pod['volumeInGb'] > 0) ? 'persistent' : 'none';
  if (mounts.network !== undefined) {
    if (mounts.network.length === 0) return refuse(400, '/body/mounts/network', 'clearing a mount is not supported');
    if (current !== 'network') return refuse(400, '/body/mounts/network', `the pod was created with ${current === 'none' ? 'no mount' : 'a persistent mount'}; the mount kind is fixed at create`);
    const wanted = mounts.network[0]!;
    if (wanted.volumeId !== pod['networkVolumeId']) return refuse(400, '/body/mounts/network/0/volumeId', 'the network volume of a pod cannot change');
    fields['volumeMountPath'] = wanted.path;
    return undefined;
  }
  if (current !== 'persistent') return refuse(400, '/body/mounts/persistent', `the pod was created with ${current === 'none' ? 'no mount' : 'a network mount'}; the mount kind is fixed at create`);
  Object.assign(fields, { volumeInGb: mounts.persistent!.size, volumeMountPath: mounts.persistent!.path });
  return undefined;
}
