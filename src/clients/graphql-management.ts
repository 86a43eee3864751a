/**
 * The GraphQL client's management calls: the account, GPU catalog, pod, endpoint and registry operations
 * the official SDKs send (specs/graphql, runpod-python 1.12.0), as typed documents with variables.
 * Mixed into createGraphqlClient; every call goes through its `request` (validation, retries, errors).
 */
import type { TypedDocumentString } from 'graphql-request';
import {
  DeleteRegistryAuthDocument,
  DeployCpuPodDocument,
  GetPodDocument,
  GpuTypesDocument,
  MyselfDocument,
  PodFindAndDeployOnDemandDocument,
  PodResumeDocument,
  PodStopDocument,
  PodTerminateDocument,
  SaveEndpointDocument,
  SaveRegistryAuthDocument,
  UpdateEndpointTemplateDocument,
  UpdateRegistryAuthDocument,
  UpdateUserSettingsDocument,
  type DeployCpuPodInput,
  type EndpointInput,
  type GpuTypesQuery,
  type MyselfQuery,
  type PodFindAndDeployOnDemandInput,
  type SaveEndpointMutation,
  type SaveRegistryAuthInput,
  type SaveRegistryAuthMutation,
  type UpdateRegistryAuthInput,
  type UpdateUserSettingsMutation,
} from '../../generated/graphql/graphql.js';
import { ApiError } from './errors.js';
import type { CallOptions } from './http.js';

export type {
  DeployCpuPodInput, EndpointInput, PodFindAndDeployOnDemandInput, SaveRegistryAuthInput, UpdateRegistryAuthInput,
} from '../../generated/graphql/graphql.js';
export type GraphqlAccount = NonNullable<MyselfQuery['myself']>;
export type GraphqlPod = GraphqlAccount['pods'][number];
export type GraphqlEndpoint = NonNullable<SaveEndpointMutation['saveEndpoint']>;
export type GraphqlGpuType = NonNullable<GpuTypesQuery['gpuTypes']>[number];
export type GraphqlRegistryAuth = NonNullable<SaveRegistryAuthMutation['saveRegistryAuth']>;
export type GraphqlAccountSettings = NonNullable<UpdateUserSettingsMutation['updateUserSettings']>;

type Request = <Result, Vars extends Record<string, unknown>>(
  document: TypedDocumentString<Result, Vars>, variables: Vars, callOptions?: CallOptions,
) => Promise<Result>;

/** A mutation answered `null` without errors: the server broke the contract. */
function present<T>(value: T | null | undefined, operationId: string): T {
  if (value === null || value === undefined) throw new ApiError({ operationId, message: `${operationId} returned null without errors` });
  return value;
}

export function graphqlManagementCalls(request: Request) {
  return {
    /** The account: SSH keys, network volumes, pods and endpoints. */
    myself: async (callOptions?: CallOptions): Promise<GraphqlAccount> => present((await request(MyselfDocument, {}, callOptions)).myself, 'Myself'),
    /** Replaces the account's SSH public keys (one per line; "" removes all). */
    updateUserSettings: async (pubKey: string, callOptions?: CallOptions): Promise<GraphqlAccountSettings> =>
      present((await request(UpdateUserSettingsDocument, { input: { pubKey } }, callOptions)).updateUserSettings, 'UpdateUserSettings'),
    /** GPU types of the catalog (one with `id`), priced for `gpuCount` GPUs (default 1). */
    gpuTypes: async (filter: { id?: string; gpuCount?: number } = {}, callOptions?: CallOptions): Promise<GraphqlGpuType[]> => {
      const variables = { ...(filter.id !== undefined ? { input: { id: filter.id } } : {}), ...(filter.gpuCount !== undefined ? { lowestPrice: { gpuCount: filter.gpuCount } } : {}) };
      return (await request(GpuTypesDocument, variables, callOptions)).gpuTypes ?? [];
    },
    /** One pod by id, or null when no pod has it. */
    pod: async (podId: string, callOptions?: CallOptions): Promise<GraphqlPod | null> => (await request(GetPodDocument, { input: { podId } }, callOptions)).pod,
    /** Deploys a GPU pod on demand. */
    deployGpuPod: async (input: PodFindAndDeployOnDemandInput, callOptions?: CallOptions): Promise<GraphqlPod> =>
      present((await request(PodFindAndDeployOnDemandDocument, { input }, callOptions)).podFindAndDeployOnDemand, 'PodFindAndDeployOnDemand'),
    /** Deploys a CPU pod (`instanceId` `<flavour>-<vcpu>-<memory>`, default cpu3c-2-4). */
    deployCpuPod: async (input: DeployCpuPodInput, callOptions?: CallOptions): Promise<GraphqlPod> =>
      present((await request(DeployCpuPodDocument, { input }, callOptions)).deployCpuPod, 'DeployCpuPod'),
    podStop: async (podId: string, callOptions?: CallOptions): Promise<GraphqlPod> =>
      present((await request(PodStopDocument, { input: { podId } }, callOptions)).podStop, 'PodStop'),
    podResume: async (podId: string, gpuCount: number, callOptions?: CallOptions): Promise<GraphqlPod> =>
      present((await request(PodResumeDocument, { input: { podId, gpuCount } }, callOptions)).podResume, 'PodResume'),
    podTerminate: async (podId: string, callOptions?: CallOptions): Promise<void> => {
      await request(PodTerminateDocument, { input: { podId } }, callOptions);
    },
    /** Creates (input without id) or changes (input with id) a serverless endpoint. */
    saveEndpoint: async (input: EndpointInput, callOptions?: CallOptions): Promise<GraphqlEndpoint> =>
      present((await request(SaveEndpointDocument, { input }, callOptions)).saveEndpoint, 'SaveEndpoint'),
    updateEndpointTemplate: async (endpointId: string, templateId: string, callOptions?: CallOptions): Promise<GraphqlEndpoint> =>
      present((await request(UpdateEndpointTemplateDocument, { input: { endpointId, templateId } }, callOptions)).updateEndpointTemplate, 'UpdateEndpointTemplate'),
    /** Saves a registry credential; the password is never returned. */
    saveRegistryAuth: async (input: SaveRegistryAuthInput, callOptions?: CallOptions): Promise<GraphqlRegistryAuth> =>
      present((await request(SaveRegistryAuthDocument, { input }, callOptions)).saveRegistryAuth, 'SaveRegistryAuth'),
    /** Replaces a registry credential's username and password. */
    updateRegistryAuth: async (input: UpdateRegistryAuthInput, callOptions?: CallOptions): Promise<GraphqlRegistryAuth> =>
      present((await request(UpdateRegistryAuthDocument, { input }, callOptions)).updateRegistryAuth, 'UpdateRegistryAuth'),
    deleteRegistryAuth: async (registryAuthId: string, callOptions?: CallOptions): Promise<void> => {
      await request(DeleteRegistryAuthDocument, { registryAuthId }, callOptions);
    },
  };
}
