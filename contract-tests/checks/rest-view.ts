// The REST view of an object a rule judges through another surface (GraphQL, queue v2): REST v1 when the
// target gives it (the seed's service), else REST v2 (the service today, REST v1 retired). The two name the
// same stored object with the migration map's field names; these reads bring them to one shape.
import type { Ctx } from '../../src/conform/context.js';
import { CheckFailure, type Answer } from '../../src/conform/http.js';
import type { Need } from '../../src/conform/needs.js';

export type RestSurface = 'restV1' | 'restV2';

/** What a check reading back through REST declares: REST v1 when given and working, else REST v2. */
export const REST_VIEW: Need[] = ['rest'];

/** The REST surface objects are read back through (the seam's choice: REST v1 when given and working, else REST v2). */
export function restSurfaceOf(ctx: Ctx): RestSurface {
  return ctx.restSurface();
}

/** How each surface calls a kind's list and single read, and where a v2 list keeps its items. */
const OPERATIONS = {
  template: { restV1: ['listTemplates', 'getTemplate', 'templateId'], restV2: ['listTemplates', 'getTemplate', 'templates'] },
  pod: { restV1: ['listPods', 'getPod', 'podId'], restV2: ['listPods', 'getPod', 'pods'] },
  endpoint: { restV1: ['listEndpoints', 'getEndpoint', 'endpointId'], restV2: ['listEndpoints', 'getEndpoint', 'endpoints'] },
  registryAuth: { restV1: ['listContainerRegistryAuths', 'getContainerRegistryAuth', 'containerRegistryAuthId'], restV2: ['listRegistries', 'getRegistry', 'registries'] },
  networkVolume: { restV1: ['listNetworkVolumes', 'getNetworkVolume', 'networkVolumeId'], restV2: ['listNetworkVolumes', 'getNetworkVolume', 'networkVolumes'] },
} as const;

export type ViewKind = keyof typeof OPERATIONS;

/** One object as either REST surface shows it, in REST v1's names (image: imageName / image). */
export interface RestObject {
  /** HTTP status of the read. */
  status: number;
  surface: RestSurface;
  id?: string;
  name?: string;
  image?: string;
  /** Pods and endpoints: the template they run (REST v1 templateId; REST v2 template, else templateId). */
  templateId?: string | null;
  /** Pods: the state asked for (REST v1 desiredStatus; REST v2 status, RUNNING while it comes up). */
  state?: string;
  /** The answer's body as the surface sent it. */
  body: any;
}

/** REST v2 statuses of a pod on its way to RUNNING: REST v1's desiredStatus is RUNNING for them already. */
const COMING_UP: ReadonlySet<unknown> = new Set(['PROVISIONING', 'STARTING', 'RUNNING']);

function viewOf(surface: RestSurface, answer: Answer): RestObject {
  const b = answer.body ?? {};
  const out: RestObject = { status: answer.status, surface, body: b };
  if (typeof b.id === 'string') out.id = b.id;
  if (typeof b.name === 'string') out.name = b.name;
  // REST v1 templates say imageName, REST v1 pods image; REST v2 says image throughout.
  const image = surface === 'restV1' ? b.imageName ?? b.image : b.image;
  if (typeof image === 'string') out.image = image;
  const template = surface === 'restV1' ? b.templateId : b.template ?? b.templateId;
  if (template !== undefined) out.templateId = template;
  const state = surface === 'restV1' ? b.desiredStatus : COMING_UP.has(b.status) ? 'RUNNING' : b.status;
  if (typeof state === 'string') out.state = state;
  return out;
}

/** One object read through the REST surface of the target. */
export async function restRead(ctx: Ctx, kind: ViewKind, id: string): Promise<RestObject> {
  const surface = restSurfaceOf(ctx);
  const [, get, param] = OPERATIONS[kind][surface];
  const answer = surface === 'restV1' ? await ctx.rest(get, { path: { [param]: id } }) : await ctx.v2(get, { path: { id } });
  return viewOf(surface, answer);
}

/** Every object of a kind the REST surface lists (REST v1: a bare array; REST v2: wrapped in an object). */
export async function restList(ctx: Ctx, kind: ViewKind): Promise<RestObject[]> {
  const surface = restSurfaceOf(ctx);
  const [list, , key] = OPERATIONS[kind][surface];
  const answer = surface === 'restV1' ? await ctx.rest(list) : await ctx.v2(list);
  if (answer.status !== 200) return [];
  const items = (surface === 'restV1' ? answer.body : answer.body?.[key]) as unknown[] | undefined;
  return (Array.isArray(items) ? items : []).map((item) => viewOf(surface, { ...answer, body: item }));
}

/** Deletes one object through the REST surface; the answer's status. */
export async function restDelete(ctx: Ctx, kind: ViewKind, id: string): Promise<number> {
  const surface = restSurfaceOf(ctx);
  const del = { template: ['deleteTemplate', 'deleteTemplate'], pod: ['deletePod', 'deletePod'], endpoint: ['deleteEndpoint', 'deleteEndpoint'],
    registryAuth: ['deleteContainerRegistryAuth', 'deleteRegistry'], networkVolume: ['deleteNetworkVolume', 'deleteNetworkVolume'] }[kind];
  const param = OPERATIONS[kind].restV1[2];
  const answer = surface === 'restV1' ? await ctx.rest(del[0]!, { path: { [param]: id } }) : await ctx.v2(del[1]!, { path: { id } });
  return answer.status;
}

/** Runs `refused` and fails when any object of the account appeared meanwhile, as REST lists them. */
export async function restStoresNothing(ctx: Ctx, what: string, refused: () => Promise<void>): Promise<void> {
  const kinds = Object.keys(OPERATIONS) as ViewKind[];
  const snapshot = async () => new Set((await Promise.all(kinds.map(async (k) => (await restList(ctx, k)).map((o) => `${k}:${o.id}`)))).flat());
  const before = await snapshot();
  await refused();
  const added = [...(await snapshot())].filter((id) => !before.has(id));
  if (added.length > 0) throw new CheckFailure(`${what} stored something: ${added.join(', ')}`);
}

/** How many templates of the account carry `name` (a refused save stores none; names are unique). */
export async function templatesNamed(ctx: Ctx, name: string): Promise<number> {
  return (await restList(ctx, 'template')).filter((t) => t.name === name).length;
}
