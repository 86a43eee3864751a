// The seam over REST v1 (the seed's management surface): its operations as the seed names them.
import { CheckFailure } from '../http.js';
import { describeAnswer } from './answers.js';
import type { Made, Management, ManagementCalls, Removal, ResourceKind } from './types.js';

interface Operations { create: string; created: number; update?: string; remove: string; find: string; idParam: string }

const OPERATIONS: Partial<Record<ResourceKind, Operations>> = {
  template: { create: 'createTemplate', created: 200, update: 'updateTemplate', remove: 'deleteTemplate', find: 'getTemplate', idParam: 'templateId' },
  endpoint: { create: 'createEndpoint', created: 200, update: 'updateEndpoint', remove: 'deleteEndpoint', find: 'getEndpoint', idParam: 'endpointId' },
  pod: { create: 'createPod', created: 201, update: 'updatePod', remove: 'deletePod', find: 'getPod', idParam: 'podId' },
  volume: { create: 'createNetworkVolume', created: 200, update: 'updateNetworkVolume', remove: 'deleteNetworkVolume', find: 'getNetworkVolume', idParam: 'networkVolumeId' },
  registryAuth: { create: 'createContainerRegistryAuth', created: 200, remove: 'deleteContainerRegistryAuth', find: 'getContainerRegistryAuth', idParam: 'containerRegistryAuthId' },
};

export class RestV1Management implements Management {
  readonly surface = 'restV1' as const;
  readonly kinds = new Set(Object.keys(OPERATIONS) as ResourceKind[]);

  constructor(private readonly calls: ManagementCalls) {}

  private ops(kind: ResourceKind): Operations {
    const ops = OPERATIONS[kind];
    if (!ops) throw new Error(`REST v1 cannot make a ${kind}`);
    return ops;
  }

  async create(kind: ResourceKind, input: Record<string, unknown>): Promise<Made> {
    const ops = this.ops(kind);
    const answer = await this.calls.rest(ops.create, { body: input });
    if (answer.status !== ops.created) throw new CheckFailure(`${ops.create} (REST v1 fixture): expected HTTP ${ops.created}, got ${describeAnswer(answer)}`);
    return { id: String(answer.body.id), name: String(answer.body.name ?? input['name']), body: answer.body };
  }

  async update(kind: ResourceKind, id: string, patch: Record<string, unknown>): Promise<void> {
    const ops = this.ops(kind);
    if (!ops.update) throw new Error(`REST v1 cannot change a ${kind}`);
    const answer = await this.calls.rest(ops.update, { path: { [ops.idParam]: id }, body: patch });
    if (answer.status !== 200) throw new CheckFailure(`${ops.update} (REST v1 fixture): expected HTTP 200, got ${describeAnswer(answer)}`);
  }

  async remove(kind: ResourceKind, id: string): Promise<Removal> {
    const ops = this.ops(kind);
    const answer = await this.calls.rest(ops.remove, { path: { [ops.idParam]: id } });
    return { done: answer.status === 204 || answer.status === 404, status: answer.status };
  }

  async find(kind: ResourceKind, id: string): Promise<any | undefined> {
    const ops = this.ops(kind);
    const answer = await this.calls.rest(ops.find, { path: { [ops.idParam]: id } });
    return answer.status === 200 ? answer.body : undefined;
  }
}
