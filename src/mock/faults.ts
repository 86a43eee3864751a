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

/**
 * The rules that must catch each fault, as data: test/conform/faults.test.ts runs exactly these
 * rules with the fault (every one must fail) and without it (every one must pass), so a fault whose
 * rules stop catching it fails `npm test`. Adding a fault to FAULT_NAMES (options.ts) means adding
 * its line here: run `compute-contract conform --fault NAME` and list the rules that fail because of
 * the fault by design (not ones that fail by accident, e.g. from a quota exhausted earlier in the run).
 * The whole suite per fault (the mutation score) is `compute-contract conform --prove` and
 * `npm run bench:conform`; bench:conform also lists rules that catch a fault without being listed.
 */
export const FAULT_CATCHERS: { readonly [fault in FaultName]: readonly string[] } = {
  'ttl-min-off-by-one': ['QUEUE-TTL-001'],
  'no-401-on-bad-key': ['AUTH-002', 'AUTH-004', 'GQL-AUTH-002', 'RESTV2-AUTH-001'],
  'status-after-ttl-200': ['QUEUE-TTL-003', 'QUEUE-TTL-004', 'QUEUE-TTL-005', 'QUEUE-TTL-006'],
  'retry-new-id': ['QUEUE-EXEC-004', 'QUEUE-RETRY-001', 'QUEUE-RETRY-002', 'QUEUE-HEALTH-002'],
  'purge-removes-running': ['QUEUE-PURGE-002', 'QUEUE-RATE-013'],
  'no-webhook-retry': ['WEBHOOK-005'],
  'no-429': ['QUEUE-RATE-002', 'QUEUE-RATE-006', 'QUEUE-RATE-010', 'QUEUE-RATE-012', 'RATE-429-001', 'CLIENT-RETRY-001', 'RESTV2-RATE-002'],
  'password-echoed': ['REST-CRUD-005', 'REST-REGAUTH-001', 'REST-REGAUTH-003', 'REST-REGAUTH-004', 'REST-REGAUTH-005', 'RESTV2-REGISTRY-003'],
  'retention-too-short': ['QUEUE-RETENTION-001', 'QUEUE-RETENTION-002', 'QUEUE-RETENTION-003'],
  'template-delete-in-use': ['REST-TEMPLATE-008', 'GQL-TEMPLATE-011'],
  'bodyless-rejects-empty-object': ['HTTP-BODY-001'],
  'workers-unbounded': ['REST-BOUNDS-001'],
  'stopped-pod-restart-refused': ['REST-POD-007', 'REST-POD-008'],
  'no-allow-header': ['HTTP-ALLOW-001'],
  'graphql-redacts-names': ['GQL-ERROR-002'],
  'rest-v2-list-not-wrapped': ['RESTV2-LIST-001', 'RESTV2-TEMPLATE-002', 'RESTV2-CATALOG-005', 'RESTV2-CROSS-001'],
  'rest-v2-error-not-problem': ['RESTV2-AUTH-001', 'RESTV2-ERROR-001', 'RESTV2-ERROR-002', 'RESTV2-ERROR-003', 'RESTV2-HTTP-001'],
  'rest-v2-429-without-retry-after': ['RESTV2-RATE-002'],
  'rest-v2-reset-accepted': ['RESTV2-ACTION-003'],
  'rest-v2-v1-template-invisible': ['RESTV2-CROSS-001', 'RESTV2-CROSS-002'],
  'rest-v2-pod-template-dropped': ['RESTV2-CROSS-004'],
  'rest-v2-template-volume-default': ['RESTV2-CROSS-005'],
  'rest-v1-pod-memory-constant': ['RESTV2-CROSS-006'],
  'graphql-sdk-bounds-unchecked': ['GQL-SDK-INPUT-001'],
  'graphql-pod-template-dropped': ['GQL-SDK-006'],
  'graphql-public-leaks-account': ['GQL-PUBLIC-002'],
  // Issue 30: GraphQL operation limits (schema description of specs/graphql/schema.graphql).
  'graphql-unbounded': ['GRAPHQL-COST-001', 'GRAPHQL-COST-002', 'GRAPHQL-COST-003', 'GRAPHQL-COST-004', 'GRAPHQL-COST-005', 'GRAPHQL-COST-006', 'GRAPHQL-COST-007', 'GRAPHQL-COST-008'],
  'graphql-limit-after-execution': ['GRAPHQL-COST-007'],
  // Account isolation (isolation-faults.ts). ORACLE judges B's refused requests: under -write and -reference a request
  // reaching A's object is refused for another reason than an absent id's (400 vs 404); a pod B made from A's template
  // carries A's id into B's lists (LIST).
  'cross-account-read': ['ISOLATION-READ-001'],
  'cross-account-write': ['ISOLATION-WRITE-001', 'ISOLATION-ORACLE-001'],
  'cross-account-list': ['ISOLATION-LIST-001'],
  'cross-account-job': ['ISOLATION-JOB-001'],
  'foreign-reference-accepted': ['ISOLATION-REF-001', 'ISOLATION-LIST-001', 'ISOLATION-ORACLE-001'],
  'existence-oracle': ['ISOLATION-ORACLE-001'],
  'shared-rate-window': ['ISOLATION-RATE-001'],
  // Issue 29: /openai/* streamed as RunPod's vLLM workers stream it.
  'openai-stream-no-done': ['QUEUE-OPENAI-002', 'QUEUE-OPENAI-004'],
  'openai-usage-zeroed': ['QUEUE-OPENAI-003'],
  // Issue 28: REST v2 account secrets (src/mock/rest-v2/secrets.ts, state/secrets.ts).
  'secret-value-returned': ['RESTV2-SECRET-001', 'RESTV2-SECRET-002'],
  'secret-name-filter-ignored': ['RESTV2-SECRET-001'],
  'secret-duplicate-name-accepted': ['RESTV2-SECRET-003'],
  'secret-bounds-unchecked': ['RESTV2-SECRET-004'],
  'secret-rotation-ignored': ['RESTV2-SECRET-005', 'RESTV2-SECRET-007'],
  'secret-delete-keeps-record': ['RESTV2-SECRET-006'],
  'rest-v2-graphql-secret-invisible': ['RESTV2-SECRET-007'],
  'secret-count-unbounded': ['RESTV2-SECRET-008'],
  // Issue 28: REST v2 sandboxes.
  'sandbox-created-running': ['RESTV2-SANDBOX-001', 'RESTV2-SANDBOX-005'],
  'sandbox-both-sources-accepted': ['RESTV2-SANDBOX-002'],
  'sandbox-timeouts-unclamped': ['RESTV2-SANDBOX-003'],
  'sandbox-terminate-not-idempotent': ['RESTV2-SANDBOX-004'],
  'sandbox-exec-not-activity': ['RESTV2-SANDBOX-005'],
  'sandbox-label-filter-any': ['RESTV2-SANDBOX-006'],
  'sandbox-exec-after-terminate': ['RESTV2-SANDBOX-007'],
  'sandbox-logs-after-terminate': ['RESTV2-SANDBOX-008'],
  // Issue 21: what only generated requests reach (the REST v2 agreement phase).
  'rest-v2-comma-list-refused': ['AGREE-VALID-001'],
  'rest-v2-undocumented-refusal': ['AGREE-VALID-001'],
  'rest-v2-port-private-null': ['AGREE-VALID-001'],
  'rest-v2-global-networking-unchecked': ['RESTV2-POD-009'],
  // Issue 40: a load-balancing endpoint has no job operations.
  'lb-job-operations-accepted': ['QUEUE-LB-001', 'QUEUE-LB-002'],
  'lb-direct-access-keyless': ['LB-AUTH-001', 'LB-ISOLATION-001'],
  'lb-forward-drops-query': ['LB-FORWARD-001'],
};
