// The seam over GraphQL, for a target that has neither REST surface: the mutations the official SDKs
// send (saveTemplate, saveEndpoint, podFindAndDeployOnDemand, saveRegistryAuth, secretCreate and their
// deletes). The seed's REST v1 field names are translated here: env objects become key/value lists,
// port and GPU lists comma-separated strings, a start command dockerArgs. GraphQL has no network
// volume operations (choice.ts routes volumes elsewhere) and no endpoint delete: a fixture endpoint is
// scaled to zero workers instead, which is all its cleanup can do.
import { CheckFailure, type Answer } from '../http.js';
import { shellQuote } from '../../migration/index.js';
import { SEED_ENDPOINT_DEFAULTS } from './rest-v2.js';
import type { Made, Management, ManagementCalls, Removal, ResourceKind } from './types.js';

const TEMPLATE_FIELDS = 'id name imageName containerDiskInGb volumeInGb isServerless dockerArgs env { key value } ports readme volumeMountPath containerRegistryAuthId';
const ENDPOINT_FIELDS = 'id name templateId gpuIds networkVolumeId idleTimeout workersMin workersMax type';
const POD_FIELDS = 'id name imageName desiredStatus';

export class GraphqlManagement implements Management {
  readonly surface = 'graphql' as const;
  readonly kinds = new Set<ResourceKind>(['template', 'endpoint', 'pod', 'registryAuth', 'secret']);

  constructor(private readonly calls: ManagementCalls) {}

  async create(kind: ResourceKind, input: Record<string, unknown>): Promise<Made> {
    switch (kind) {
      case 'template': {
        const saved = await this.mutate('saveTemplate', `mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { ${TEMPLATE_FIELDS} } }`, { input: templateInput(input) });
        return made(saved);
      }
      case 'endpoint': {
        const saved = await this.mutate('saveEndpoint', `mutation($input: EndpointInput!) { saveEndpoint(input: $input) { ${ENDPOINT_FIELDS} } }`, { input: endpointInput({ ...SEED_ENDPOINT_DEFAULTS, ...input }) });
        return made(saved);
      }
      case 'pod': {
        const saved = await this.mutate('podFindAndDeployOnDemand', `mutation($input: PodFindAndDeployOnDemandInput!) { podFindAndDeployOnDemand(input: $input) { ${POD_FIELDS} } }`, { input: await this.podInput(input) });
        return made(saved);
      }
      case 'registryAuth': {
        const { name, username, password } = input;
        const saved = await this.mutate('saveRegistryAuth', 'mutation($input: SaveRegistryAuthInput!) { saveRegistryAuth(input: $input) { id name } }', { input: { name, username, password } });
        return made(saved);
      }
      case 'secret': {
        const { name, value, description } = input;
        const saved = await this.mutate('secretCreate', 'mutation($input: SecretCreateInput!) { secretCreate(input: $input) { id name description } }', { input: description === undefined ? { name, value } : { name, value, description } });
        return made(saved);
      }
      default:
        throw new Error(`GraphQL has no operation creating a ${kind}`);
    }
  }

  async update(kind: ResourceKind, id: string, patch: Record<string, unknown>): Promise<void> {
    if (kind === 'endpoint') {
      await this.mutate('saveEndpoint', `mutation($input: EndpointInput!) { saveEndpoint(input: $input) { id } }`, { input: { ...endpointInput(patch), id } });
      return;
    }
    if (kind === 'template') {
      // saveTemplate with an id is a full replace: the current fields, then the change.
      const current = await this.find('template', id);
      if (!current) throw new CheckFailure(`saveTemplate (GraphQL fixture): podTemplate(id: ${id}) answered null`);
      const { id: _id, ...fields } = current as Record<string, unknown>;
      const input = { ...stripNulls(fields), ...templateInput(patch, false), id };
      await this.mutate('saveTemplate', `mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { id } }`, { input });
      return;
    }
    throw new Error(`the GraphQL seam cannot change a ${kind}`);
  }

  async remove(kind: ResourceKind, id: string): Promise<Removal> {
    let answer: Answer;
    switch (kind) {
      case 'template': {
        const current = await this.find('template', id);
        if (!current) return { done: true, status: 200 };
        answer = await this.calls.gql('mutation($name: String) { deleteTemplate(templateName: $name) }', { name: current.name });
        break;
      }
      case 'endpoint':
        // No delete on this surface: the endpoint stops taking workers.
        answer = await this.calls.gql('mutation($input: EndpointInput!) { saveEndpoint(input: $input) { id } }', { input: { id, workersMin: 0, workersMax: 0 } });
        return { done: false, status: hasErrors(answer) ? 'errors' : answer.status };
      case 'pod':
        answer = await this.calls.gql('mutation($input: PodTerminateInput!) { podTerminate(input: $input) }', { input: { podId: id } });
        break;
      case 'registryAuth':
        answer = await this.calls.gql('mutation($id: String!) { deleteRegistryAuth(registryAuthId: $id) }', { id });
        break;
      case 'secret':
        answer = await this.calls.gql('mutation($id: ID!) { secretDelete(id: $id) }', { id });
        break;
      default:
        throw new Error(`GraphQL has no operation deleting a ${kind}`);
    }
    return hasErrors(answer) ? { done: false, status: 'errors' } : { done: answer.status === 200, status: answer.status };
  }

  async find(kind: ResourceKind, id: string): Promise<any | undefined> {
    if (kind === 'template') return (await this.calls.gql(`query($id: String!) { podTemplate(id: $id) { ${TEMPLATE_FIELDS} } }`, { id })).body?.data?.podTemplate ?? undefined;
    if (kind === 'pod') return (await this.calls.gql(`query($input: PodFilter!) { pod(input: $input) { ${POD_FIELDS} } }`, { input: { podId: id } })).body?.data?.pod ?? undefined;
    if (kind === 'endpoint') {
      const endpoints = (await this.calls.gql(`query { myself { endpoints { ${ENDPOINT_FIELDS} } } }`)).body?.data?.myself?.endpoints as { id: string }[] | undefined;
      return endpoints?.find((e) => e.id === id);
    }
    throw new Error(`the GraphQL seam cannot read a ${kind}`);
  }

  private async mutate(field: string, query: string, variables: Record<string, unknown>): Promise<any> {
    const answer = await this.calls.gql(query, variables);
    const value = answer.body?.data?.[field];
    if (hasErrors(answer) || !value) throw new CheckFailure(`${field} (GraphQL fixture) failed: ${errorText(answer)}`);
    return value;
  }

  /** podFindAndDeployOnDemand needs one GPU type: the first asked for, else the first the catalogue lists. */
  private async podInput(input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { gpuTypeIds, env, ports, dockerStartCmd, ...rest } = input;
    const out: Record<string, unknown> = stripNulls(rest);
    let gpuTypeId = Array.isArray(gpuTypeIds) ? gpuTypeIds[0] : undefined;
    if (gpuTypeId === undefined) {
      const types = (await this.calls.gql('query { gpuTypes { id } }')).body?.data?.gpuTypes as { id: string }[] | undefined;
      gpuTypeId = types?.[0]?.id;
      if (!gpuTypeId) throw new CheckFailure('podFindAndDeployOnDemand (GraphQL fixture): gpuTypes lists no GPU type to deploy on');
    }
    out['gpuTypeId'] = gpuTypeId;
    if (env !== undefined) out['env'] = envList(env);
    if (Array.isArray(ports)) out['ports'] = ports.join(',');
    if (Array.isArray(dockerStartCmd) && dockerStartCmd.length > 0) out['dockerArgs'] = dockerStartCmd.map((w) => shellQuote(String(w))).join(' ');
    return out;
  }
}

function templateInput(input: Record<string, unknown>, withDefaults = true): Record<string, unknown> {
  const { env, ports, dockerStartCmd, dockerEntrypoint: _entrypoint, ...rest } = input;
  const out: Record<string, unknown> = withDefaults ? { containerDiskInGb: 10, volumeInGb: 0, ...stripNulls(rest) } : stripNulls(rest);
  if (env !== undefined) out['env'] = envList(env);
  if (Array.isArray(ports)) out['ports'] = ports.join(',');
  if (Array.isArray(dockerStartCmd) && dockerStartCmd.length > 0) out['dockerArgs'] = dockerStartCmd.map((w) => shellQuote(String(w))).join(' ');
  return out;
}

function endpointInput(input: Record<string, unknown>): Record<string, unknown> {
  const { gpuTypeIds, dataCenterIds, networkVolumeId, ...rest } = input;
  const out: Record<string, unknown> = stripNulls(rest);
  if (Array.isArray(gpuTypeIds)) out['gpuIds'] = gpuTypeIds.join(',');
  if (Array.isArray(dataCenterIds)) out['locations'] = dataCenterIds.join(',');
  if (networkVolumeId !== undefined) out['networkVolumeId'] = networkVolumeId;
  return out;
}

function envList(env: unknown): { key: string; value: string }[] {
  if (Array.isArray(env)) return env as { key: string; value: string }[];
  return Object.entries((env ?? {}) as Record<string, unknown>).map(([key, value]) => ({ key, value: String(value) }));
}

function stripNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== null));
}

function made(value: { id: unknown; name?: unknown }): Made {
  return { id: String(value.id), name: String(value.name ?? ''), body: value };
}

const hasErrors = (answer: Answer): boolean => Array.isArray(answer.body?.errors) && answer.body.errors.length > 0;

function errorText(answer: Answer): string {
  const errors = answer.body?.errors;
  return Array.isArray(errors) ? errors.map((e: { message?: string }) => e.message).join('; ') : `HTTP ${answer.status}`;
}
