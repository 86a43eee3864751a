// Where the suite points: flags, environment, or the embedded mock (virtual clock + control API).
import { randomBytes } from 'node:crypto';
import { startMock, type FaultName, type RunningMock } from '../mock/index.js';
import type { RuleLevel } from '../contract/levels.js';
import { SURFACE_NAMES, SURFACE_INFO } from '../contract/surfaces.js';
import type { Tier } from './types.js';

export interface TargetConfig {
  /** Human-readable name for reports ("embedded mock", a URL). */
  name: string;
  // Any subset of the surfaces; rules of an absent one are skipped (see surfaces.ts, needs.ts).
  /** REST v1 base, ending in /v1. */
  restUrl?: string;
  /** queue v2 base without the endpoint id, ending in /v2. */
  queueUrl?: string;
  graphqlUrl?: string;
  /** REST v2 management base ending in /v2 (https://api.runpod.io/v2; the mock's …/v2); optional. */
  restV2Url?: string;
  apiKey: string;
  /** A queue endpoint whose workers run the conformance handler (input.mock); optional. */
  endpointId?: string;
  /** A key with only the `read` scope (AUTH-005). */
  readOnlyKey?: string;
  /** A valid key with no scope at all (AUTH-005). */
  noPermissionKey?: string;
  /** A key of ANOTHER account with the same scopes as apiKey (ISOLATION-*); the preflight proves the accounts differ. */
  secondApiKey?: string;
  /** Base of the clock-control API (POST {controlUrl}/clock/advance {ms}). */
  controlUrl?: string;
  /** Sent as `Authorization: Bearer` with every control request (a mock started with --control-token). */
  controlToken?: string;
  /** Image the suite's templates use, so endpoints it creates run the conformance handler. */
  workerImage: string;
  /**
   * Address of a load-balancing endpoint's workers, `{id}` standing for the endpoint id (LB-* rules):
   * `https://{id}.api.runpod.ai`, the mock's `http://127.0.0.1:8787/lb/{id}`. --lb-url, else derived from
   * the queue URL's host form (lbUrlFromQueueUrl); none: those rules are skipped.
   */
  lbUrl?: string;
  /** Image of a load-balancing worker answering the echo contract (LB-FORWARD-001; docs/conformance.md). */
  lbWorkerImage?: string;
  /** In-process handle when the target is the embedded mock (mock-only rules use it). */
  embedded?: RunningMock;
}

export interface RunSettings {
  tier: Tier;
  seed: number;
  /** Only rules whose id matches (prefix or regexp source). */
  grep?: string;
  /** Upper bound of real waiting one slow rule may spend without clock control. */
  maxRealWaitMs: number;
  /** How long to poll a real server for a job to reach a state. */
  jobTimeoutMs: number;
  /** Stop at the first failing rule: the rules not yet started are reported skipped (checks already running finish). */
  bail?: boolean;
  /** Generated requests per operation and phase of the agreement rules (AGREE-*); default 2. */
  fuzzRuns?: number;
  /** Levels whose rules run (--level); default all. */
  levels?: readonly RuleLevel[];
  /** Every failing level counts toward the exit code (--strict); default only `must`. */
  strict?: boolean;
  /** Preflight bound for a submitted job to reach a terminal status (--preflight-job-ms). */
  preflightJobMs: number;
  /** Bound for one answer, held queue requests excepted (--request-timeout-ms); default 10 s. */
  requestTimeoutMs?: number;
  /** Checks run at once at most, when what they share allows it (--concurrency); 1 = one after another. */
  concurrency?: number;
  /**
   * How long a rule waits for a job on a target with clock control (default 3000 ms: the embedded mock's jobs
   * move with the clock). Raise it when the target's workers are real processes (docs/workers.md); a check's
   * time budget on such a target is 30 s plus this.
   */
  controlledJobTimeoutMs?: number;
}

export const DEFAULT_SEED = 20_240_601;
export const DEFAULT_WORKER_IMAGE = 'compute-contract/conformance-worker:1';
/** The embedded mock's load-balancing worker image: any image runs the mock's echo worker there. */
export const EMBEDDED_LB_WORKER_IMAGE = 'compute-contract/lb-echo-worker:1';

const FLAGS: Record<string, string> = {
  '--rest-url': 'CONFORM_REST_URL',
  '--queue-url': 'CONFORM_QUEUE_URL',
  '--graphql-url': 'CONFORM_GRAPHQL_URL',
  '--rest-v2-url': 'CONFORM_REST_V2_URL',
  '--api-key': 'CONFORM_API_KEY',
  '--endpoint-id': 'CONFORM_ENDPOINT_ID',
  '--read-only-key': 'CONFORM_READ_ONLY_KEY',
  '--no-permission-key': 'CONFORM_NO_PERMISSION_KEY',
  '--second-api-key': 'CONFORM_SECOND_API_KEY',
  '--control-url': 'CONFORM_CONTROL_URL',
  '--control-token': 'CONFORM_CONTROL_TOKEN',
  '--worker-image': 'CONFORM_WORKER_IMAGE',
  '--lb-url': 'CONFORM_LB_URL',
  '--lb-worker-image': 'CONFORM_LB_WORKER_IMAGE',
  '--tier': 'CONFORM_TIER',
  '--seed': 'CONFORM_SEED',
  '--grep': 'CONFORM_GREP',
  '--reports': 'CONFORM_REPORTS',
  '--max-real-wait-ms': 'CONFORM_MAX_REAL_WAIT_MS',
  '--job-timeout-ms': 'CONFORM_JOB_TIMEOUT_MS',
  '--fuzz-runs': 'CONFORM_FUZZ_RUNS',
  '--level': 'CONFORM_LEVEL',
  '--preflight-job-ms': 'CONFORM_PREFLIGHT_JOB_MS',
  '--request-timeout-ms': 'CONFORM_REQUEST_TIMEOUT_MS',
  '--concurrency': 'CONFORM_CONCURRENCY',
};

export const DEFAULT_PREFLIGHT_JOB_MS = 10_000;
/** Longest preflight job bound accepted (a cold start of a real worker can take minutes). */
export const MAX_PREFLIGHT_JOB_MS = 600_000;
export const MAX_REQUEST_TIMEOUT_MS = 300_000;
/** Checks at once by default: enough to overlap one check's waiting with others' work. */
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 32;

export const FLAG_NAMES = Object.keys(FLAGS);

/** Flags win over environment variables; returns the merged string options and unknown flags. */
export function readOptions(argv: string[], env: NodeJS.ProcessEnv): { values: Record<string, string>; errors: string[]; flags: Set<string> } {
  const values: Record<string, string> = {};
  const errors: string[] = [];
  const flags = new Set<string>();
  for (const [flag, name] of Object.entries(FLAGS)) {
    const v = env[name];
    if (v) values[flag] = v;
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (name in FLAGS) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) errors.push(`${name} needs a value`);
      else values[name] = value;
    } else if (arg.startsWith('--')) flags.add(arg);
    else errors.push(`unexpected argument ${arg}`);
  }
  return { values, errors, flags };
}

const trim = (url: string) => url.replace(/\/+$/, '');

/**
 * A remote target from options: any subset of the surface URLs (--rest-url, --queue-url,
 * --graphql-url, --rest-v2-url); undefined when none was given (→ embedded mock); a string on error.
 */
export function remoteTarget(values: Record<string, string>): TargetConfig | string | undefined {
  const given = SURFACE_NAMES.filter((s) => values[SURFACE_INFO[s].flag]);
  if (given.length === 0) return undefined;
  for (const s of given) {
    const url = values[SURFACE_INFO[s].flag]!;
    if (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) return `${SURFACE_INFO[s].flag} must be an http(s) URL (got ${JSON.stringify(url.slice(0, 80))})`;
  }
  const apiKey = values['--api-key'];
  if (!apiKey) return '--api-key (or CONFORM_API_KEY) is required with a remote target';
  const target: TargetConfig = { name: '', apiKey, workerImage: values['--worker-image'] ?? DEFAULT_WORKER_IMAGE };
  // GraphQL keeps its address verbatim (it may carry a query string); the others lose trailing slashes.
  for (const s of given) target[SURFACE_INFO[s].field] = s === 'graphql' ? values['--graphql-url']! : trim(values[SURFACE_INFO[s].flag]!);
  target.name = target[SURFACE_INFO[given[0]!].field]!;
  if (values['--endpoint-id']) target.endpointId = values['--endpoint-id'];
  if (values['--read-only-key']) target.readOnlyKey = values['--read-only-key'];
  if (values['--no-permission-key']) target.noPermissionKey = values['--no-permission-key'];
  if (values['--second-api-key']) target.secondApiKey = values['--second-api-key'];
  if (values['--control-url']) target.controlUrl = trim(values['--control-url']);
  if (values['--control-token']) target.controlToken = values['--control-token'];
  const lb = values['--lb-url'];
  if (lb !== undefined) {
    const problem = lbUrlProblem(lb);
    if (problem) return problem;
    target.lbUrl = trim(lb);
  } else if (target.queueUrl) {
    const derived = lbUrlFromQueueUrl(target.queueUrl);
    if (derived) target.lbUrl = derived;
  }
  if (values['--lb-worker-image']) target.lbWorkerImage = values['--lb-worker-image'];
  return target;
}

/** Why an --lb-url cannot be used, or undefined: an http(s) URL with `{id}` once, no query or fragment. */
export function lbUrlProblem(template: string): string | undefined {
  const example = 'e.g. https://{id}.api.runpod.ai or http://127.0.0.1:8787/lb/{id}';
  if (template.split('{id}').length !== 2) return `--lb-url must contain {id} once, standing for the endpoint id (${example}; got ${JSON.stringify(template.slice(0, 80))})`;
  const filled = template.replace('{id}', 'endpoint');
  if (!/^https?:\/\/[^\s?#]+$/.test(filled) || !URL.canParse(filled)) return `--lb-url must be an http(s) URL without query or fragment (${example}; got ${JSON.stringify(template.slice(0, 80))})`;
  return undefined;
}

/**
 * The load-balancing address from the queue URL's host form, as RunPod's: `https://api.runpod.ai/v2` →
 * `https://{id}.api.runpod.ai` (the endpoint id as a label in front of the queue host, the path the worker's).
 * Undefined when the host is an IP address (no name to put a label in front of) or the path is not /v2.
 */
export function lbUrlFromQueueUrl(queueUrl: string): string | undefined {
  if (!URL.canParse(queueUrl)) return undefined;
  const url = new URL(queueUrl);
  if (!/^\/v2\/?$/.test(url.pathname) || /^[\d.]+$/.test(url.hostname) || url.hostname.startsWith('[')) return undefined;
  return `${url.protocol}//{id}.${url.host}`;
}

/** Headers of a control request: the control token, when the target has one. */
export function controlHeaders(target: { controlToken?: string }): Record<string, string> {
  return target.controlToken ? { authorization: `Bearer ${target.controlToken}` } : {};
}

const randomKey = (label: string) => `cc-${label}-${randomBytes(12).toString('hex')}`;

const DAY_MS = 86_400_000;
/** The account of the embedded target's second key (ISOLATION-*): any account but the default one. */
export const EMBEDDED_SECOND_ACCOUNT = 'acct_second';

/** The one-line error for a second key that is the first key again (exit 2 before anything starts). */
export function sameSecondKey(values: Record<string, string>): string | undefined {
  const second = values['--second-api-key'];
  return second !== undefined && second === values['--api-key']
    ? '--second-api-key must be a key of another account, not the --api-key itself'
    : undefined;
}

/** How the embedded target is shaped: `today` retires REST v1 (410 Gone) and leaves it out of the target. */
export interface EmbeddedShape {
  /** The service as it is since 2026-11-15: REST v2, queue v2 and GraphQL only (`conform --today`). */
  today?: boolean;
}

/**
 * Starts the reference mock on 127.0.0.1:0 with a virtual clock, control API, three keys of one account
 * and one key of another; `today`: with REST v1 retired, as the real service is.
 */
export async function startEmbeddedTarget(faults: FaultName[] = [], shape: EmbeddedShape = {}): Promise<TargetConfig> {
  const apiKey = randomKey('full');
  const readOnlyKey = randomKey('read');
  const noPermissionKey = randomKey('none');
  const secondApiKey = randomKey('second');
  const mock = await startMock({
    host: '127.0.0.1',
    port: 0,
    clock: 'virtual',
    // A day boundary: every rate window and quota starts aligned, so a run's report is the same from
    // one run to the next and with any --concurrency (a Retry-After figure aside: polling checks before
    // a rate check let as much virtual time pass as the job they wait for needs polls).
    clockStart: Math.floor(Date.now() / DAY_MS) * DAY_MS,
    control: true,
    faults,
    retireRestV1: shape.today === true,
    apiKeys: [
      { key: apiKey, scopes: ['read', 'write', 'jobs', 'graphql'] },
      { key: readOnlyKey, scopes: ['read'] },
      { key: noPermissionKey, scopes: [] },
      { key: secondApiKey, scopes: ['read', 'write', 'jobs', 'graphql'], account: EMBEDDED_SECOND_ACCOUNT },
    ],
  });
  const name = `embedded mock${shape.today ? ' as today (REST v1 retired)' : ''}`;
  return {
    name: faults.length ? `${name} (faults: ${faults.join(', ')})` : name,
    ...(shape.today ? {} : { restUrl: mock.restV1Url }),
    queueUrl: `${mock.url}/v2`,
    graphqlUrl: mock.graphqlUrl,
    restV2Url: mock.restV2Url,
    apiKey,
    readOnlyKey,
    noPermissionKey,
    secondApiKey,
    controlUrl: mock.controlUrl,
    workerImage: DEFAULT_WORKER_IMAGE,
    // The path form: the embedded mock listens on 127.0.0.1, which has no name for the Host form.
    lbUrl: `${mock.url}/lb/{id}`,
    lbWorkerImage: EMBEDDED_LB_WORKER_IMAGE,
    embedded: mock,
  };
}

export function parseTier(value: string | undefined): Tier | undefined {
  if (value === undefined) return 'full';
  return value === 'safe' || value === 'full' || value === 'slow' ? value : undefined;
}
