// Pod operations the official SDKs send through GraphQL (runpod-python 1.12.0): podFindAndDeployOnDemand,
// deployCpuPod, podStop, podResume, podTerminate, over the one store every surface shares. A deploy turns
// the GraphQL input into the stored (REST v1-named) fields, placed by the same catalog rules as REST v2
// createPod (rest-v2/placement.ts), so the pod is the same pod in REST v1 getPod and REST v2 getPod.
// Refusals are GraphQL errors (HTTP 200, errors[0].message naming the input field), never partial pods.
import { GraphQLError } from 'graphql';
import type { MockCore } from '../core.js';
import { cpuType, publicTemplate } from '../rest-v2/catalog-data.js';
import { place, type PlacementRequest } from '../rest-v2/placement.js';
import { isClusterMember } from '../rest-v2/pod-status.js';
import type { PodRecord, TemplateRecord } from '../types.js';
import { parseDockerArgs } from './docker-args.js';
import { podView } from './sdk-views.js';

type Input = Record<string, unknown>;
type Fields = Record<string, unknown>;

/** CPU instance when deployCpuPod names none (assumed): the smallest compute-optimised flavour. */
const DEFAULT_CPU_INSTANCE = 'cpu3c-2-4';
const INSTANCE_ID = /^([a-z0-9]+)-(\d{1,3})-(\d{1,4})$/;

export function refuse(message: string, code: 'BAD_USER_INPUT' | 'NOT_FOUND' = 'BAD_USER_INPUT'): never {
  throw new GraphQLError(message, { extensions: { code } });
}

/** A non-empty string, or undefined ("" counts as left out, as the SDK sends `dockerArgs: ""`). */
const given = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function podTemplate(core: MockCore, id: string): TemplateRecord {
  const t = core.store.templates.get(id) ?? publicTemplate(id);
  if (!t) refuse(`input.templateId: template ${id} does not exist`, 'NOT_FOUND');
  if (t['isServerless'] === true) refuse(`input.templateId: template ${id} is a serverless template; pods need a pod template`);
  return t;
}

/** Container settings: the input's, else the template's; the template reference as REST v2 keeps it. */
function containerFields(core: MockCore, input: Input, template: TemplateRecord | undefined): Fields {
  const fields: Fields = {};
  const image = given(input['imageName']) ?? template?.imageName;
  if (!image) refuse('input.imageName: an image or a templateId is required');
  fields['imageName'] = image;
  // Fault graphql-pod-template-dropped: the template is used once and forgotten (no reference, no guard).
  if (template && !core.options.faults.has('graphql-pod-template-dropped')) {
    // Own templates are referenced (and guarded against deletion); public ones are only remembered.
    if (core.store.templates.has(template.id)) fields['templateId'] = template.id;
    else fields['catalogTemplateId'] = template.id;
  }
  const args = given(input['dockerArgs']);
  if (args !== undefined) Object.assign(fields, parseDockerArgs(args));
  else if (template) Object.assign(fields, { dockerStartCmd: template['dockerStartCmd'] ?? [], dockerEntrypoint: template['dockerEntrypoint'] ?? [] });
  const disk = input['containerDiskInGb'] ?? template?.['containerDiskInGb'];
  if (disk !== undefined && disk !== null) fields['containerDiskInGb'] = disk;
  const ports = typeof input['ports'] === 'string' ? (input['ports'] === '' ? [] : input['ports'].split(',')) : template?.['ports'];
  if (ports !== undefined) fields['ports'] = ports;
  const env: Record<string, string> = { ...((template?.['env'] as Record<string, string> | undefined) ?? {}) };
  for (const pair of (input['env'] as { key: string; value: string }[] | null | undefined) ?? []) env[pair.key] = pair.value;
  fields['env'] = env;
  if (typeof template?.['containerRegistryAuthId'] === 'string' && template['containerRegistryAuthId'] !== '') fields['containerRegistryAuthId'] = template['containerRegistryAuthId'];
  if (input['startJupyter'] === true) fields['startJupyter'] = true;
  return fields;
}

/** Network volume (fixes the data centre, which a dataCenterId must then agree with) and mount path. */
function volumeFields(core: MockCore, input: Input, fields: Fields): string | undefined {
  const volumeId = given(input['networkVolumeId']);
  const path = given(input['volumeMountPath']);
  if (volumeId) {
    const volume = core.store.networkVolumes.get(volumeId);
    if (!volume) refuse(`input.networkVolumeId: network volume ${volumeId} does not exist`, 'NOT_FOUND');
    const asked = given(input['dataCenterId']);
    if (asked !== undefined && asked !== volume.dataCenterId) refuse(`input.dataCenterId: network volume ${volume.id} is in ${volume.dataCenterId}, not ${asked}`);
    Object.assign(fields, { networkVolumeId: volume.id, volumeInGb: 0, volumeMountPath: path ?? '/runpod-volume' });
    return volume.dataCenterId;
  }
  if (path !== undefined) fields['volumeMountPath'] = path;
  return undefined;
}

const INPUT_PATHS: Record<string, string> = { '/body/dataCenterIds': 'input.dataCenterId' };

/** Places the pod (catalog, cloud, stock, CUDA) like REST v2 createPod; ALL tries SECURE, then COMMUNITY. */
function placeOrRefuse(core: MockCore, request: Omit<PlacementRequest, 'cloud'>, cloudType: unknown, fields: Fields): void {
  const clouds = cloudType === 'COMMUNITY' ? ['COMMUNITY'] as const : cloudType === 'SECURE' ? ['SECURE'] as const : ['SECURE', 'COMMUNITY'] as const;
  let refusal = '';
  for (const cloud of clouds) {
    const placed = place(core, { ...request, cloud });
    if (placed.ok) {
      Object.assign(fields, { cloudType: cloud, dataCenterId: placed.dataCenterId });
      if (placed.cudaVersion !== null) fields['cudaVersion'] = placed.cudaVersion;
      return;
    }
    refusal ||= `${INPUT_PATHS[placed.path] ?? placed.path}: ${placed.message}`;
  }
  refuse(refusal);
}

function sshFields(core: MockCore, input: Input, fields: Fields): void {
  if (input['startSsh'] !== true) return;
  fields['startSsh'] = true;
  const env = fields['env'] as Record<string, string>;
  if (core.store.sshKeys.length > 0 && env['PUBLIC_KEY'] === undefined) env['PUBLIC_KEY'] = core.store.sshKeys.join('\n');
}

function store(core: MockCore, fields: Fields): Record<string, unknown> {
  const result = core.store.createPod(fields);
  if (!result.ok) refuse(result.message, result.status === 404 || result.unknownReference ? 'NOT_FOUND' : 'BAD_USER_INPUT');
  core.touch();
  return podView(core, result.value);
}

export function deployGpuPod(core: MockCore, input: Input): Record<string, unknown> {
  const template = given(input['templateId']) ? podTemplate(core, input['templateId'] as string) : undefined;
  const fields = containerFields(core, input, template);
  const gpuCount = (input['gpuCount'] as number | null | undefined) ?? 1;
  if (gpuCount < 1) refuse('input.gpuCount: a GPU pod needs at least 1 GPU');
  const gpuTypeId = input['gpuTypeId'] as string;
  const fixed = volumeFields(core, input, fields);
  if (!fixed) fields['volumeInGb'] = (input['volumeInGb'] as number | null | undefined) ?? template?.['volumeInGb'] ?? 0;
  const cuda = input['allowedCudaVersions'] as string[] | null | undefined;
  const dataCenterId = given(input['dataCenterId']);
  placeOrRefuse(core, {
    gpu: { id: gpuTypeId, count: gpuCount, ...(cuda ? { allowedCudaVersions: cuda } : {}) },
    preferred: dataCenterId ? [dataCenterId] : [],
    ...(fixed ? { fixed } : {}),
    at: { id: 'input.gpuTypeId', count: 'input.gpuCount', cuda: 'input.allowedCudaVersions' },
  }, input['cloudType'], fields);
  Object.assign(fields, { name: input['name'] ?? undefined, computeType: 'GPU', gpuTypeIds: [gpuTypeId], gpuCount, createdThrough: 'graphql' });
  if (cuda) fields['allowedCudaVersions'] = cuda;
  // Pod minimums as REST v1's per-GPU minimums, so the stored RAM (state/pod-hardware.ts) honours them.
  const minMemory = input['minMemoryInGb'] as number | null | undefined;
  if (typeof minMemory === 'number' && minMemory > 0) fields['minRAMPerGPU'] = Math.ceil(minMemory / gpuCount);
  const minVcpu = input['minVcpuCount'] as number | null | undefined;
  if (typeof minVcpu === 'number' && minVcpu > 2) fields['vcpuCount'] = minVcpu;
  if (input['supportPublicIp'] !== undefined && input['supportPublicIp'] !== null) fields['supportPublicIp'] = input['supportPublicIp'];
  sshFields(core, input, fields);
  return store(core, fields);
}

/** `<flavour>-<vcpu>-<memory>`: the flavour must be in the catalog and the memory must be its RAM for that many vCPUs. */
function cpuInstance(instanceId: string): { flavor: string; vcpuCount: number } {
  const match = INSTANCE_ID.exec(instanceId);
  if (!match) refuse(`input.instanceId: '${instanceId}' is not of the form <flavour>-<vcpu>-<memory GB>, e.g. ${DEFAULT_CPU_INSTANCE}`);
  const [, flavor, vcpu, memory] = match;
  const type = cpuType(flavor!);
  if (!type) refuse(`input.instanceId: CPU flavour '${flavor}' is not in the catalog (GET /v2/catalog/cpus)`);
  const vcpuCount = Number(vcpu);
  if (Number(memory) !== vcpuCount * type.ramGbPerVcpu) {
    refuse(`input.instanceId: '${instanceId}' is no instance: ${flavor} has ${type.ramGbPerVcpu} GB per vCPU, so ${vcpuCount} vCPUs come with ${vcpuCount * type.ramGbPerVcpu} GB`);
  }
  return { flavor: flavor!, vcpuCount };
}

export function deployCpuPod(core: MockCore, input: Input): Record<string, unknown> {
  if (input['cloudType'] === 'COMMUNITY') refuse('input.cloudType: CPU pods run in secure cloud only');
  const { flavor, vcpuCount } = cpuInstance(given(input['instanceId']) ?? DEFAULT_CPU_INSTANCE);
  const template = given(input['templateId']) ? podTemplate(core, input['templateId'] as string) : undefined;
  const fields = containerFields(core, input, template);
  const fixed = volumeFields(core, input, fields);
  if (!fixed) fields['volumeInGb'] = 0;
  const dataCenterId = given(input['dataCenterId']);
  placeOrRefuse(core, {
    cpu: { id: flavor, vcpuCount },
    preferred: dataCenterId ? [dataCenterId] : [],
    ...(fixed ? { fixed } : {}),
    at: { id: 'input.instanceId', count: 'input.instanceId', cuda: 'input.instanceId' },
  }, 'SECURE', fields);
  Object.assign(fields, { name: input['name'] ?? undefined, computeType: 'CPU', cpuFlavorIds: [flavor], vcpuCount, createdThrough: 'graphql' });
  sshFields(core, input, fields);
  return store(core, fields);
}

function managedPod(core: MockCore, podId: string, what: string): PodRecord {
  const pod = core.store.pods.get(podId);
  if (!pod) refuse(`input.podId: pod ${podId} not found`, 'NOT_FOUND');
  // One set of rules across surfaces: REST v2 refuses these too (409).
  if (isClusterMember(pod)) refuse(`pod ${pod.id} belongs to cluster ${String(pod['clusterId'])}; ${what} it through its cluster`);
  return pod;
}

export function stopPod(core: MockCore, podId: string): Record<string, unknown> {
  const pod = managedPod(core, podId, 'stop');
  if (pod.desiredStatus === 'EXITED') return podView(core, pod);
  const result = core.store.setPodStatus(pod.id, 'stop');
  if (!result.ok) refuse(result.message);
  core.touch();
  return podView(core, result.value);
}

export function resumePod(core: MockCore, podId: string, gpuCount: number): Record<string, unknown> {
  const pod = managedPod(core, podId, 'resume');
  if (pod['computeType'] !== 'CPU') {
    if (gpuCount < 1) refuse('input.gpuCount: a GPU pod resumes with at least 1 GPU');
    const typeId = Array.isArray(pod['gpuTypeIds']) ? String(pod['gpuTypeIds'][0]) : undefined;
    if (typeId) {
      const cloud = pod['cloudType'] === 'COMMUNITY' ? 'COMMUNITY' : 'SECURE';
      const placed = place(core, { gpu: { id: typeId, count: gpuCount }, cloud, preferred: [], at: { id: 'input.podId', count: 'input.gpuCount', cuda: 'input.podId' } });
      if (!placed.ok && placed.path === 'input.gpuCount') refuse(`${placed.path}: ${placed.message}`);
    }
    if (gpuCount !== (pod['gpuCount'] ?? 1)) {
      const updated = core.store.updatePod(pod.id, { gpuCount });
      if (!updated.ok) refuse(updated.message);
    }
  }
  if (pod.desiredStatus !== 'RUNNING') {
    const result = core.store.setPodStatus(pod.id, 'start');
    if (!result.ok) refuse(result.message);
  }
  core.touch();
  return podView(core, core.store.pods.get(pod.id)!);
}

export function terminatePod(core: MockCore, podId: string): null {
  const pod = managedPod(core, podId, 'terminate');
  if (pod['locked'] === true) refuse(`pod ${pod.id} is locked; unlock it before terminating it`);
  const result = core.store.deletePod(pod.id);
  if (!result.ok) refuse(result.message, 'NOT_FOUND');
  core.touch();
  return null;
}
