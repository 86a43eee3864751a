// Deliberate deviations behind `--fault NAME` (off by default): each re-creates one way an
// implementation breaks the contract, so the conformance suite's mutation proof has something to catch.
import type { ErrorDetail } from './http.js';
import type { FaultName } from './options.js';
import type { OperationInfo } from './types.js';

type Faults = ReadonlySet<FaultName>;

const TTL_MINIMUM = 10_000;
/** Above the spec's workersMin/workersMax maximum (100): what `workers-unbounded` lets through. */
const WORKER_FIELDS = ['workersMin', 'workersMax'] as const;

/**
 * The body the validator sees. `ttl-min-off-by-one`: a ttl one below the minimum slips through.
 * `workers-unbounded`: worker counts above their maximum slip through (the pool still caps what it spawns).
 */
export function bodyForValidation(faults: Faults, body: unknown): unknown {
  if (faults.size === 0 || body === null || typeof body !== 'object') return body;
  let seen = body as Record<string, unknown>;
  if (faults.has('ttl-min-off-by-one')) {
    const policy = seen['policy'] as { ttl?: unknown } | undefined;
    if (policy?.ttl === TTL_MINIMUM - 1) seen = { ...seen, policy: { ...policy, ttl: TTL_MINIMUM } };
  }
  if (faults.has('workers-unbounded')) {
    for (const field of WORKER_FIELDS) if (typeof seen[field] === 'number') seen = { ...seen, [field]: 0 };
  }
  return seen;
}

/** `bodyless-rejects-empty-object`: an operation without required input refuses `{}` as official SDKs send it. */
export function bodylessRejection(faults: Faults, op: OperationInfo, body: unknown): ErrorDetail[] | undefined {
  if (!faults.has('bodyless-rejects-empty-object') || op.bodyRequired || body === undefined) return undefined;
  return [{ path: '/body', message: 'this operation takes no body' }];
}

/** `no-allow-header`: 405 answers without the `Allow` header RFC 9110 requires. */
export function allowHeaders(faults: Faults, allow: string): Record<string, string> | undefined {
  return faults.has('no-allow-header') ? undefined : { allow };
}

/** `graphql-redacts-names`: every quoted caller string in a GraphQL error becomes '[redacted]'. */
export function graphqlMessage(faults: Faults, message: string): string {
  return faults.has('graphql-redacts-names') ? message.replace(/'[^']*'/g, "'[redacted]'") : message;
}
