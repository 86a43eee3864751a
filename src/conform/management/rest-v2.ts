// The seam over REST v2 (the real service's management surface since 2026-11-15). The seed's field
// names are translated by the migration map (specs/migration/rest-v1-to-v2.yaml), the same one
// `migrate` gives callers, so the suite sets things up exactly as a migrated client would.
import { CheckFailure } from '../http.js';
import { convertBody, operationMapping, v2OperationFor } from '../../migration/index.js';
import { describeAnswer } from './answers.js';
import type { Made, Management, ManagementCalls, Removal, ResourceKind } from './types.js';

/** The REST v1 operations whose REST v2 counterparts make, change, find and remove each kind. */
interface Operations { create: string; update?: string; remove: string; find: string }

const V1_OPERATIONS: Partial<Record<ResourceKind, Operations>> = {
  template: { create: 'createTemplate', update: 'updateTemplate', remove: 'deleteTemplate', find: 'getTemplate' },
  endpoint: { create: 'createEndpoint', update: 'updateEndpoint', remove: 'deleteEndpoint', find: 'getEndpoint' },
  pod: { create: 'createPod', update: 'updatePod', remove: 'deletePod', find: 'getPod' },
  volume: { create: 'createNetworkVolume', update: 'updateNetworkVolume', remove: 'deleteNetworkVolume', find: 'getNetworkVolume' },
  registryAuth: { create: 'createContainerRegistryAuth', remove: 'deleteContainerRegistryAuth', find: 'getContainerRegistryAuth' },
};

/**
 * Where REST v2's create defaults differ from the seed's, a fixture endpoint states the seed's: the
 * checks judge the seed's behaviours (a job's default executionTimeout of 600000 ms) whatever surface
 * set them up (REST v2 alone defaults an endpoint to 300 s).
 */
export const SEED_ENDPOINT_DEFAULTS = { executionTimeoutMs: 600_000 };

export class RestV2Management implements Management {
  readonly surface = 'restV2' as const;
  readonly kinds = new Set<ResourceKind>([...(Object.keys(V1_OPERATIONS) as ResourceKind[]), 'secret']);

  constructor(private readonly calls: ManagementCalls) {}

  async create(kind: ResourceKind, input: Record<string, unknown>): Promise<Made> {
    if (kind === 'secret') {
      const answer = await this.calls.v2('createSecret', { body: input });
      if (answer.status !== 201) throw new CheckFailure(`createSecret (REST v2 fixture): expected HTTP 201, got ${describeAnswer(answer)}`);
      return { id: String(answer.body.id), name: String(answer.body.name), body: answer.body };
    }
    const v1 = this.ops(kind).create;
    const { operationId, body } = translated(v1, kind === 'endpoint' ? { ...SEED_ENDPOINT_DEFAULTS, ...input } : input);
    const expected = operationMapping(v1).response.v2Status ?? 201;
    const answer = await this.calls.v2(operationId, { body });
    if (answer.status !== expected) throw new CheckFailure(`${operationId} (REST v2 fixture, for REST v1 ${v1}): expected HTTP ${expected}, got ${describeAnswer(answer)}`);
    return { id: String(answer.body.id), name: String(answer.body.name ?? input['name']), body: answer.body };
  }

  async update(kind: ResourceKind, id: string, patch: Record<string, unknown>): Promise<void> {
    const v1 = this.ops(kind).update;
    if (!v1) throw new Error(`the REST v2 seam cannot change a ${kind}`);
    const { operationId, body } = translated(v1, patch);
    const answer = await this.calls.v2(operationId, { path: { id }, body });
    if (answer.status !== 200) throw new CheckFailure(`${operationId} (REST v2 fixture, for REST v1 ${v1}): expected HTTP 200, got ${describeAnswer(answer)}`);
  }

  async remove(kind: ResourceKind, id: string): Promise<Removal> {
    const operationId = kind === 'secret' ? 'deleteSecret' : v2OperationFor(this.ops(kind).remove).operationId;
    const answer = await this.calls.v2(operationId, { path: { id } });
    return { done: answer.status === 204 || answer.status === 404, status: answer.status };
  }

  async find(kind: ResourceKind, id: string): Promise<any | undefined> {
    const operationId = kind === 'secret' ? 'getSecret' : v2OperationFor(this.ops(kind).find).operationId;
    const answer = await this.calls.v2(operationId, { path: { id } });
    return answer.status === 200 ? answer.body : undefined;
  }

  private ops(kind: ResourceKind): Operations {
    const ops = V1_OPERATIONS[kind];
    if (!ops) throw new Error(`the REST v2 seam has no operations for a ${kind}`);
    return ops;
  }
}

/** The REST v2 operation and body for a REST v1 one; a field REST v2 has no place for fails the set-up. */
function translated(v1OperationId: string, input: Record<string, unknown>): { operationId: string; body: Record<string, unknown> } {
  const conversion = convertBody(v1OperationId, input);
  if (conversion.dropped.length > 0) {
    const lost = conversion.dropped.map((d) => `${d.field} (${d.reason})`).join(', ');
    throw new CheckFailure(`${v1OperationId} (REST v2 fixture): REST v2 has no place for ${lost}`);
  }
  return { operationId: conversion.v2.operationId, body: conversion.value ?? {} };
}
