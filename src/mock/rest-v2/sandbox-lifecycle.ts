// A sandbox's lifecycle on the mock clock, derived from the facts its record stores (creation, activity,
// an explicit termination): CREATING for SANDBOX_CREATING_MS, then RUNNING; its container accepts
// commands and streams logs SANDBOX_CONTAINER_START_MS later; whichever comes first of the idle deadline
// (last activity + idle timeout, never before a running command ends) and the lifetime deadline
// (creation + max lifetime) terminates it at that instant, unless terminateSandbox did so earlier.
// Nothing is stored when a deadline passes, so a sandbox restored from --state, or read by nobody for
// hours, shows exactly the state it would have had (and no timer has to be kept per sandbox).
import type { MockCore } from '../core.js';
import type { SandboxRecord } from '../types.js';
import { problem } from './problem.js';
import type { V2Reply } from './types.js';

/** CREATING lasts this long (assumed; the real service "usually" answers a create still CREATING). */
export const SANDBOX_CREATING_MS = 5_000;
/** The container starts this long after RUNNING (the pages: typically 10 to 30 s; the mock takes the low end). */
export const SANDBOX_CONTAINER_START_MS = 10_000;
/** Timeouts of the pages (create-a-sandbox, sandboxes overview › Timeouts), in seconds. */
export const IDLE_TIMEOUT = { default: 600, max: 7_200 } as const;
export const MAX_LIFETIME = { default: 3_600, max: 86_400 } as const;
/** Live sandboxes one account may hold (assumed); one more create → 503. */
export const MAX_LIVE_SANDBOXES = 100;
/** Terminated sandboxes one account keeps readable (assumed); older ones are forgotten (then 404). */
export const MAX_KEPT_TERMINATED = 500;

export type SandboxState = 'CREATING' | 'RUNNING' | 'TERMINATED' | 'FAILED';
export type TerminationReason = 'USER_REQUESTED' | 'IDLE_TIMEOUT' | 'MAX_LIFETIME';

export interface SandboxPhase {
  state: SandboxState;
  runningAt: number;
  /** When the container accepts commands and streams logs. */
  readyAt: number;
  idleExpiresAt: number;
  expiresAt: number;
  /** When it ended (or ends, if nothing changes) and why. */
  endsAt: number;
  reason: TerminationReason;
  terminated: boolean;
}

/** Clamps a requested timeout to its maximum (the pages: values above the maximum are clamped, not refused). */
export function clampSeconds(requested: unknown, limits: { default: number; max: number }, unclamped = false): number {
  if (typeof requested !== 'number') return limits.default;
  return unclamped ? requested : Math.min(requested, limits.max);
}

export function sandboxPhase(s: SandboxRecord, now: number): SandboxPhase {
  const runningAt = s.createdAt + SANDBOX_CREATING_MS;
  const idleExpiresAt = Math.max(s.lastActivityAt, s.busyUntil) + s.idleTimeoutSeconds * 1000;
  const expiresAt = s.createdAt + s.maxLifetimeSeconds * 1000;
  let endsAt = Math.min(idleExpiresAt, expiresAt);
  let reason: TerminationReason = expiresAt <= idleExpiresAt ? 'MAX_LIFETIME' : 'IDLE_TIMEOUT';
  if (s.terminatedAt !== null && s.terminatedAt <= endsAt) {
    endsAt = s.terminatedAt;
    reason = (s.terminationReason as TerminationReason | null) ?? 'USER_REQUESTED';
  }
  const terminated = now >= endsAt;
  const state: SandboxState = terminated ? 'TERMINATED' : now >= runningAt ? 'RUNNING' : 'CREATING';
  return { state, runningAt, readyAt: runningAt + SANDBOX_CONTAINER_START_MS, idleExpiresAt, expiresAt, endsAt, reason, terminated };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The REST v2 Sandbox of a record at `now` (specs/rest-v2/components/schemas/sandboxes.yaml). */
export function renderSandbox(s: SandboxRecord, now: number): Record<string, unknown> {
  const p = sandboxPhase(s, now);
  const changes = [s.createdAt, s.lastActivityAt, ...(now >= p.runningAt ? [p.runningAt] : []), ...(p.terminated ? [p.endsAt] : [])];
  return {
    id: s.id,
    name: s.name,
    state: p.state,
    templateId: s.templateId,
    imageName: s.imageName,
    cpuFlavorId: s.cpuFlavorId,
    ...(p.state === 'RUNNING' ? { compute: { vcpuCount: s.vcpuCount, memoryInGb: s.memoryInGb, containerDiskInGb: s.containerDiskInGb, costPerHr: s.costPerHr } } : {}),
    idleTimeoutSeconds: s.idleTimeoutSeconds,
    maxLifetimeSeconds: s.maxLifetimeSeconds,
    lastActivityAt: iso(Math.min(s.lastActivityAt, p.endsAt)),
    idleExpiresAt: iso(p.idleExpiresAt),
    expiresAt: iso(p.expiresAt),
    labels: { ...s.labels },
    terminationReason: p.terminated ? p.reason : null,
    terminatedAt: p.terminated ? iso(p.endsAt) : null,
    createdAt: iso(s.createdAt),
    updatedAt: iso(Math.min(Math.max(...changes), p.terminated ? p.endsAt : Number.POSITIVE_INFINITY)),
  };
}

/** Whether the record matches every filter of listSandboxes (`labels` entries are `key=value`). */
export function matchesFilters(s: SandboxRecord, state: SandboxState, stateFilter: unknown, labels: readonly string[], anyLabel = false): boolean {
  if (stateFilter === undefined ? state === 'TERMINATED' : state !== stateFilter) return false;
  if (labels.length === 0) return true;
  const hit = (entry: string) => {
    const eq = entry.indexOf('=');
    const key = entry.slice(0, eq);
    return Object.hasOwn(s.labels, key) && s.labels[key] === entry.slice(eq + 1);
  };
  // Fault sandbox-label-filter-any: one matching label is enough.
  return anyLabel ? labels.some(hit) : labels.every(hit);
}

/** The caller's sandbox by id, or a 404 (another account's sandbox is not in this store: the same 404). */
export function sandboxOr404(core: MockCore, id: string): SandboxRecord | V2Reply {
  return core.store.sandboxes.get(id) ?? problem(404, `sandbox ${id} not found`);
}

export const isReply = (value: SandboxRecord | V2Reply): value is V2Reply => 'status' in value;
