// A pod's REST v2 status and allowed actions, derived from the shared (REST v1-shaped) record on the
// mock clock: a created pod is PROVISIONING, then STARTING, then RUNNING; a started or restarted pod
// is STARTING, then RUNNING. REST v1's desiredStatus stays the desired state (RUNNING throughout).
import type { PodRecord } from '../types.js';

/** A new pod is PROVISIONING this long after creation (assumed; the public description gives no figure). */
export const POD_PROVISION_MS = 2_000;
/** Then STARTING this long, also after a start or restart (assumed). */
export const POD_BOOT_MS = 3_000;

export type PodStatusV2 = 'PROVISIONING' | 'STARTING' | 'RUNNING' | 'EXITED' | 'ERROR' | 'TERMINATED';
export type PodActionName = 'start' | 'stop' | 'restart' | 'terminate';

/** The transitions of specs/rest-v2/paths/pods/podAction.yaml, by status. */
const ACTIONS_BY_STATUS: Record<PodStatusV2, readonly PodActionName[]> = {
  RUNNING: ['stop', 'restart', 'terminate'],
  EXITED: ['start', 'terminate'],
  ERROR: ['start', 'terminate'],
  PROVISIONING: ['stop', 'terminate'],
  STARTING: ['stop', 'terminate'],
  TERMINATED: [],
};

/** Actions a lock forbids (the pod "cannot be stopped or terminated", nor restarted, until unlocked). */
const LOCKED_OUT: ReadonlySet<PodActionName> = new Set(['stop', 'restart', 'terminate']);

export interface PodPhase {
  status: PodStatusV2;
  /** When the current boot began (epoch ms); undefined unless desired RUNNING. */
  bootStartedAt?: number;
  /** When the container became (or becomes) RUNNING (epoch ms). */
  runningAt?: number;
}

/** Start of the current boot: lastStartedAt, or the creation time for records without one. */
export function bootStart(pod: PodRecord): { at: number; fresh: boolean } {
  const started = typeof pod.lastStartedAt === 'string' ? Date.parse(pod.lastStartedAt) : Number.NaN;
  const at = Number.isFinite(started) ? started : pod.createdAt;
  return { at, fresh: at === pod.createdAt };
}

/** Time from the start of a boot to RUNNING: a fresh pod provisions first. */
export const bootDurationMs = (fresh: boolean): number => (fresh ? POD_PROVISION_MS + POD_BOOT_MS : POD_BOOT_MS);

export function podPhase(pod: PodRecord, now: number): PodPhase {
  if (pod.desiredStatus === 'EXITED') return { status: 'EXITED' };
  if (pod.desiredStatus === 'TERMINATED') return { status: 'TERMINATED' };
  const { at, fresh } = bootStart(pod);
  const runningAt = at + bootDurationMs(fresh);
  const status: PodStatusV2 = now >= runningAt ? 'RUNNING' : fresh && now < at + POD_PROVISION_MS ? 'PROVISIONING' : 'STARTING';
  return { status, bootStartedAt: at, runningAt };
}

export const isClusterMember = (pod: PodRecord): boolean => typeof pod['clusterId'] === 'string';

/** The pod's `actions`: the status's transitions, less what a lock or cluster membership forbids. */
export function allowedActions(pod: PodRecord, status: PodStatusV2): PodActionName[] {
  return ACTIONS_BY_STATUS[status].filter((a) => !(pod['locked'] === true && LOCKED_OUT.has(a)) && !(a === 'terminate' && isClusterMember(pod)));
}

/** Why `action` is refused now (409 detail), or undefined when it is allowed. */
export function actionRefusal(pod: PodRecord, status: PodStatusV2, action: PodActionName): string | undefined {
  if (allowedActions(pod, status).includes(action)) return undefined;
  if (action === 'terminate' && isClusterMember(pod)) return `pod ${pod.id} belongs to cluster ${String(pod['clusterId'])}; delete the cluster instead`;
  if (pod['locked'] === true && LOCKED_OUT.has(action) && ACTIONS_BY_STATUS[status].includes(action)) {
    return `pod ${pod.id} is locked; unlock it (PATCH {"locked": false}) before ${action}`;
  }
  const allowed = allowedActions(pod, status);
  return `action '${action}' is not allowed while the pod is ${status} (allowed: ${allowed.length > 0 ? allowed.join(', ') : 'none'})`;
}
