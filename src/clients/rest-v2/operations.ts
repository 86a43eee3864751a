/**
 * REST v2 operation table and the types derived from `generated/rest-v2/types.ts`. Paths carry `/v2`
 * (as in the spec), relative to the client's `baseUrl`; the table is checked against the bundled spec by
 * test/clients/rest-v2/operations.test.ts. Kept here (one short row per operation) so the client bundle does not pull
 * in the operations table of every surface.
 */
import type { components, operations } from '../../../generated/rest-v2/types.js';
import type { ArgsOf, PathParamsOf, QueryParamsOf, RequestBodyOf, ResultOf } from '../operation-types.js';

export type RestV2Schemas = components['schemas'];
export type RestV2OperationId = keyof operations;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** operationId → [method, path template]. */
export const REST_V2_OPERATIONS = {
  getSshKeys: ['GET', '/v2/account/ssh-keys'],
  updateSshKeys: ['PUT', '/v2/account/ssh-keys'],
  listSecrets: ['GET', '/v2/account/secrets'],
  createSecret: ['POST', '/v2/account/secrets'],
  getSecret: ['GET', '/v2/account/secrets/{id}'],
  updateSecret: ['PATCH', '/v2/account/secrets/{id}'],
  deleteSecret: ['DELETE', '/v2/account/secrets/{id}'],
  listPods: ['GET', '/v2/pods'],
  createPod: ['POST', '/v2/pods'],
  getPod: ['GET', '/v2/pods/{id}'],
  updatePod: ['PATCH', '/v2/pods/{id}'],
  deletePod: ['DELETE', '/v2/pods/{id}'],
  getPodLogs: ['GET', '/v2/pods/{id}/logs'],
  podAction: ['POST', '/v2/pods/{id}/action'],
  listClusters: ['GET', '/v2/clusters'],
  createCluster: ['POST', '/v2/clusters'],
  getCluster: ['GET', '/v2/clusters/{id}'],
  updateCluster: ['PATCH', '/v2/clusters/{id}'],
  deleteCluster: ['DELETE', '/v2/clusters/{id}'],
  listClusterPods: ['GET', '/v2/clusters/{id}/pods'],
  listEndpoints: ['GET', '/v2/serverless'],
  createEndpoint: ['POST', '/v2/serverless'],
  getEndpoint: ['GET', '/v2/serverless/{id}'],
  updateEndpoint: ['PATCH', '/v2/serverless/{id}'],
  deleteEndpoint: ['DELETE', '/v2/serverless/{id}'],
  listEndpointWorkers: ['GET', '/v2/serverless/{id}/workers'],
  listEndpointReleases: ['GET', '/v2/serverless/{id}/releases'],
  getWorkerLogs: ['GET', '/v2/serverless/{id}/workers/{workerId}/logs'],
  listEndpointBuilds: ['GET', '/v2/serverless/{id}/builds'],
  getEndpointBuild: ['GET', '/v2/serverless/{id}/builds/{buildId}'],
  getEndpointBuildLogs: ['GET', '/v2/serverless/{id}/builds/{buildId}/logs'],
  listTemplates: ['GET', '/v2/templates'],
  createTemplate: ['POST', '/v2/templates'],
  getTemplate: ['GET', '/v2/templates/{id}'],
  updateTemplate: ['PATCH', '/v2/templates/{id}'],
  deleteTemplate: ['DELETE', '/v2/templates/{id}'],
  listNetworkVolumes: ['GET', '/v2/network-volumes'],
  createNetworkVolume: ['POST', '/v2/network-volumes'],
  getNetworkVolume: ['GET', '/v2/network-volumes/{id}'],
  updateNetworkVolume: ['PATCH', '/v2/network-volumes/{id}'],
  deleteNetworkVolume: ['DELETE', '/v2/network-volumes/{id}'],
  listRegistries: ['GET', '/v2/registries'],
  createRegistry: ['POST', '/v2/registries'],
  getRegistry: ['GET', '/v2/registries/{id}'],
  deleteRegistry: ['DELETE', '/v2/registries/{id}'],
  listDelegations: ['GET', '/v2/registries/delegations'],
  createDelegation: ['POST', '/v2/registries/delegations'],
  revokeDelegation: ['DELETE', '/v2/registries/delegations/{id}'],
  listGpuTypes: ['GET', '/v2/catalog/gpus'],
  getGpuType: ['GET', '/v2/catalog/gpus/{id}'],
  listCpuTypes: ['GET', '/v2/catalog/cpus'],
  getCpuType: ['GET', '/v2/catalog/cpus/{id}'],
  listDataCenters: ['GET', '/v2/catalog/datacenters'],
  getDataCenter: ['GET', '/v2/catalog/datacenters/{id}'],
  listPublicTemplates: ['GET', '/v2/catalog/templates'],
  listBilling: ['GET', '/v2/billing'],
  listPodBilling: ['GET', '/v2/billing/pods'],
  listServerlessBilling: ['GET', '/v2/billing/serverless'],
  listEndpointBilling: ['GET', '/v2/billing/endpoints'],
  listNetworkVolumeBilling: ['GET', '/v2/billing/network-volumes'],
  listClusterBilling: ['GET', '/v2/billing/clusters'],
  listSandboxes: ['GET', '/v2/sandboxes'],
  createSandbox: ['POST', '/v2/sandboxes'],
  getSandbox: ['GET', '/v2/sandboxes/{id}'],
  terminateSandbox: ['DELETE', '/v2/sandboxes/{id}'],
  runSandboxCommand: ['POST', '/v2/sandboxes/{id}/exec'],
  getSandboxLogs: ['GET', '/v2/sandboxes/{id}/logs'],
} as const satisfies Record<RestV2OperationId, readonly [Method, string]>;

/** The four Server-Sent-Events operations (`text/event-stream`), read with `stream()` / `logs()`. */
export type RestV2StreamOperationId = 'getPodLogs' | 'getWorkerLogs' | 'getEndpointBuildLogs' | 'getSandboxLogs';
/** Every operation answering JSON (or nothing): all but the four streams, what `request()` takes. */
export type RestV2JsonOperationId = Exclude<RestV2OperationId, RestV2StreamOperationId>;

type Op<K extends RestV2OperationId> = operations[K];
export type RestV2PathParams<K extends RestV2OperationId> = PathParamsOf<Op<K>>;
export type RestV2QueryParams<K extends RestV2OperationId> = QueryParamsOf<Op<K>>;
export type RestV2RequestBody<K extends RestV2OperationId> = RequestBodyOf<Op<K>>;
/** JSON body of the operation's success answer (`undefined` for 204; a union where both exist, e.g. podAction). */
export type RestV2Result<K extends RestV2OperationId> = ResultOf<Op<K>>;
/** Arguments of `request(operationId, args)`: `path` when the path has ids, `query` when allowed, `body` when required. */
export type RestV2Args<K extends RestV2OperationId> = ArgsOf<Op<K>>;
