// saveEndpoint's fields beyond what runpod-python sends, as @runpod/mcp-server's deploy-hub-repo sends them:
// a Hub release (hubReleaseId), a template created with the endpoint (template: {…}), the endpoint type,
// the job timeout, a CUDA floor next to the allowed list, and lists kept as given.
import type { MockCore } from '../core.js';
import type { Failure } from '../state/store.js';
import { parseDockerArgs } from './docker-args.js';
import { deployableHubRelease } from './public-catalogue.js';
import { refuse } from './sdk-pods.js';

type Input = Record<string, unknown>;

const cudaNumber = (v: string): number => {
  const [major, minor] = v.split('.');
  return Number(major) * 1000 + Number(minor ?? 0);
};
const CUDA_VERSION = /^\d{1,2}\.\d{1,2}$/;

/** Stored fields for the extra inputs of saveEndpoint (only what was sent). `current` is the endpoint changed, if any. */
export function deployFields(input: Input, current: Input | undefined, allowedCuda: readonly string[] | undefined): Input {
  const fields: Input = {};
  if (typeof input['executionTimeoutMs'] === 'number') fields['executionTimeoutMs'] = input['executionTimeoutMs'];
  if (typeof input['type'] === 'string') {
    if (input['type'] !== 'QB' && input['type'] !== 'LB') refuse(`input.type: '${input['type']}' is neither QB nor LB`);
    const endpointType = input['type'] === 'LB' ? 'LOAD_BALANCER' : 'QUEUE';
    const was = current ? (current['endpointType'] === 'LOAD_BALANCER' ? 'LOAD_BALANCER' : 'QUEUE') : endpointType;
    if (was !== endpointType) refuse('input.type: an endpoint\'s type cannot change (create a new endpoint)');
    fields['endpointType'] = endpointType;
  }
  if (typeof input['minCudaVersion'] === 'string') {
    const floor = input['minCudaVersion'];
    if (floor !== '' && !CUDA_VERSION.test(floor)) refuse(`input.minCudaVersion: '${floor}' is not major.minor`);
    // With an allowed list the floor adds nothing when at or below its lowest version; above it, it contradicts the list.
    if (floor !== '' && allowedCuda && allowedCuda.length > 0) {
      if (allowedCuda.some((v) => cudaNumber(v) < cudaNumber(floor))) refuse(`input.minCudaVersion: ${floor} is above versions allowedCudaVersions lists`);
    } else {
      fields['minCudaVersion'] = floor === '' ? undefined : floor;
    }
  }
  for (const key of ['compliance', 'modelReferences'] as const) if (Array.isArray(input[key])) fields[key] = input[key];
  if (typeof input['hubReleaseId'] === 'string') {
    deployableHubRelease(input['hubReleaseId']);
    fields['hubReleaseId'] = input['hubReleaseId'];
  }
  return fields;
}

/** Network volumes of `networkVolumeIds`, each checked; undefined when not sent. */
export function networkVolumeIds(core: MockCore, input: Input): string[] | undefined {
  const ids = input['networkVolumeIds'];
  if (!Array.isArray(ids)) return undefined;
  const unknown = (ids as string[]).find((id) => !core.store.networkVolumes.has(id));
  if (unknown !== undefined) refuse(`input.networkVolumeIds: network volume ${unknown} does not exist`, 'NOT_FOUND');
  return [...new Set(ids as string[])];
}

/** Creates the serverless template `input.template` describes and returns its id; undefined without one. */
export function createEndpointTemplate(core: MockCore, input: Input, onFailure: (f: Failure) => never): string | undefined {
  const template = input['template'] as Input | null | undefined;
  if (!template) return undefined;
  if (typeof input['templateId'] === 'string' && input['templateId'] !== '') refuse('input.template: give templateId or template, not both');
  const env = Array.isArray(template['env']) ? Object.fromEntries((template['env'] as { key: string; value: string }[]).map((e) => [e.key, e.value])) : {};
  const ports = typeof template['ports'] === 'string' && template['ports'] !== '' ? template['ports'].split(',') : [];
  const registry = template['containerRegistryAuthId'];
  const result = core.store.saveTemplate({
    name: template['name'], imageName: template['imageName'], containerDiskInGb: template['containerDiskInGb'] ?? 20,
    volumeInGb: 0, isServerless: true, env, ports,
    ...(typeof registry === 'string' && registry !== '' ? { containerRegistryAuthId: registry } : {}),
    // Kept and answered as the template's startScript, as the service does; the mock runs no start script.
    ...(typeof template['startScript'] === 'string' && template['startScript'] !== '' ? { startScript: template['startScript'] } : {}),
    ...parseDockerArgs(typeof template['dockerArgs'] === 'string' ? template['dockerArgs'] : undefined),
    createdThrough: 'graphql',
  });
  if (!result.ok) {
    const failure = { ...result, message: `input.template: ${result.message}`, errors: result.errors?.map((e) => ({ ...e, path: e.path.replace(/^\/body\//, '/body/template.') })) };
    return onFailure(failure);
  }
  return result.value.id;
}
