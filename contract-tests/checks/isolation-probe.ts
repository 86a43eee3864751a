// What the ISOLATION-* run records per operation (a probe), and the helpers both of its halves use
// (isolation-world.ts: the operation tables; isolation-graphql.ts: the SDL).
import { randomBytes } from 'node:crypto';
import type { OperationModel } from '../../src/agreement/spec-model.js';
import type { Answer } from '../../src/agreement/transport.js';

/** Operations probed at once: each probe's own steps stay in order (A's read, B's request, A's read, B's absent twin). */
export const PROBES_AT_ONCE = 6;

/** What B's request does to A's object. */
export type ProbeKind = 'read' | 'write' | 'job' | 'ref';

export interface Probe {
  kind: ProbeKind;
  surface: OperationModel['surface'];
  operationId: string;
  /** "restV1 PATCH /pods/{podId}" */
  label: string;
  /** B's answer naming A's objects, and naming ids that never existed; a string: no answer. */
  foreign: Answer | string;
  absent: Answer | string;
  /** The ids of A the request named, with their never-existing twins. */
  twins: [owner: string, absent: string][];
  /** GraphQL: the root field (success = data for it and no errors). */
  rootField?: string;
  /** What of A's changed after B's request (A's re-read before vs after); undefined: unchanged or not readable. */
  changed?: string;
}

/**
 * What the clock changes on its own (status, runtime, cost…; REST v2's pod `ssh` follows the status, null
 * until the pod runs), left out when A's object is read back and compared.
 */
export const MOVING: ReadonlySet<string> = new Set([
  'status', 'desiredStatus', 'actions', 'runtime', 'startedAt', 'lastStartedAt', 'cost', 'uptimeSeconds', 'uptimeInSeconds', 'costPerHr',
  'lastStatusChange', 'workers', 'byStatus', 'sshEndpoint', 'publicIp', 'portMappings', 'ssh',
]);

/** A JSON text of `body` without what the clock moves. */
export function stable(body: unknown): string {
  return JSON.stringify(body, (key, value) => (MOVING.has(key) ? undefined : value)) ?? '';
}

/** An id that never existed, of the same length and character classes as `id`. */
export function twinOf(id: string): string {
  const bytes = randomBytes(id.length);
  let out = '';
  for (let i = 0; i < id.length; i++) {
    const ch = id[i]!;
    const b = bytes[i]!;
    if (/[0-9]/.test(ch)) out += String(b % 10);
    else if (/[a-z]/.test(ch)) out += String.fromCharCode(97 + (b % 26));
    else if (/[A-Z]/.test(ch)) out += String.fromCharCode(65 + (b % 26));
    else out += ch;
  }
  return out === id ? twinOf(id) : out;
}

/** Runs `fn` over `items`, at most `size` at once, results in the items' order. */
export async function inPool<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return out;
}
