// Where the fixtures of the agreement phase and the isolation world come from: the service's management
// interface as the target offers it. REST v1 when it is given (the seed's target: unchanged), else REST v2
// (the service as it is today, REST v1 retired). Both make the same objects of the same account, so the
// generated GraphQL and queue v2 requests that name them work either way.
import { randomBytes } from 'node:crypto';
import type { Answer, Transport } from './transport.js';

/** The objects every surface's operations can name (REST v1's kinds; GraphQL and queue v2 name them too). */
export type ManagedKind = 'pod' | 'endpoint' | 'template' | 'networkVolume' | 'registryAuth';

export interface ManagedSpec {
  name: string;
  image: string;
  /** Endpoints: worker bounds (default 0..1). */
  workers?: { min: number; max: number };
  /** Endpoints over REST v1: the template they run (REST v2 endpoints name their image). */
  templateId?: string;
  /** Registry auths: the password (registered as a secret by the caller). */
  password?: string;
}

export interface Management {
  readonly surface: 'restV1' | 'restV2';
  /** Creates one object; the answer's body carries its id. */
  create(kind: ManagedKind, spec: ManagedSpec): Promise<Answer>;
  /** Deletes one object: true when it is gone (or was already). */
  remove(kind: ManagedKind, id: string): Promise<boolean>;
  /** The collection of a kind, as a path of this surface (for list-size observations). */
  collection(kind: ManagedKind): string;
  get(path: string): Promise<Answer>;
}

const IDLE_TIMEOUT_S = 5;

/** The seed's REST v1 (paths of specs/rest-v1). */
class RestV1Management implements Management {
  readonly surface = 'restV1';
  private static readonly PATHS: Record<ManagedKind, string> = {
    pod: '/pods', endpoint: '/endpoints', template: '/templates', networkVolume: '/networkvolumes', registryAuth: '/containerregistryauth',
  };

  constructor(private readonly transport: Transport) {}

  create(kind: ManagedKind, spec: ManagedSpec): Promise<Answer> {
    const { name, image } = spec;
    const body: Record<ManagedKind, () => Record<string, unknown>> = {
      pod: () => ({ name, imageName: image, gpuCount: 1 }),
      endpoint: () => ({ name, templateId: spec.templateId, workersMin: spec.workers?.min ?? 0, workersMax: spec.workers?.max ?? 1, idleTimeout: IDLE_TIMEOUT_S }),
      template: () => ({ name, imageName: image, isServerless: true, volumeInGb: 0, containerDiskInGb: 10 }),
      networkVolume: () => ({ name, size: 10, dataCenterId: 'EU-RO-1' }),
      registryAuth: () => ({ name, username: 'agreement', password: spec.password }),
    };
    return this.transport.rest('POST', this.collection(kind), body[kind]());
  }

  async remove(kind: ManagedKind, id: string): Promise<boolean> {
    const answer = await this.transport.rest('DELETE', `${this.collection(kind)}/${encodeURIComponent(id)}`);
    // 404/400: already gone (a generated delete removed it); anything else is left over.
    return [204, 404].includes(answer.status) || (kind === 'registryAuth' && answer.status === 400);
  }

  collection(kind: ManagedKind): string {
    return RestV1Management.PATHS[kind];
  }

  get(path: string): Promise<Answer> {
    return this.transport.rest('GET', path);
  }
}

/** REST v2 (the service since REST v1's retirement): placement from its own catalogue, never guessed. */
class RestV2Management implements Management {
  readonly surface = 'restV2';
  private static readonly PATHS: Record<ManagedKind, string> = {
    pod: '/pods', endpoint: '/serverless', template: '/templates', networkVolume: '/network-volumes', registryAuth: '/registries',
  };
  private placement: Promise<{ gpuType: string; pool: string | undefined; dataCenter: string }> | undefined;

  constructor(private readonly transport: Transport) {}

  async create(kind: ManagedKind, spec: ManagedSpec): Promise<Answer> {
    const { name, image } = spec;
    const where = kind === 'pod' || kind === 'endpoint' || kind === 'networkVolume' ? await this.place() : undefined;
    const body: Record<ManagedKind, () => Record<string, unknown>> = {
      pod: () => ({ name, image, gpu: { id: where!.gpuType, count: 1 } }),
      endpoint: () => ({
        name, type: 'QUEUE', image, gpu: where!.pool ? { pools: [where!.pool] } : { id: where!.gpuType },
        scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: spec.workers?.min ?? 0, max: spec.workers?.max ?? 1, idleTimeout: IDLE_TIMEOUT_S },
      }),
      template: () => ({ name, image, serverless: true, disk: 10 }),
      networkVolume: () => ({ name, size: 10, dataCenter: where!.dataCenter }),
      registryAuth: () => ({ name, username: 'agreement', password: spec.password }),
    };
    return this.transport.restV2('POST', this.collection(kind), body[kind]());
  }

  async remove(kind: ManagedKind, id: string): Promise<boolean> {
    const path = `${this.collection(kind)}/${encodeURIComponent(id)}`;
    let answer = await this.transport.restV2('DELETE', path);
    // A generated request may have locked the pod (RESTV2-ACTION-004): unlock, then delete.
    if (answer.status === 409 && kind === 'pod' && (await this.transport.restV2('PATCH', path, { locked: false })).status === 200) {
      answer = await this.transport.restV2('DELETE', path);
    }
    return answer.status === 204 || answer.status === 404;
  }

  collection(kind: ManagedKind): string {
    return RestV2Management.PATHS[kind];
  }

  get(path: string): Promise<Answer> {
    return this.transport.restV2('GET', path);
  }

  /** The first listed GPU type (with its pool) and data centre, read once. */
  private place(): Promise<{ gpuType: string; pool: string | undefined; dataCenter: string }> {
    this.placement ??= (async () => {
      const gpus = (await this.list('/catalog/gpus', 'gpus')) as { id: string; pool?: string | null }[];
      const gpu = gpus.find((g) => typeof g.pool === 'string') ?? gpus[0];
      const centres = (await this.list('/catalog/datacenters', 'dataCenters')) as { id: string }[];
      if (!gpu || !centres[0]) throw new Error('setup: the REST v2 catalogue lists no GPU type or no data centre');
      return { gpuType: gpu.id, pool: gpu.pool ?? undefined, dataCenter: centres[0].id };
    })();
    return this.placement;
  }

  private async list(path: string, key: string): Promise<unknown[]> {
    const answer = await this.transport.restV2('GET', path);
    const items = (answer.body as Record<string, unknown> | undefined)?.[key];
    if (answer.status !== 200 || !Array.isArray(items)) throw new Error(`setup: GET ${path} answered ${answer.status}`);
    return items;
  }
}

/** REST v1 when the target gives it, else REST v2; undefined when it has neither. */
export function managementOf(transport: Transport): Management | undefined {
  if (transport.target.restUrl !== undefined) return new RestV1Management(transport);
  if (transport.target.restV2Url !== undefined) return new RestV2Management(transport);
  return undefined;
}

/** A registry password no one can guess (the caller registers it as a secret before it is sent). */
export function newPassword(): string {
  return `pw-${randomBytes(12).toString('hex')}`;
}

/** The size of a list answer (a bare array on REST v1, wrapped in an object on REST v2), or its status. */
export function listSize(answer: Answer): number | string {
  if (Array.isArray(answer.body)) return answer.body.length;
  const items = answer.body && typeof answer.body === 'object' ? Object.values(answer.body).find(Array.isArray) : undefined;
  return items ? items.length : `HTTP ${answer.status}`;
}
