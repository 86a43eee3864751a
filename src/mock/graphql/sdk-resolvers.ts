// Resolvers of the GraphQL operations the official SDKs send (runpod-python 1.12.0 and its REST v2
// wrapper): the account (myself, updateUserSettings), the GPU catalog (gpuTypes), pods (sdk-pods.ts),
// serverless endpoints (saveEndpoint, updateEndpointTemplate) and registry credentials. One store for
// every surface; a registry password goes in and never comes out.
import type { GraphQLFieldResolver } from 'graphql';
import type { MockCore } from '../core.js';
import { GPU_TYPES, dataCenter, isGpuPool, typesOfPool } from '../rest-v2/catalog-data.js';
import type { Failure } from '../state/store.js';
import { validateRequest } from '../../validation/index.js';
import { deployCpuPod, deployGpuPod, refuse, resumePod, stopPod, terminatePod } from './sdk-pods.js';
import { createEndpointTemplate, deployFields, networkVolumeIds } from './endpoint-deploy.js';
import { listings, PUBLIC_ENDPOINT_CONFIGS } from './public-catalogue.js';
import { endpointView, gpuTypeView, podView, registryAuthView, userView } from './sdk-views.js';

type Input = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, MockCore>;

/** A store refusal as a GraphQL error; REST v1 field paths (`/body/name`) become `input.name`. */
function storeRefusal(f: Failure): never {
  const path = f.errors?.[0]?.path.replace(/^\/(body|path)\//, 'input.');
  refuse(path ? `${path}: ${f.message}` : f.message, f.status === 404 || f.unknownReference ? 'NOT_FOUND' : 'BAD_USER_INPUT');
}

const list = (text: unknown): string[] => (typeof text === 'string' ? text.split(',').map((s) => s.trim()).filter((s) => s !== '') : []);

/** gpuIds `POOL,POOL,-TYPE` → the GPU types of the pools minus the excluded ones (REST v1 gpuTypeIds). */
function gpuTypeIds(gpuIds: string): string[] {
  const items = list(gpuIds);
  const pools = items.filter((i) => !i.startsWith('-'));
  const excluded = items.filter((i) => i.startsWith('-')).map((i) => i.slice(1).trim());
  const bad = pools.find((p) => !isGpuPool(p));
  if (bad !== undefined) refuse(`input.gpuIds: '${bad}' is no GPU pool (pools: see gpuTypes / REST v2 listGpuTypes)`);
  const types = [...new Set(pools.flatMap(typesOfPool))].filter((id) => !excluded.includes(id));
  if (types.length === 0) refuse('input.gpuIds: names no GPU type (give at least one pool, and leave at least one of its types in)');
  return types;
}

/** EndpointInput → stored (REST v1-named) endpoint fields; only what was sent. */
function endpointFields(core: MockCore, input: Input): Input {
  const fields: Input = {};
  for (const key of ['name', 'templateId', 'idleTimeout', 'scalerValue', 'workersMin', 'workersMax', 'gpuCount'] as const) {
    if (input[key] !== undefined && input[key] !== null) fields[key] = input[key];
  }
  if (typeof input['scalerType'] === 'string') {
    if (input['scalerType'] !== 'QUEUE_DELAY' && input['scalerType'] !== 'REQUEST_COUNT') refuse(`input.scalerType: '${input['scalerType']}' is neither QUEUE_DELAY nor REQUEST_COUNT`);
    fields['scalerType'] = input['scalerType'];
  }
  if (typeof input['gpuIds'] === 'string') fields['gpuTypeIds'] = gpuTypeIds(input['gpuIds']);
  if (typeof input['networkVolumeId'] === 'string') {
    const id = input['networkVolumeId'];
    if (id !== '' && !core.store.networkVolumes.has(id)) refuse(`input.networkVolumeId: network volume ${id} does not exist`, 'NOT_FOUND');
    fields['networkVolumeId'] = id === '' ? undefined : id;
  }
  if (typeof input['locations'] === 'string') {
    const ids = list(input['locations']);
    const unknown = ids.find((id) => !dataCenter(id));
    if (unknown !== undefined) refuse(`input.locations: data centre '${unknown}' is not in the catalog`);
    fields['dataCenterIds'] = ids;
  }
  if (typeof input['allowedCudaVersions'] === 'string') fields['allowedCudaVersions'] = list(input['allowedCudaVersions']);
  if (typeof input['flashBootType'] === 'string') Object.assign(fields, { flashboot: input['flashBootType'] === 'FLASHBOOT', flashbootMode: input['flashBootType'] });
  return fields;
}

function saveEndpoint(core: MockCore, input: Input): Record<string, unknown> {
  const id = typeof input['id'] === 'string' ? input['id'] : undefined;
  const current = id !== undefined ? core.store.endpoints.get(id) : undefined;
  if (id !== undefined && !current) refuse(`input.id: endpoint ${id} not found`, 'NOT_FOUND');
  const fields = endpointFields(core, input);
  Object.assign(fields, deployFields(input, current, fields['allowedCudaVersions'] as string[] | undefined));
  const volumes = networkVolumeIds(core, input);
  if (volumes) fields['networkVolumeIds'] = volumes;
  if (id !== undefined) {
    if (input['template']) refuse('input.template: only a new endpoint gets a template this way (change it with updateEndpointTemplate)');
    const result = core.store.updateEndpoint(id, fields);
    if (!result.ok) storeRefusal(result);
    core.touch();
    return endpointView(core, result.value);
  }
  const createdTemplate = createEndpointTemplate(core, input, storeRefusal);
  if (createdTemplate !== undefined) fields['templateId'] = createdTemplate;
  if (typeof fields['templateId'] !== 'string') refuse('input.templateId: a template (templateId, or template to create one) is required to create an endpoint');
  const result = core.store.createEndpoint({ ...fields, createdThrough: 'graphql' });
  if (!result.ok) {
    // Nothing stays behind from a refused create.
    if (createdTemplate !== undefined) core.store.deleteTemplate(createdTemplate);
    storeRefusal(result);
  }
  core.engine.ensureEndpoint(result.value.id);
  core.touch();
  return endpointView(core, result.value);
}

export const sdkQueryResolvers: Record<string, Resolver> = {
  myself: (_root, _args, core) => userView(core),
  gpuTypes: (_root, args: { input?: { id?: string | null } | null }, core) => {
    const id = args.input?.id;
    return GPU_TYPES.filter((t) => id === undefined || id === null || t.id === id).map((t) => gpuTypeView(core, t));
  },
  listings: (_root, args: { input?: { type?: string | null; searchTerm?: string | null } | null }) => listings(args.input),
  allAiApiPublicConfigs: () => PUBLIC_ENDPOINT_CONFIGS,
  pod: (_root, args: { input: { podId: string } }, core) => {
    const pod = core.store.pods.get(args.input.podId);
    return pod ? podView(core, pod) : null;
  },
};

export const sdkMutationResolvers: Record<string, Resolver> = {
  updateUserSettings: (_root, args: { input: { pubKey?: string | null } }, core) => {
    const pubKey = args.input.pubKey;
    if (typeof pubKey === 'string') {
      // One key per line, as REST v2 account/ssh-keys stores them (the REST v2 wrapper splits the same way),
      // under REST v2's rules for that set (authorized_keys lines, at most 64): one key set, one set of rules.
      const keys = pubKey.split('\n').map((k) => k.trim()).filter((k) => k !== '');
      const issue = validateRequest('restV2', 'updateSshKeys', { body: { keys } })[0];
      if (issue) {
        const line = /^\/body\/keys\/(\d+)/.exec(issue.path)?.[1];
        refuse(`input.pubKey: ${line !== undefined ? `key ${Number(line) + 1} ` : ''}${issue.message} (one authorized_keys line per key, at most 64 keys)`);
      }
      core.store.sshKeys = keys;
      core.touch();
    }
    return userView(core);
  },
  podFindAndDeployOnDemand: (_root, args: { input: Input }, core) => deployGpuPod(core, args.input),
  deployCpuPod: (_root, args: { input: Input }, core) => deployCpuPod(core, args.input),
  podStop: (_root, args: { input: { podId: string } }, core) => stopPod(core, args.input.podId),
  podResume: (_root, args: { input: { podId: string; gpuCount: number } }, core) => resumePod(core, args.input.podId, args.input.gpuCount),
  podTerminate: (_root, args: { input: { podId: string } }, core) => terminatePod(core, args.input.podId),
  saveEndpoint: (_root, args: { input: Input }, core) => saveEndpoint(core, args.input),
  updateEndpointTemplate: (_root, args: { input: { endpointId: string; templateId: string } }, core) => {
    const { endpointId, templateId } = args.input;
    if (!core.store.endpoints.has(endpointId)) refuse(`input.endpointId: endpoint ${endpointId} not found`, 'NOT_FOUND');
    const result = core.store.updateEndpoint(endpointId, { templateId });
    if (!result.ok) storeRefusal(result);
    core.touch();
    return endpointView(core, result.value);
  },
  saveRegistryAuth: (_root, args: { input: { name: string; username: string; password: string } }, core) => {
    const result = core.store.createRegistryAuth(args.input);
    if (!result.ok) storeRefusal(result);
    core.touch();
    return registryAuthView(result.value);
  },
  updateRegistryAuth: (_root, args: { input: { id: string; username: string; password: string } }, core) => {
    const { id, username, password } = args.input;
    const result = core.store.updateRegistryAuth(id, username, password);
    if (!result.ok) refuse(`input.id: container registry auth ${id} not found`, 'NOT_FOUND');
    core.touch();
    return registryAuthView(result.value);
  },
  deleteRegistryAuth: (_root, args: { registryAuthId: string }, core) => {
    const result = core.store.deleteRegistryAuth(args.registryAuthId);
    if (!result.ok) refuse(`registryAuthId: container registry auth ${args.registryAuthId} not found`, 'NOT_FOUND');
    core.touch();
    return null;
  },
};
