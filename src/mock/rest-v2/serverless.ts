// REST v2 serverless endpoints (/v2/serverless) over the shared store and job engine: an endpoint of
// any surface is read here with the same id, and one created here runs jobs on queue v2.
// Container settings (image, args, disk, ports, env, registry) live in a template: an endpoint created
// from `templateId` alone uses that template; container settings in the body (with or without a
// templateId) give the endpoint a template of its own, bound to it (`boundEndpointId`), which a
// container change replaces (one release per change) and deleteEndpoint deletes with the endpoint.
import type { MockCore } from '../core.js';
import { resourceId } from '../state/ids.js';
import { mapInSlices, whenReady } from '../turns.js';
import type { EndpointRecord, TemplateRecord } from '../types.js';
import {
  DEFAULT_CPU_FLAVOR, V2_ENDPOINT_DEFAULTS, cpuFields, gpuFields, isRefusal, renderEndpointV2, settingFields, workersRefusal, type Refusal,
} from './endpoint-shape.js';
import { DEFAULT_GPU_TYPE, gpuType } from './catalog-data.js';
import { endpointWorkerHandlers } from './endpoint-workers.js';
import { problem, problemFromFailure } from './problem.js';
import { renameErrorPaths, wordsFromArgs, type Body } from './shared.js';
import { json, noContent, type V2Handler, type V2Reply } from './types.js';

const CONTAINER_FIELDS = ['image', 'args', 'disk', 'ports', 'env', 'registry'] as const;
const TEMPLATE_ERROR_PATHS: Record<string, string> = {
  '/body/imageName': '/body/image', '/body/containerDiskInGb': '/body/disk', '/body/containerRegistryAuthId': '/body/registry', '/body/name': '/body/name',
};
const hasContainer = (b: Body): boolean => CONTAINER_FIELDS.some((f) => b[f] !== undefined);

/** 404 for a referenced template, network volume or registry credential that does not exist (createEndpoint's documented answer). */
function missingReference(core: MockCore, b: Body): Refusal | undefined {
  const templateId = b['templateId'];
  if (typeof templateId === 'string' && !core.store.templates.has(templateId)) return problem(404, `template ${templateId} does not exist`, ['/body/templateId: no such template']);
  const volumes = Array.isArray(b['networkVolumes']) ? (b['networkVolumes'] as string[]) : [];
  const bad = volumes.findIndex((v) => !core.store.networkVolumes.has(v));
  if (bad >= 0) return problem(404, `network volume ${volumes[bad]} does not exist`, [`/body/networkVolumes/${bad}: no such network volume`]);
  const registry = b['registry'];
  if (typeof registry === 'string' && !core.store.registryAuths.has(registry)) {
    return problem(404, `registry credential ${registry} does not exist`, ['/body/registry: no such registry credential']);
  }
  return undefined;
}

/** A template bound to one endpoint: `base`'s container settings with the body's on top. */
function createBoundTemplate(core: MockCore, endpointName: string, base: TemplateRecord | undefined, b: Body): TemplateRecord | Refusal {
  const fields: Body = {
    imageName: b['image'] ?? base?.imageName,
    dockerStartCmd: typeof b['args'] === 'string' ? wordsFromArgs(b['args']) : base?.['dockerStartCmd'] ?? [],
    containerDiskInGb: b['disk'] ?? base?.['containerDiskInGb'] ?? 50,
    ports: b['ports'] ?? base?.['ports'] ?? [],
    env: b['env'] ?? base?.['env'] ?? {},
    isServerless: true,
    volumeInGb: 0,
  };
  const registry = b['registry'] === undefined ? base?.['containerRegistryAuthId'] : b['registry'];
  if (typeof registry === 'string' && registry !== '') fields['containerRegistryAuthId'] = registry;
  if (base?.['category'] !== undefined) fields['category'] = base['category'];
  // Names are unique per account: the endpoint's name plus a random suffix.
  const result = core.store.saveTemplate({ ...fields, name: `${endpointName.slice(0, 160)} · ${resourceId().slice(0, 8)}`, createdThrough: 'restV2' });
  if (!result.ok) return problemFromFailure(renameErrorPaths(result, TEMPLATE_ERROR_PATHS), result.status === 400 ? 422 : result.status);
  return result.value;
}

/** Deletes the endpoint's own template once nothing uses it (its delete delay does not apply: nobody else could have). */
function dropBoundTemplate(core: MockCore, templateId: string, endpointId: string): void {
  const t = core.store.templates.get(templateId);
  if (t && t['boundEndpointId'] === endpointId && core.store.templateUsers(templateId).length === 0) core.store.templates.delete(templateId);
}

/** Compute of a create that names only a template: its category decides (CPU → cpu3c, else the default GPU's pool). */
function templateCompute(core: MockCore, templateId: string): Body | Refusal {
  const template = core.store.templates.get(templateId);
  if (template?.['category'] === 'CPU') return cpuFields([{ id: DEFAULT_CPU_FLAVOR, vcpuCount: 2 }]);
  return gpuFields({ pools: [gpuType(DEFAULT_GPU_TYPE)!.pool] });
}

function computeFields(core: MockCore, b: Body, current?: EndpointRecord): Body | Refusal {
  const gpu = b['gpu'] as Body | undefined;
  const cpu = b['cpu'] as { id: string; vcpuCount: number }[] | undefined;
  if (gpu !== undefined && cpu !== undefined) return problem(400, 'send gpu or cpu, not both', ['/body/cpu: not together with gpu']);
  if (!current && gpu === undefined && cpu === undefined) {
    if (typeof b['templateId'] === 'string') return templateCompute(core, b['templateId']);
    return problem(400, 'send exactly one of gpu or cpu (or a templateId)', ['/body/gpu: gpu or cpu is required without templateId']);
  }
  if (current) {
    // The compute family is fixed at creation.
    const isCpu = current['computeType'] === 'CPU';
    if (gpu !== undefined && isCpu) return problem(400, 'this endpoint runs on CPUs; gpu cannot be set', ['/body/gpu: the endpoint is a CPU endpoint']);
    if (cpu !== undefined && !isCpu) return problem(400, 'this endpoint runs on GPUs; cpu cannot be set', ['/body/cpu: the endpoint is a GPU endpoint']);
  }
  if (gpu !== undefined) return gpuFields(gpu, current);
  if (cpu !== undefined) return cpuFields(cpu);
  return {};
}

/** Every check of a create/update that stores nothing yet; the stored fields when all pass. */
function endpointFields(core: MockCore, b: Body, current?: EndpointRecord): Body | Refusal {
  const compute = computeFields(core, b, current);
  if (isRefusal(compute)) return compute;
  const settings = settingFields(b);
  if (isRefusal(settings)) return settings;
  const fields = { ...compute, ...settings };
  const min = (fields['workersMin'] ?? current?.['workersMin'] ?? V2_ENDPOINT_DEFAULTS.workersMin) as number;
  const max = (fields['workersMax'] ?? current?.['workersMax'] ?? V2_ENDPOINT_DEFAULTS.workersMax) as number;
  const workers = workersRefusal(min, max);
  if (workers) return workers;
  const type = current ? current['endpointType'] : b['type'];
  if (type === 'LOAD_BALANCER' && fields['scalerType'] === 'QUEUE_DELAY') {
    return problem(400, 'a LOAD_BALANCER endpoint scales by REQUEST_COUNT', ['/body/scaling/type: must be REQUEST_COUNT for a LOAD_BALANCER endpoint']);
  }
  return missingReference(core, b) ?? fields;
}

const createEndpoint: V2Handler = (core, { body }) => {
  const b = body as Body;
  const fields = endpointFields(core, b);
  if (isRefusal(fields)) return fields;
  const base = typeof b['templateId'] === 'string' ? core.store.templates.get(b['templateId']) : undefined;
  const bound = hasContainer(b) ? createBoundTemplate(core, String(b['name']), base, b) : undefined;
  if (isRefusal(bound)) return bound;
  const result = core.store.createEndpoint({
    ...V2_ENDPOINT_DEFAULTS, flashboot: false, flashbootMode: 'OFF', ...fields,
    endpointType: b['type'], templateId: bound?.id ?? base!.id, createdThrough: 'restV2',
  });
  if (!result.ok) {
    if (bound) core.store.templates.delete(bound.id);
    return problemFromFailure(result);
  }
  if (bound) bound['boundEndpointId'] = result.value.id;
  core.engine.ensureEndpoint(result.value.id);
  return json(201, renderEndpointV2(core, result.value));
};

const updateEndpoint: V2Handler = (core, { params, body }) => {
  const b = body as Body;
  const current = core.store.endpoints.get(params['id']!);
  if (!current) return problem(404, 'endpoint not found');
  const fields = endpointFields(core, b, current);
  if (isRefusal(fields)) return fields;
  const previousTemplate = current.templateId;
  const base = core.store.templates.get(typeof b['templateId'] === 'string' ? b['templateId'] : previousTemplate);
  if (typeof b['templateId'] === 'string') fields['templateId'] = b['templateId'];
  // A container change gets a template of its own, so the whole change is one release.
  const bound = hasContainer(b) ? createBoundTemplate(core, current.name, base, b) : undefined;
  if (isRefusal(bound)) return bound;
  if (bound) {
    bound['boundEndpointId'] = current.id;
    fields['templateId'] = bound.id;
  }
  const result = core.store.updateEndpoint(current.id, fields);
  if (!result.ok) {
    if (bound) core.store.templates.delete(bound.id);
    return problemFromFailure(result);
  }
  if (result.value.templateId !== previousTemplate) dropBoundTemplate(core, previousTemplate, current.id);
  core.engine.reconfigure(current.id);
  return json(200, renderEndpointV2(core, result.value));
};

function deleteEndpoint(core: MockCore, id: string): V2Reply {
  const result = core.store.deleteEndpoint(id);
  if (!result.ok) return problem(404, 'endpoint not found');
  // Like REST v1: the endpoint's jobs, workers and rate windows go with it; v2 also deletes its own template.
  core.engine.removeEndpoint(id);
  core.rateLimiter.forget(`${id}:`);
  dropBoundTemplate(core, result.value.templateId, id);
  return noContent();
}

export const serverlessHandlers: Record<string, V2Handler> = {
  // Built a slice per turn (turns.ts): an account has no maximum size.
  listEndpoints: (core) => whenReady(mapInSlices([...core.store.endpoints.values()], (e) => renderEndpointV2(core, e)), (endpoints) => json(200, { endpoints })),
  createEndpoint,
  getEndpoint: (core, { params }) => {
    const endpoint = core.store.endpoints.get(params['id']!);
    return endpoint ? json(200, renderEndpointV2(core, endpoint)) : problem(404, 'endpoint not found');
  },
  updateEndpoint,
  deleteEndpoint: (core, { params }) => deleteEndpoint(core, params['id']!),
  ...endpointWorkerHandlers,
};
