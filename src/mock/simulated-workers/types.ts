// The simulated worker's contract (RunPod's handler contract) and its documented bounds (docs/workers.md).

/** What a handler receives, as RunPod's `handler(job)`: the job id and its input. */
export interface WorkerJob {
  id: string;
  input: Record<string, unknown>;
}

/** Extras of the mock (not part of RunPod's contract): time that follows the mock's clock, and cancellation. */
export interface WorkerContext {
  /** Id of the endpoint whose worker runs the job. */
  endpointId: string;
  /** The mock's clock (epoch ms): virtual time under `--clock virtual`. */
  now(): number;
  /** Resolves once the mock's clock has moved `ms` forward (virtual time too); rejects once the job is cut. */
  sleep(ms: number): Promise<void>;
  /** Aborted when the job's time budget runs out or it is cancelled. */
  signal: AbortSignal;
}

/**
 * RunPod's handler contract: the return value is the job's output, a throw fails the job with its message,
 * an async generator streams (each yielded value is one chunk; the output is the list of chunks, as with
 * `return_aggregate_stream`). A returned object with an `error` key fails the job with that error (runpod-python).
 */
export type WorkerHandler = (job: WorkerJob, context: WorkerContext) => unknown;

/** One stub rule: the first rule whose `match` is a JSON subset of the input decides the job. */
export interface StubRule {
  /** JSON subset of the job input; absent = matches every input (a default rule). */
  match?: unknown;
  output?: unknown;
  error?: unknown;
  durationMs?: number;
  stream?: unknown[];
}

/** A worker as startMock() takes it: a handler, a list of stub rules, a built-in's image name (`compute-contract/llm`), or a path to a module or a .json stubs file. */
export type WorkerDefinition = WorkerHandler | StubRule[] | string;

/** The result limit: an output whose JSON is larger fails the job (the largest queue payload, /runsync's 20 MB). */
export const MAX_OUTPUT_BYTES = 20 * 1024 * 1024;
/** One streamed chunk, as documented for /stream ("Maximum size for a single streamed payload chunk is 1 MB"). */
export const MAX_CHUNK_BYTES = 1024 * 1024;
/** Chunks one job may stream. */
export const MAX_STREAM_CHUNKS = 10_000;
/** Stub rules per worker, and the longest stub duration (24 h, the longest job ttl). */
export const MAX_STUB_RULES = 1_000;
export const MAX_STUB_DURATION_MS = 86_400_000;
/** Workers one mock may define (by endpoint name). */
export const MAX_WORKERS = 1_000;
/** Endpoint names are matched exactly; the longest name accepted. */
export const MAX_WORKER_NAME_LENGTH = 191;

/** A worker option that stops the start (CLI exit code 2), said in one line. */
export class WorkerSetupError extends Error {
  readonly exitCode = 2;
}
