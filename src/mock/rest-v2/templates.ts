// REST v2 templates over the shared store: renames follow specs/migration/rest-v1-to-v2.yaml
// (imageName → image, containerDiskInGb → disk, isPublic → public, containerRegistryAuthId → registry,
// dockerStartCmd → args, volumeInGb/volumeMountPath → mounts.persistent). v2-only fields are stored beside.
import type { MockCore } from '../core.js';
import type { Failure } from '../state/store.js';
import { mapInSlices, whenReady } from '../turns.js';
import type { TemplateRecord } from '../types.js';
import { problem } from './problem.js';
import { argsFromWords, copyPresent, fromResult, renameErrorPaths, wordsFromArgs, type Body } from './shared.js';
import { json, noContent, type V2Handler, type V2Reply } from './types.js';

/** Smallest persistent mount REST v2 reports ("upstream enforces a 10 GB floor"); smaller v1 volumes show at the floor. */
export const PERSISTENT_MOUNT_FLOOR_GB = 10;

const RENAMES = { name: 'name', image: 'imageName', disk: 'containerDiskInGb', ports: 'ports', env: 'env', registry: 'containerRegistryAuthId', serverless: 'isServerless', public: 'isPublic', category: 'category', startSsh: 'startSsh', startJupyter: 'startJupyter', allowedCudaVersions: 'allowedCudaVersions' };
const ERROR_PATHS: Record<string, string> = { '/body/imageName': '/body/image', '/body/containerRegistryAuthId': '/body/registry', '/body/containerDiskInGb': '/body/disk' };

const rendered = new WeakMap<TemplateRecord, Record<string, unknown>>();
/**
 * The REST v2 view of a stored template, cached per record object: the store replaces a template record
 * on every change (create, update, GraphQL save), so an unchanged record renders the same. Lists of
 * 1,000 templates stay within the REST v1 list cost (npm run bench:rest-v2).
 */
export function renderTemplateV2(t: TemplateRecord): Record<string, unknown> {
  let view = rendered.get(t);
  if (view === undefined) rendered.set(t, (view = viewOf(t)));
  return view;
}

function viewOf(t: TemplateRecord): Record<string, unknown> {
  const volume = typeof t['volumeInGb'] === 'number' ? t['volumeInGb'] : 0;
  const registry = t['containerRegistryAuthId'];
  return {
    id: t.id,
    name: t.name,
    image: t.imageName,
    args: argsFromWords(t['dockerStartCmd']),
    disk: (t['containerDiskInGb'] as number | undefined) ?? 50,
    mounts: volume > 0 ? { persistent: { size: Math.max(PERSISTENT_MOUNT_FLOOR_GB, volume), path: (t['volumeMountPath'] as string | undefined) ?? '/workspace' } } : {},
    ports: (t['ports'] as string[] | undefined) ?? [],
    env: (t['env'] as Record<string, string> | undefined) ?? {},
    registry: typeof registry === 'string' && registry !== '' ? registry : null,
    serverless: t['isServerless'] === true,
    public: t['isPublic'] === true,
    category: (t['category'] as string | undefined) ?? 'NVIDIA',
    startSsh: t['startSsh'] !== false,
    startJupyter: t['startJupyter'] !== false,
    allowedCudaVersions: (t['allowedCudaVersions'] as string[] | undefined) ?? [],
  };
}

/** A REST v2 create/update body in the stored (REST v1) shape. */
function storeFields(body: Body): Body | Failure {
  const out: Body = {};
  copyPresent(body, out, RENAMES);
  if (typeof body['args'] === 'string') out['dockerStartCmd'] = wordsFromArgs(body['args']);
  const mounts = body['mounts'] as { persistent?: { size: number; path: string }; network?: unknown } | undefined;
  if (mounts?.network !== undefined) {
    return { ok: false, status: 400, message: 'a template takes no network mount', errors: [{ path: '/body/mounts/network', message: 'not accepted on templates' }] };
  }
  if (mounts?.persistent) {
    out['volumeInGb'] = mounts.persistent.size;
    out['volumeMountPath'] = mounts.persistent.path;
  }
  return out;
}

const isFailure = (v: Body | Failure): v is Failure => (v as Failure).ok === false;
const refusal = (f: Failure): number => (f.unknownReference ? 422 : f.status);

// Built a slice per turn (turns.ts): an account has no maximum size.
const listTemplates: V2Handler = (core) => whenReady(
  mapInSlices([...core.store.templates.values()].filter((t) => !core.options.faults.has('rest-v2-v1-template-invisible') || t['createdThrough'] === 'restV2'), renderTemplateV2),
  (templates) => json(200, core.options.faults.has('rest-v2-list-not-wrapped') ? templates : { templates }),
);

const createTemplate: V2Handler = (core, { body }) => {
  const fields = storeFields(body as Body);
  if (isFailure(fields)) return problem(422, fields.message, [`${fields.errors![0]!.path}: ${fields.errors![0]!.message}`]);
  // REST v2 documents no mount default: without `mounts` the template has no volume (RESTV2-CROSS-005),
  // not REST v1's 20 GB at /workspace (the store's REST v1 default; fault rest-v2-template-volume-default).
  if (fields['volumeInGb'] === undefined && !core.options.faults.has('rest-v2-template-volume-default')) fields['volumeInGb'] = 0;
  const result = core.store.saveTemplate({ ...fields, createdThrough: 'restV2' });
  return fromResult(result.ok ? result : renameErrorPaths(result, ERROR_PATHS), 201, renderTemplateV2, refusal);
};

function getTemplate(core: MockCore, id: string): V2Reply {
  const t = core.store.templates.get(id);
  if (!t || (core.options.faults.has('rest-v2-v1-template-invisible') && t['createdThrough'] !== 'restV2')) return problem(404, 'template not found');
  return json(200, renderTemplateV2(t));
}

const updateTemplate: V2Handler = (core, { params, body }) => {
  const fields = storeFields(body as Body);
  if (isFailure(fields)) return problem(422, fields.message, [`${fields.errors![0]!.path}: ${fields.errors![0]!.message}`]);
  const result = core.store.updateTemplate(params['id']!, fields);
  return fromResult(result.ok ? result : renameErrorPaths(result, ERROR_PATHS), 200, renderTemplateV2, refusal);
};

export const templateHandlers: Record<string, V2Handler> = {
  listTemplates,
  createTemplate,
  getTemplate: (core, { params }) => getTemplate(core, params['id']!),
  updateTemplate,
  deleteTemplate: (core, { params }) => {
    const result = core.store.deleteTemplate(params['id']!);
    return result.ok ? noContent() : problem(result.status, result.message);
  },
};
