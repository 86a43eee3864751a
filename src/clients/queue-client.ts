/**
 * Queue v2 client: `{endpointBaseUrl}/{endpointId}` job operations, plus waiting (`waitFor`,
 * `runAndWait`) and streaming (`stream`) built on them. Generic over the worker's own types:
 * `createQueueClient<MyInput, MyOutput, MyChunk>(…)`.
 */
import type { Client } from 'openapi-fetch';
import type { paths as QueueV2Paths } from '../../generated/queue-v2/types.js';
import { JobFailedError } from './errors.js';
import { HttpCore, compact, requireOption, type BaseClientOptions, type CallOptions, type OperationSpec } from './http.js';
import { pollUntilTerminal, type PollOptions } from './polling.js';
import type {
  HealthReport,
  JobRecord,
  JobSubmission,
  JsonObject,
  PurgeResult,
  RequestsList,
  StreamChunk,
  StreamResponse,
  TerminalJobRecord,
} from './queue-types.js';
import { iterateJobStream } from './stream.js';

export interface QueueClientOptions extends BaseClientOptions {
  /** Base of queue v2, e.g. `https://api.runpod.ai/v2` (the endpoint id is appended). */
  endpointBaseUrl: string;
  endpointId: string;
  /** Defaults for waitFor / runAndWait / stream. */
  poll?: Pick<PollOptions, 'pollIntervalMs' | 'maxPollIntervalMs' | 'timeoutMs' | 'sleep' | 'now'>;
}

export interface RunSyncOptions extends CallOptions {
  /** How long the service holds the request for the result; clamped to 1000–300000 ms. */
  waitMs?: number;
}

export interface WaitForOptions extends PollOptions {
  /** Throw JobFailedError for FAILED / CANCELLED / TIMED_OUT instead of returning the record. */
  throwOnFailure?: boolean;
  /** Transport options of each status read. */
  request?: Omit<CallOptions, 'signal'>;
}

export const MIN_WAIT_MS = 1000;
export const MAX_WAIT_MS = 300_000;

export function clampWaitMs(waitMs: number): number {
  if (!Number.isFinite(waitMs)) return MAX_WAIT_MS;
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, Math.round(waitMs)));
}

const op = (operationId: string, method: OperationSpec['method'], path: string, idempotent: boolean): OperationSpec => ({
  operationId,
  method,
  path,
  idempotent,
});

/** Queue v2 operations. Submissions, /retry and /purge-queue are not repeated after an ambiguous failure. */
export const QUEUE_OPERATIONS = {
  runJob: op('runJob', 'POST', '/run', false),
  runJobSync: op('runJobSync', 'POST', '/runsync', false),
  getJobStatus: op('getJobStatus', 'GET', '/status/{jobId}', true),
  getJobStatusSync: op('getJobStatusSync', 'GET', '/status-sync/{jobId}', true),
  streamJob: op('streamJob', 'GET', '/stream/{jobId}', true),
  cancelJob: op('cancelJob', 'POST', '/cancel/{jobId}', true),
  retryJob: op('retryJob', 'POST', '/retry/{jobId}', false),
  purgeQueue: op('purgeQueue', 'POST', '/purge-queue', false),
  getHealth: op('getHealth', 'GET', '/health', true),
  listRequests: op('listRequests', 'GET', '/requests', true),
  openaiProxy: op('openaiProxy', 'POST', '/openai/{openaiPath}', false),
  openaiProxyGet: op('openaiProxyGet', 'GET', '/openai/{openaiPath}', true),
} as const satisfies Record<string, OperationSpec>;

/** Keeps `/` between segments of the openai path (`v1/chat/completions`) while encoding each segment. */
function openaiPathSerializer(pathname: string, params: Record<string, unknown>): string {
  const rest = String(params.openaiPath ?? '')
    .replace(/^\/+/, '')
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return pathname.replace('{openaiPath}', rest);
}

export interface QueueClient<Input = JsonObject, Output = unknown, Chunk = unknown> {
  readonly endpointId: string;
  run(body: JobSubmission<Input>, options?: CallOptions): Promise<JobRecord<Output>>;
  runSync(body: JobSubmission<Input>, options?: RunSyncOptions): Promise<JobRecord<Output>>;
  status(jobId: string, options?: CallOptions): Promise<JobRecord<Output>>;
  statusSync(jobId: string, options?: RunSyncOptions): Promise<JobRecord<Output>>;
  /** One `/stream` read: the chunks produced since the previous read. */
  readStream(jobId: string, options?: CallOptions): Promise<StreamResponse<Chunk>>;
  cancel(jobId: string, options?: CallOptions): Promise<JobRecord<Output>>;
  retry(jobId: string, options?: CallOptions): Promise<JobRecord<Output>>;
  purgeQueue(options?: CallOptions): Promise<PurgeResult>;
  health(options?: CallOptions): Promise<HealthReport>;
  requests(options?: CallOptions): Promise<RequestsList>;
  openai<Result = unknown>(path: string, body: JsonObject, options?: CallOptions): Promise<Result>;
  /** GET on the workers' OpenAI-compatible server, e.g. `openaiGet('v1/models')`. */
  openaiGet<Result = unknown>(path: string, options?: CallOptions): Promise<Result>;
  waitFor(jobId: string, options?: WaitForOptions): Promise<TerminalJobRecord<Output>>;
  runAndWait(body: JobSubmission<Input>, options?: WaitForOptions): Promise<TerminalJobRecord<Output>>;
  stream(jobId: string, options?: PollOptions): AsyncGenerator<StreamChunk<Chunk>, void, undefined>;
  /** openapi-fetch typed with the queue v2 paths (base includes the endpoint id): `{data, error, response}`. */
  readonly raw: Client<QueueV2Paths>;
}

export function createQueueClient<Input = JsonObject, Output = unknown, Chunk = unknown>(
  options: QueueClientOptions,
): QueueClient<Input, Output, Chunk> {
  const endpointId = requireOption(options.endpointId, 'endpointId');
  const base = `${requireOption(options.endpointBaseUrl, 'endpointBaseUrl').replace(/\/+$/, '')}/${encodeURIComponent(endpointId)}`;
  const core = new HttpCore('queueV2', base, options);
  const ops = QUEUE_OPERATIONS;
  const pollDefaults = options.poll ?? {};

  const status = (jobId: string, callOptions?: CallOptions) =>
    core.call<JobRecord<Output>>(ops.getJobStatus, { path: { jobId } }, callOptions, { jobId });
  const readStream = (jobId: string, callOptions?: CallOptions) =>
    core.call<StreamResponse<Chunk>>(ops.streamJob, { path: { jobId } }, callOptions, { jobId });

  async function waitFor(jobId: string, waitOptions: WaitForOptions = {}): Promise<TerminalJobRecord<Output>> {
    const { throwOnFailure, request, ...poll } = waitOptions;
    const record = (await pollUntilTerminal(
      (signal) => status(jobId, { ...request, signal }),
      { jobId, operationId: ops.getJobStatus.operationId },
      { ...pollDefaults, ...poll },
    )) as TerminalJobRecord<Output>;
    if (throwOnFailure && record.status !== 'COMPLETED') {
      throw new JobFailedError({ operationId: ops.getJobStatus.operationId, jobId, jobStatus: record.status, jobError: record.error, redactor: core.redactor });
    }
    return record;
  }

  return {
    endpointId,
    raw: core.rawClient<QueueV2Paths>(),
    run: (body, callOptions) => core.call(ops.runJob, { body }, callOptions),
    runSync: (body, { waitMs, ...callOptions } = {}) =>
      core.call(ops.runJobSync, { body, query: compact({ wait: waitMs === undefined ? undefined : clampWaitMs(waitMs) }) }, withHold(callOptions, waitMs, options.timeoutMs)),
    status,
    statusSync: (jobId, { waitMs, ...callOptions } = {}) =>
      core.call(
        ops.getJobStatusSync,
        { path: { jobId }, query: compact({ wait: waitMs === undefined ? undefined : clampWaitMs(waitMs) }) },
        withHold(callOptions, waitMs, options.timeoutMs),
        { jobId },
      ),
    readStream,
    cancel: (jobId, callOptions) => core.call(ops.cancelJob, { path: { jobId } }, callOptions, { jobId }),
    retry: (jobId, callOptions) => core.call(ops.retryJob, { path: { jobId } }, callOptions, { jobId }),
    purgeQueue: (callOptions) => core.call(ops.purgeQueue, {}, callOptions),
    health: (callOptions) => core.call(ops.getHealth, {}, callOptions),
    requests: (callOptions) => core.call(ops.listRequests, {}, callOptions),
    openai: (path, body, callOptions) =>
      core.call(ops.openaiProxy, { path: { openaiPath: path.replace(/^\/+/, '') }, body }, callOptions, { pathSerializer: openaiPathSerializer }),
    openaiGet: (path, callOptions) =>
      core.call(ops.openaiProxyGet, { path: { openaiPath: path.replace(/^\/+/, '') } }, callOptions, { pathSerializer: openaiPathSerializer }),
    waitFor,
    async runAndWait(body, waitOptions = {}) {
      const submitted = await core.call<JobRecord<Output>>(ops.runJob, { body }, { ...waitOptions.request, signal: waitOptions.signal });
      return waitFor(submitted.id, waitOptions);
    },
    stream: (jobId, pollOptions = {}) =>
      iterateJobStream(
        { readStream: (signal) => readStream(jobId, { signal }), readStatus: (signal) => status(jobId, { signal }) },
        { jobId, operationId: ops.streamJob.operationId },
        { ...pollDefaults, ...pollOptions },
      ),
  };
}

/** A held request (`wait`) must not be cut by the per-attempt timeout: extend it past the hold. */
function withHold(callOptions: CallOptions, waitMs: number | undefined, clientTimeoutMs: number | undefined): CallOptions {
  if (callOptions.timeoutMs !== undefined || clientTimeoutMs === 0) return callOptions;
  const hold = waitMs === undefined ? 90_000 : clampWaitMs(waitMs);
  return { ...callOptions, timeoutMs: Math.max(clientTimeoutMs ?? 0, hold + 30_000) };
}
