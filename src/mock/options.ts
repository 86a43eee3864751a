// Options of startMock and the CLI, with their defaults.
import { accountNameProblem, DEFAULT_ACCOUNT } from './accounts.js';
import type { ClockMode } from './clock.js';
import { controlTokenProblem, isLoopbackHost, openControlRisk } from './control-access.js';
import { parseCorsOrigin } from './cors.js';
import { MAX_WEBHOOK_ALLOW_ENTRIES, parseWebhookAllow, type AllowEntry } from './jobs/webhook-egress.js';
import { defaultCapacityLimits, type CapacityLimits } from './state/capacity.js';
import { ALL_SCOPES, type Scope } from './types.js';
import type { WorkerDefinition } from './simulated-workers/types.js';
import type { FleetOptions } from './simulated-workers/fleet.js';

export const FAULT_NAMES = [
  'ttl-min-off-by-one',
  'no-401-on-bad-key',
  'status-after-ttl-200',
  'retry-new-id',
  'purge-removes-running',
  'no-webhook-retry',
  'no-429',
  'password-echoed',
  'retention-too-short',
  'template-delete-in-use',
  'bodyless-rejects-empty-object',
  'workers-unbounded',
  'stopped-pod-restart-refused',
  'no-allow-header',
  'graphql-redacts-names',
  'rest-v2-list-not-wrapped',
  'rest-v2-error-not-problem',
  'rest-v2-429-without-retry-after',
  'rest-v2-reset-accepted',
  'rest-v2-v1-template-invisible',
  'rest-v2-pod-template-dropped',
  'rest-v2-template-volume-default',
  'rest-v1-pod-memory-constant',
  'rest-v2-comma-list-refused',
  'rest-v2-undocumented-refusal',
  'rest-v2-port-private-null',
  'rest-v2-global-networking-unchecked',
  'graphql-sdk-bounds-unchecked',
  'graphql-pod-template-dropped',
  'graphql-public-leaks-account',
  'graphql-unbounded',
  'graphql-limit-after-execution',
  // Account isolation (src/mock/isolation-faults.ts).
  'cross-account-read',
  'cross-account-write',
  'cross-account-list',
  'cross-account-job',
  'foreign-reference-accepted',
  'existence-oracle',
  'shared-rate-window',
  'openai-stream-no-done',
  'openai-usage-zeroed',
  'secret-value-returned',
  'secret-name-filter-ignored',
  'secret-duplicate-name-accepted',
  'secret-bounds-unchecked',
  'secret-rotation-ignored',
  'secret-delete-keeps-record',
  'rest-v2-graphql-secret-invisible',
  'secret-count-unbounded',
  // REST v2 sandboxes (src/mock/rest-v2/sandbox*.ts).
  'sandbox-created-running',
  'sandbox-both-sources-accepted',
  'sandbox-timeouts-unclamped',
  'sandbox-terminate-not-idempotent',
  'sandbox-exec-not-activity',
  'sandbox-label-filter-any',
  'sandbox-exec-after-terminate',
  'sandbox-logs-after-terminate',
  // Load-balancing endpoints (src/mock/load-balancing/).
  'lb-job-operations-accepted',
  'lb-direct-access-keyless',
  'lb-forward-drops-query',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

export interface ApiKey {
  key: string;
  scopes: readonly Scope[];
  /** The account the key belongs to (docs/mock.md "Accounts"); absent = the default account `user_mock`. */
  account?: string;
}

export interface MockOptions {
  port?: number;
  host?: string;
  /** Default: one key `mock-key` with every scope (documented, not a secret). */
  apiKeys?: ApiKey[];
  clock?: ClockMode;
  /** Virtual clock start (epoch ms). Default: Date.now() at start. */
  clockStart?: number;
  /** Serve /__control/*. Default false. Without controlToken only loopback peers are answered. */
  control?: boolean;
  /**
   * The control API answers only requests carrying `Authorization: Bearer <controlToken>` (from any peer);
   * required with `control` on a non-loopback host (docs/mock.md "The control API on a shared mock").
   */
  controlToken?: string;
  /** true/false or a factor scaling every limit. Default true. */
  rateLimits?: boolean | number;
  /** Per-worker requests per window for the dynamic limit; default from the spec's policy. */
  requestsPerWorkerPer10s?: number;
  /** Duration of a job without input.mock.durationMs. Default 50 ms. */
  jobDurationMs?: number;
  /** Template delete delay after last use; default from the spec (x-delete-delay-ms). */
  templateDeleteDelayMs?: number;
  faults?: FaultName[];
  /** Persist state to this file (write-then-rename) and restore from it on start. */
  stateFile?: string;
  /** Log one line per request to stderr. */
  log?: boolean;
  /** Global ceilings (stored jobs per endpoint and in total, heap bytes); defaults from the spec and V8's heap limit. */
  limits?: Partial<CapacityLimits>;
  /** CORS for browser pages: an origin (`https://docs.example.com`) or `*`. Default: off, no CORS header. */
  cors?: string;
  /** Serve the documentation site with try-it panels at /docs. Default false. */
  docs?: boolean;
  /** Answer every REST v1 request 410 Gone naming its REST v2 replacement, as the real service since 2026-11-15. */
  retireRestV1?: boolean;
  /**
   * Simulated workers by endpoint name (docs/workers.md): a handler function (RunPod's `handler(job)`), a
   * list of stub rules, or the path of a module (default export) or of a .json stubs file. Loaded at start;
   * a bad one stops it (WorkerSetupError). A job's `input.mock` still wins.
   */
  workers?: Record<string, WorkerDefinition>;
  /**
   * Webhook destinations allowed beyond the default (`HOST[:PORT]`, `[IPV6]:PORT` or `ADDRESS/PREFIX`): a mock on
   * loopback delivers to loopback only, one on another host to public addresses only (webhook-egress.ts).
   */
  webhookAllow?: string[];
  /** Seeded randomness of the default worker: failure rate, latency p50/p99, cold start (docs/workers.md). */
  fleet?: FleetOptions;
  /**
   * Worker processes (`exec:`/`.py` workers, attached workers): how long one may take, after a stop signal, to show
   * it stopped the job (its next request) before it is killed and replaced; real ms, default 5000 (docs/workers.md).
   */
  workerKillGraceMs?: number;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  apiKeys: ApiKey[];
  clock: ClockMode;
  clockStart: number;
  control: boolean;
  controlToken?: string;
  rateLimitFactor: number;
  requestsPerWorkerPer10s?: number;
  jobDurationMs: number;
  templateDeleteDelayMs?: number;
  faults: ReadonlySet<FaultName>;
  stateFile?: string;
  log: boolean;
  /** Mutable, so an embedding tool (or a conformance check) can lower a ceiling for a while. */
  limits: CapacityLimits;
  cors?: string;
  docs: boolean;
  retireRestV1: boolean;
  workerKillGraceMs: number;
  webhookAllow: AllowEntry[];
}

export const DEFAULT_API_KEY = 'mock-key';
/** Default of workerKillGraceMs. */
export const KILL_GRACE_MS = 5_000;

export function resolveOptions(options: MockOptions = {}): ResolvedOptions {
  for (const fault of options.faults ?? []) {
    if (!(FAULT_NAMES as readonly string[]).includes(fault)) throw new Error(`unknown fault: ${fault}`);
  }
  if (options.apiKeys) checkKeyAccounts(options.apiKeys);
  const host = options.host ?? '127.0.0.1';
  if (options.controlToken !== undefined) {
    const problem = controlTokenProblem(options.controlToken);
    if (problem) throw new Error(problem);
  } else if (options.control && !isLoopbackHost(host)) {
    throw new Error(openControlRisk(host));
  }
  const rl = options.rateLimits ?? true;
  return {
    port: options.port ?? 0,
    host,
    apiKeys: options.apiKeys?.length ? options.apiKeys : [{ key: DEFAULT_API_KEY, scopes: ALL_SCOPES }],
    clock: options.clock ?? 'real',
    clockStart: options.clockStart ?? Date.now(),
    control: options.control ?? false,
    controlToken: options.controlToken,
    rateLimitFactor: rl === true ? 1 : rl === false ? 0 : rl,
    requestsPerWorkerPer10s: options.requestsPerWorkerPer10s,
    jobDurationMs: options.jobDurationMs ?? 50,
    templateDeleteDelayMs: options.templateDeleteDelayMs,
    faults: new Set(options.faults ?? []),
    stateFile: options.stateFile,
    log: options.log ?? false,
    limits: { ...defaultCapacityLimits(), ...definedOnly(options.limits ?? {}) },
    cors: options.cors === undefined ? undefined : parseCorsOrigin(options.cors),
    docs: options.docs ?? false,
    retireRestV1: options.retireRestV1 ?? false,
    workerKillGraceMs: options.workerKillGraceMs ?? KILL_GRACE_MS,
    webhookAllow: webhookAllowOf(options.webhookAllow ?? []),
  };
}

/** Account names within their bound; one key never in two accounts (a key identifies exactly one account). */
function checkKeyAccounts(keys: readonly ApiKey[]): void {
  const accountOf = new Map<string, string>();
  for (const { key, account } of keys) {
    if (account !== undefined) {
      const problem = accountNameProblem(account);
      if (problem) throw new Error(`API key account: ${problem}`);
    }
    const named = account ?? DEFAULT_ACCOUNT;
    const earlier = accountOf.get(key);
    if (earlier !== undefined && earlier !== named) throw new Error(`the same API key is given for two accounts ('${earlier}' and '${named}'); a key belongs to one account`);
    accountOf.set(key, named);
  }
}

function webhookAllowOf(entries: readonly string[]): AllowEntry[] {
  if (entries.length > MAX_WEBHOOK_ALLOW_ENTRIES) throw new Error(`--webhook-allow: at most ${MAX_WEBHOOK_ALLOW_ENTRIES} entries`);
  return entries.map(parseWebhookAllow);
}

function definedOnly(limits: Partial<CapacityLimits>): Partial<CapacityLimits> {
  const out: Partial<CapacityLimits> = {};
  for (const [key, value] of Object.entries(limits) as [keyof CapacityLimits, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0) throw new Error(`limits.${key} must be a number >= 0`);
    out[key] = value;
  }
  return out;
}
