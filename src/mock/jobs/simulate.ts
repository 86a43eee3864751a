// The simulated worker handler: `input.mock` decides what a job does. Documented in docs/mock.md ("The `input.mock` protocol").
import type { Job } from '../types.js';

export interface MockDirective {
  /** How long the handler runs (ms). */
  durationMs: number;
  /** Output of a completed job. */
  output?: unknown;
  /** When set, the handler fails with this error (every attempt, unless failTimes limits it). */
  error?: unknown;
  /** Chunks the handler yields, spread evenly over durationMs. */
  stream?: unknown[];
  /** Fail the first N attempts, then succeed (flaky handler). */
  failTimes?: number;
  /** Env keys the worker checks against expected values (secret resolution without leaking values). */
  envCheck?: Record<string, string>;
  /** The worker reports the s3Config it received (accessSecret only as a yes/no). */
  s3Check?: boolean;
  /** The worker process crashes: the job ends FAILED and a waiting /runsync answers 500. */
  crash?: boolean;
}

export interface Outcome {
  status: 'COMPLETED' | 'FAILED';
  output?: unknown;
  error?: unknown;
  crashed?: boolean;
}

const KNOWN = new Set(['durationMs', 'output', 'error', 'stream', 'failTimes', 'envCheck', 's3Check', 'crash']);

/** Reads input.mock; a malformed directive makes the job fail (the worker rejects it), never the request. */
export function readDirective(input: Record<string, unknown>, defaultDurationMs: number): MockDirective | string {
  const raw = input['mock'];
  if (raw === undefined) return { durationMs: defaultDurationMs };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'input.mock must be an object';
  const mock = raw as Record<string, unknown>;
  for (const key of Object.keys(mock)) if (!KNOWN.has(key)) return `input.mock.${key} is not a known directive`;
  const directive: MockDirective = { durationMs: defaultDurationMs };
  if (mock['durationMs'] !== undefined) {
    const d = mock['durationMs'];
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 0) return 'input.mock.durationMs must be an integer >= 0';
    directive.durationMs = d;
  }
  if (mock['failTimes'] !== undefined) {
    const f = mock['failTimes'];
    if (typeof f !== 'number' || !Number.isInteger(f) || f < 0) return 'input.mock.failTimes must be an integer >= 0';
    directive.failTimes = f;
  }
  if (mock['stream'] !== undefined) {
    if (!Array.isArray(mock['stream'])) return 'input.mock.stream must be an array';
    directive.stream = mock['stream'];
  }
  if (mock['envCheck'] !== undefined) {
    const e = mock['envCheck'];
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'input.mock.envCheck must be an object';
    directive.envCheck = e as Record<string, string>;
  }
  for (const flag of ['s3Check', 'crash'] as const) {
    if (mock[flag] === undefined) continue;
    if (typeof mock[flag] !== 'boolean') return `input.mock.${flag} must be a boolean`;
    directive[flag] = mock[flag] as boolean;
  }
  if ('output' in mock) directive.output = mock['output'];
  if ('error' in mock) directive.error = mock['error'];
  return directive;
}

/** What the handler returns on attempt number `attempt` (1-based). */
export function outcomeOf(
  job: Job,
  directive: MockDirective,
  attempt: number,
  env: Record<string, string>,
): Outcome {
  if (directive.crash) return { status: 'FAILED', error: 'worker crashed while running the job', crashed: true };
  const flaky = directive.failTimes !== undefined;
  const fails = flaky ? attempt <= directive.failTimes! : directive.error !== undefined;
  if (fails) return { status: 'FAILED', error: directive.error ?? `simulated failure (attempt ${attempt})` };
  if (directive.envCheck) {
    const matches: Record<string, boolean> = {};
    for (const [key, expected] of Object.entries(directive.envCheck)) matches[key] = env[key] === expected;
    return { status: 'COMPLETED', output: { envCheck: matches } };
  }
  if (directive.s3Check) {
    const { accessSecret, ...visible } = job.s3Config ?? {};
    return { status: 'COMPLETED', output: { s3Config: job.s3Config ? { ...visible, accessSecretReceived: typeof accessSecret === 'string' && accessSecret !== '' } : null } };
  }
  if ('output' in directive) return { status: 'COMPLETED', output: directive.output };
  if (directive.stream) return { status: 'COMPLETED', output: directive.stream };
  return { status: 'COMPLETED', output: { echo: job.input } };
}

/** Stream chunks available at `now` for a job started at `startedAt` (all of them once completed). */
export function availableChunks(directive: MockDirective, job: Job, now: number): number {
  const chunks = directive.stream?.length ?? 0;
  if (chunks === 0) return 0;
  if (job.status === 'COMPLETED') return chunks;
  if (job.status !== 'IN_PROGRESS' || job.startedAt === undefined) return 0;
  const elapsed = now - job.startedAt;
  if (directive.durationMs === 0) return chunks;
  return Math.min(chunks, Math.floor((elapsed * chunks) / directive.durationMs));
}

/** Resolves `{{ RUNPOD_SECRET_name }}` references; only the simulated worker ever sees the result. */
export function resolveSecrets(env: Record<string, string>, secretValue: (name: string) => string | undefined): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    resolved[key] = value.replace(/\{\{\s*RUNPOD_SECRET_([A-Za-z0-9_./-]+)\s*\}\}/g, (whole, name: string) => secretValue(name) ?? whole);
  }
  return resolved;
}
