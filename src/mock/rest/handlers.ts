// REST v1 operation handlers (35 operations, keyed by operationId). Requests arrive validated.
import { error, type Handler, type MockCore, type Reply } from '../core.js';
import { publicTemplate } from '../rest-v2/catalog-data.js';
import { podCpuFlavorId } from '../state/pod-hardware.js';
import { podTemplateId } from '../state/pod-template.js';
import type { Failure, Result } from '../state/store.js';
import type { PodRecord } from '../types.js';
import { mapInSlices, whenReady } from '../turns.js';
import { billingHandlers } from './billing.js';
import { renderEndpoint, renderNetworkVolume, renderPod, renderRegistryAuth, renderTemplate } from './render.js';

type Body = Record<string, unknown>;

const flag = (value: unknown): boolean => value === true || value === 'true';
const fail = (f: Failure): Reply => {
  const reply = error(f.status, f.message, f.errors);
  return f.retryAfterSeconds === undefined ? reply : { ...reply, headers: { 'retry-after': String(f.retryAfterSeconds) } };
};
function reply<T>(result: Result<T>, status: number, render: (value: T) => unknown): Reply {
  return result.ok ? { status, body: render(result.value) } : fail(result);
}
function done<T>(result: Result<T>, status = 204): Reply {
  return result.ok ? { status } : fail(result);
}

function podView(core: MockCore, pod: PodRecord, query: Record<string, unknown>) {
  const extras: Parameters<typeof renderPod>[1] = { userId: core.account };
  const templateId = podTemplateId(pod);
  if (flag(query['includeTemplate']) && templateId) extras.template = core.store.templates.get(templateId) ?? publicTemplate(templateId);
  const volumeId = pod['networkVolumeId'];
  if (flag(query['includeNetworkVolume']) && typeof volumeId === 'string') extras.networkVolume = core.store.networkVolumes.get(volumeId);
  return renderPod(pod, extras, core.options.faults);
}

const POD_FILTERS = ['id', 'name', 'desiredStatus', 'networkVolumeId', 'endpointId', 'computeType'] as const;

function matchesPod(pod: PodRecord, query: Record<string, unknown>): boolean {
  for (const key of POD_FILTERS) {
    const want = query[key];
    if (want !== undefined && pod[key] !== want) return false;
  }
  if (query['imageName'] !== undefined && pod['image'] !== query['imageName']) return false;
  // The stored template and CPU flavour, as rendered (whichever surface created the pod).
  if (query['templateId'] !== undefined && podTemplateId(pod) !== query['templateId']) return false;
  const flavors = query['cpuFlavorId'];
  if (flavors !== undefined && !(Array.isArray(flavors) ? flavors : [flavors]).includes(podCpuFlavorId(pod))) return false;
  const gpu = query['gpuTypeId'];
  if (gpu !== undefined) {
    const wanted = Array.isArray(gpu) ? gpu : [gpu];
    const ids = Array.isArray(pod['gpuTypeIds']) ? (pod['gpuTypeIds'] as string[]) : [];
    if (!ids.some((id) => wanted.includes(id))) return false;
  }
  return true;
}

function endpointView(core: MockCore, id: string, query: Record<string, unknown>) {
  const endpoint = core.store.endpoints.get(id)!;
  const extras: Parameters<typeof renderEndpoint>[1] = {};
  if (flag(query['includeTemplate'])) extras.template = core.store.templates.get(endpoint.templateId);
  if (flag(query['includeWorkers'])) extras.workers = core.engine.workersOf(id);
  return renderEndpoint(endpoint, extras);
}

const updateEndpoint: Handler = (core, { params, body }) => {
  const result = core.store.updateEndpoint(params['endpointId']!, body as Body);
  if (result.ok) core.engine.reconfigure(result.value.id);
  return reply(result, 200, (e) => endpointView(core, e.id, {}));
};
const updatePod: Handler = (core, { params, body, query }) =>
  reply(core.store.updatePod(params['podId']!, body as Body), 200, (p) => podView(core, p, query));
const updateTemplate: Handler = (core, { params, body }) =>
  reply(core.store.updateTemplate(params['templateId']!, body as Body), 200, renderTemplate);
const updateNetworkVolume: Handler = (core, { params, body }) =>
  reply(core.store.updateNetworkVolume(params['networkVolumeId']!, body as Body), 200, renderNetworkVolume);
const podAction = (action: 'start' | 'stop' | 'reset' | 'restart'): Handler => (core, { params }) => {
  const pod = core.store.pods.get(params['podId']!);
  // Fault: the undocumented rule the spec dropped (reset/restart of a stopped pod refused).
  if (pod && pod.desiredStatus !== 'RUNNING' && (action === 'reset' || action === 'restart') && core.options.faults.has('stopped-pod-restart-refused')) {
    return error(400, `pod is ${pod.desiredStatus}; start it first`);
  }
  return done(core.store.setPodStatus(params['podId']!, action), 200);
};

export const restHandlers: Record<string, Handler> = {
  // pods
  // Lists of an account's records are built a slice per turn (turns.ts): an account has no maximum size.
  listPods: (core, { query }) =>
    whenReady(mapInSlices([...core.store.pods.values()].filter((p) => matchesPod(p, query)), (p) => podView(core, p, query)), (body) => ({ status: 200, body })),
  createPod: (core, { body }) => reply(core.store.createPod(body as Body), 201, (p) => podView(core, p, {})),
  getPod: (core, { params, query }) => {
    const pod = core.store.pods.get(params['podId']!);
    return pod ? { status: 200, body: podView(core, pod, query) } : error(404, 'pod not found');
  },
  updatePod,
  updatePodViaPost: updatePod,
  deletePod: (core, { params }) => done(core.store.deletePod(params['podId']!)),
  startPod: podAction('start'),
  stopPod: podAction('stop'),
  resetPod: podAction('reset'),
  restartPod: podAction('restart'),
  // endpoints
  listEndpoints: (core, { query }) =>
    whenReady(mapInSlices([...core.store.endpoints.keys()], (id) => endpointView(core, id, query)), (body) => ({ status: 200, body })),
  createEndpoint: (core, { body }) => {
    const result = core.store.createEndpoint(body as Body);
    if (result.ok) core.engine.ensureEndpoint(result.value.id);
    return reply(result, 200, (e) => endpointView(core, e.id, {}));
  },
  getEndpoint: (core, { params, query }) =>
    core.store.endpoints.has(params['endpointId']!)
      ? { status: 200, body: endpointView(core, params['endpointId']!, query) }
      : error(404, 'endpoint not found'),
  updateEndpoint,
  updateEndpointViaPost: updateEndpoint,
  deleteEndpoint: (core, { params }) => {
    const result = core.store.deleteEndpoint(params['endpointId']!);
    if (result.ok) {
      // Deleting an endpoint removes its configuration, logs and job history.
      core.engine.removeEndpoint(result.value.id);
      core.rateLimiter.forget(`${result.value.id}:`);
    }
    return done(result);
  },
  // templates
  // Templates REST v2 made for one endpoint only with includeEndpointBoundTemplates (the spec's default false).
  listTemplates: (core, { query }) => whenReady(
    mapInSlices([...core.store.templates.values()].filter((t) => flag(query['includeEndpointBoundTemplates']) || t['boundEndpointId'] === undefined), renderTemplate),
    (body) => ({ status: 200, body }),
  ),
  createTemplate: (core, { body }) => reply(core.store.saveTemplate(body as Body), 200, renderTemplate),
  getTemplate: (core, { params }) => {
    const template = core.store.templates.get(params['templateId']!);
    return template ? { status: 200, body: renderTemplate(template) } : error(404, 'template not found');
  },
  updateTemplate,
  updateTemplateViaPost: updateTemplate,
  deleteTemplate: (core, { params }) => done(core.store.deleteTemplate(params['templateId']!)),
  // network volumes
  listNetworkVolumes: (core) => ({ status: 200, body: [...core.store.networkVolumes.values()].map(renderNetworkVolume) }),
  createNetworkVolume: (core, { body }) => reply(core.store.createNetworkVolume(body as Body), 200, renderNetworkVolume),
  getNetworkVolume: (core, { params }) => {
    const volume = core.store.networkVolumes.get(params['networkVolumeId']!);
    return volume ? { status: 200, body: renderNetworkVolume(volume) } : error(404, 'network volume not found');
  },
  updateNetworkVolume,
  updateNetworkVolumeViaPost: updateNetworkVolume,
  deleteNetworkVolume: (core, { params }) => done(core.store.deleteNetworkVolume(params['networkVolumeId']!)),
  // container registry auths
  listContainerRegistryAuths: (core) => ({
    status: 200,
    body: [...core.store.registryAuths.values()].map((a) => renderRegistryAuth(a, core.options.faults.has('password-echoed'))),
  }),
  createContainerRegistryAuth: (core, { body }) =>
    reply(core.store.createRegistryAuth(body as Body), 200, (a) => renderRegistryAuth(a, core.options.faults.has('password-echoed'))),
  getContainerRegistryAuth: (core, { params }) => {
    const auth = core.store.registryAuths.get(params['containerRegistryAuthId']!);
    return auth
      ? { status: 200, body: renderRegistryAuth(auth, core.options.faults.has('password-echoed')) }
      : error(404, 'container registry auth not found');
  },
  deleteContainerRegistryAuth: (core, { params }) => done(core.store.deleteRegistryAuth(params['containerRegistryAuthId']!)),
  ...billingHandlers,
};
