// REST v2 pods over the shared store (one pod, same id, through REST v1 and v2): list (cluster members
// only with includeClusterPods=true), create, get, update, delete, and the /action state machine.
import type { MockCore } from '../core.js';
import type { PodRecord } from '../types.js';
import { mapInSlices, whenReady } from '../turns.js';
import { isRefusal, createPodFields, updatePodFields, type Refusal } from './pod-input.js';
import { actionRefusal, isClusterMember, podPhase, type PodActionName } from './pod-status.js';
import { renderPodV2 } from './pod-view.js';
import { problem, problemFromFailure } from './problem.js';
import type { Body } from './shared.js';
import { json, noContent, type V2Handler, type V2Reply } from './types.js';

const refusalReply = (r: Refusal): V2Reply => problem(r.status, r.detail, r.errors);
const podNotFound = (id: string): V2Reply => problem(404, `pod ${id} not found`);
const clusterConflict = (pod: PodRecord, what: string): V2Reply =>
  problem(409, `pod ${pod.id} belongs to cluster ${String(pod['clusterId'])}; ${what} it through /v2/clusters/${String(pod['clusterId'])}`);

/** Store refusals name REST v1 fields; a missing reference is a 404 of REST v2. */
function storeFailure(failure: Parameters<typeof problemFromFailure>[0]): V2Reply {
  return problemFromFailure(failure, failure.unknownReference ? 404 : failure.status);
}

const listPods: V2Handler = (core, { query }) => {
  const withClusters = query['includeClusterPods'] === 'true' || query['includeClusterPods'] === true;
  // Built a slice per turn (turns.ts): an account has no maximum size.
  return whenReady(mapInSlices([...core.store.pods.values()].filter((p) => withClusters || !isClusterMember(p)), (p) => renderPodV2(core, p)), (pods) => json(200, { pods }));
};

const createPod: V2Handler = (core, { body }) => {
  const fields = createPodFields(core, body as Body);
  if (isRefusal(fields)) return refusalReply(fields);
  const result = core.store.createPod(fields);
  return result.ok ? json(201, renderPodV2(core, result.value)) : storeFailure(result);
};

const updatePod: V2Handler = (core, { params, body }) => {
  const pod = core.store.pods.get(params['id']!);
  if (!pod) return podNotFound(params['id']!);
  if (isClusterMember(pod)) return clusterConflict(pod, 'manage');
  const fields = updatePodFields(core, pod, body as Body);
  if (isRefusal(fields)) return refusalReply(fields);
  const result = core.store.updatePod(pod.id, fields);
  return result.ok ? json(200, renderPodV2(core, result.value)) : storeFailure(result);
};

/** deletePod and the terminate action: refused for cluster members and locked pods (409). */
function terminate(core: MockCore, pod: PodRecord): V2Reply {
  if (isClusterMember(pod)) return clusterConflict(pod, 'delete');
  if (pod['locked'] === true) return problem(409, `pod ${pod.id} is locked; unlock it (PATCH {"locked": false}) before terminating it`);
  const result = core.store.deletePod(pod.id);
  return result.ok ? noContent() : storeFailure(result);
}

const STORE_ACTION = { start: 'start', stop: 'stop', restart: 'restart' } as const;

const podAction: V2Handler = (core, { params, body }) => {
  const pod = core.store.pods.get(params['id']!);
  if (!pod) return podNotFound(params['id']!);
  const action = (body as { action: string }).action;
  // Fault rest-v2-reset-accepted: the retired REST v1 reset answered like an action.
  if (action === 'reset' && core.options.faults.has('rest-v2-reset-accepted')) {
    const reset = core.store.setPodStatus(pod.id, 'reset');
    return reset.ok ? json(200, renderPodV2(core, reset.value)) : storeFailure(reset);
  }
  const name = action as PodActionName;
  const refused = actionRefusal(pod, podPhase(pod, core.clock.now()).status, name);
  if (refused) return problem(409, refused);
  if (name === 'terminate') return terminate(core, pod);
  const result = core.store.setPodStatus(pod.id, STORE_ACTION[name]);
  return result.ok ? json(200, renderPodV2(core, result.value)) : storeFailure(result);
};

export const podHandlers: Record<string, V2Handler> = {
  listPods,
  createPod,
  getPod: (core, { params }) => {
    const pod = core.store.pods.get(params['id']!);
    return pod ? json(200, renderPodV2(core, pod)) : podNotFound(params['id']!);
  },
  updatePod,
  deletePod: (core, { params }) => {
    const pod = core.store.pods.get(params['id']!);
    return pod ? terminate(core, pod) : podNotFound(params['id']!);
  },
  podAction,
};
