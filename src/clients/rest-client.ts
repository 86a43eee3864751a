/**
 * REST v1 client (`{base_url}` = …/v1): a typed `request(operationId, args)` for all 35 operations and
 * resource helpers (`pods.start(id)`, `templates.create(body)`, `billing.pods(query)` …) on top of it.
 * Types come from `generated/rest-v1/types.ts`; method and path from `generated/operations.ts`.
 */
import { operations as operationTable } from '../../generated/operations.js';
import type { components, operations as RestOperations } from '../../generated/rest-v1/types.js';
import type { paths as RestV1Paths } from '../../generated/rest-v1/types.js';
import type { ArgsOf, PathParamsOf, QueryParamsOf, RequestBodyOf, ResultOf } from './operation-types.js';
import { HttpCore, compact, requireOption, type BaseClientOptions, type CallOptions, type OperationSpec } from './http.js';

export type RestOperationId = keyof RestOperations;
export type RestSchemas = components['schemas'];

type Op<K extends RestOperationId> = RestOperations[K];
type PathParams<K extends RestOperationId> = PathParamsOf<Op<K>>;
type QueryParams<K extends RestOperationId> = QueryParamsOf<Op<K>>;
type RequestBody<K extends RestOperationId> = RequestBodyOf<Op<K>>;
/** JSON body of the operation's success answer (`undefined` for 204). */
export type RestResult<K extends RestOperationId> = ResultOf<Op<K>>;
/** Arguments of `request(operationId, args)`: `path` when the path has ids, `query` when allowed, `body` when required. */
export type RestArgs<K extends RestOperationId> = ArgsOf<Op<K>>;

export type RestClientOptions = BaseClientOptions & {
  /** REST v1 base, including the version segment, e.g. `https://rest.runpod.io/v1`. */
  baseUrl: string;
};

/** POSTs that are safe to repeat: the `/update` synonyms (full update) and start/stop (state setters). */
const IDEMPOTENT_POSTS = new Set(['startPod', 'stopPod']);

const specs = new Map<string, OperationSpec>();
for (const info of operationTable) {
  if (info.surface !== 'restV1') continue;
  const method = info.method;
  const idempotent = method !== 'POST' || info.synonymOf !== undefined || IDEMPOTENT_POSTS.has(info.operationId);
  specs.set(info.operationId, { operationId: info.operationId, method, path: info.path, idempotent });
}

export function restOperationSpec(operationId: string): OperationSpec {
  const spec = specs.get(operationId);
  if (!spec) throw new TypeError(`Unknown REST v1 operation "${operationId}"`);
  return spec;
}

export function createRestClient(options: RestClientOptions) {
  const core = new HttpCore('restV1', requireOption(options.baseUrl, 'baseUrl'), options);

  function request<K extends RestOperationId>(operationId: K, args: RestArgs<K>, callOptions?: CallOptions): Promise<RestResult<K>> {
    const { path, query, body } = args as { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    return core.call<RestResult<K>>(restOperationSpec(operationId), { path, query: compact(query), body }, callOptions);
  }

  // Small typed shorthands so every helper stays one line.
  const list = <K extends RestOperationId>(id: K) => (query?: QueryParams<K>, o?: CallOptions) => request(id, { query } as RestArgs<K>, o);
  const create = <K extends RestOperationId>(id: K) => (body: RequestBody<K>, o?: CallOptions) => request(id, { body } as RestArgs<K>, o);
  const byId =
    <K extends RestOperationId>(id: K, key: keyof PathParams<K> & string) =>
    (value: string, o?: CallOptions) =>
      request(id, { path: { [key]: value } } as RestArgs<K>, o);
  const getById =
    <K extends RestOperationId>(id: K, key: keyof PathParams<K> & string) =>
    (value: string, query?: QueryParams<K>, o?: CallOptions) =>
      request(id, { path: { [key]: value }, query } as unknown as RestArgs<K>, o);
  const updateById =
    <K extends RestOperationId>(id: K, key: keyof PathParams<K> & string) =>
    (value: string, body: RequestBody<K>, o?: CallOptions) =>
      request(id, { path: { [key]: value }, body } as unknown as RestArgs<K>, o);

  return {
    request,
    pods: {
      list: list('listPods'),
      create: create('createPod'),
      get: getById('getPod', 'podId'),
      update: updateById('updatePod', 'podId'),
      delete: byId('deletePod', 'podId'),
      start: byId('startPod', 'podId'),
      stop: byId('stopPod', 'podId'),
      reset: byId('resetPod', 'podId'),
      restart: byId('restartPod', 'podId'),
    },
    endpoints: {
      list: list('listEndpoints'),
      create: create('createEndpoint'),
      get: getById('getEndpoint', 'endpointId'),
      update: updateById('updateEndpoint', 'endpointId'),
      delete: byId('deleteEndpoint', 'endpointId'),
    },
    templates: {
      list: list('listTemplates'),
      create: create('createTemplate'),
      get: getById('getTemplate', 'templateId'),
      update: updateById('updateTemplate', 'templateId'),
      delete: byId('deleteTemplate', 'templateId'),
    },
    networkVolumes: {
      list: list('listNetworkVolumes'),
      create: create('createNetworkVolume'),
      get: byId('getNetworkVolume', 'networkVolumeId'),
      update: updateById('updateNetworkVolume', 'networkVolumeId'),
      delete: byId('deleteNetworkVolume', 'networkVolumeId'),
    },
    containerRegistryAuths: {
      list: list('listContainerRegistryAuths'),
      create: create('createContainerRegistryAuth'),
      get: byId('getContainerRegistryAuth', 'containerRegistryAuthId'),
      delete: byId('deleteContainerRegistryAuth', 'containerRegistryAuthId'),
    },
    billing: {
      pods: list('getPodBilling'),
      endpoints: list('getEndpointBilling'),
      networkVolumes: list('getNetworkVolumeBilling'),
    },
    /** openapi-fetch typed with the REST v1 paths: `{data, error, response}`, no throwing on status. */
    raw: core.rawClient<RestV1Paths>(),
  };
}

export type RestClient = ReturnType<typeof createRestClient>;
