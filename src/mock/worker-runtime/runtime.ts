// `compute-contract worker`: RunPod's worker protocol spoken by the package. Reads the environment RunPod gives
// a worker (RUNPOD_WEBHOOK_GET_JOB …, specs/worker/openapi.yaml), long-polls job-take (job-take-batch with
// --concurrency > 1), runs each job with the handler contract of the mock's in-process workers (handler-run.ts),
// streams chunks, posts results, stops jobs named on the stop channel, and sends heartbeats.
import { createClock } from '../clock.js';
import { runHandler, type HandlerRun } from '../simulated-workers/handler-run.js';
import type { WorkerHandler } from '../simulated-workers/types.js';
import { exchange, type ExchangeAnswer } from '../../contract/exchange.js';

/** The largest answer read (a job-take-batch of jobs with /runsync's largest inputs fits). */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
/** A held job-take or job-stop is given up after this long, then asked again (runpod-python: 90 s). */
export const POLL_TIMEOUT_MS = 90_000;
/** After a 429: wait this long (runpod-python: 5 s). */
const TOO_MANY_BACKOFF_MS = 5_000;
/** After a failed request: wait this long before the next (no tight loop against a server that is down). */
const ERROR_BACKOFF_MS = 1_000;
export const MAX_CONCURRENCY = 64;

export interface WorkerEnvironment {
  takeUrl: string;
  doneUrl: string;
  streamUrl: string;
  pingUrl: string | undefined;
  key: string;
  workerId: string;
  endpointId: string;
  pingIntervalMs: number;
}

/** The environment's protocol settings, or the list of what is missing. */
export function readWorkerEnvironment(env: NodeJS.ProcessEnv): WorkerEnvironment | string[] {
  const need = ['RUNPOD_WEBHOOK_GET_JOB', 'RUNPOD_WEBHOOK_POST_OUTPUT', 'RUNPOD_AI_API_KEY', 'RUNPOD_POD_ID'];
  const missing = need.filter((name) => !env[name]);
  if (missing.length > 0) return missing;
  const workerId = env['RUNPOD_POD_ID']!;
  const done = env['RUNPOD_WEBHOOK_POST_OUTPUT']!.replace('$RUNPOD_POD_ID', workerId);
  const interval = Number(env['RUNPOD_PING_INTERVAL'] ?? 10_000);
  return {
    takeUrl: env['RUNPOD_WEBHOOK_GET_JOB']!.replace('$ID', workerId),
    doneUrl: done,
    streamUrl: (env['RUNPOD_WEBHOOK_POST_STREAM'] ?? done.replace('/job-done/', '/job-stream/')).replace('$RUNPOD_POD_ID', workerId),
    pingUrl: env['RUNPOD_WEBHOOK_PING']?.replace('$RUNPOD_POD_ID', workerId),
    key: env['RUNPOD_AI_API_KEY']!,
    workerId,
    endpointId: env['RUNPOD_ENDPOINT_ID'] ?? '',
    pingIntervalMs: Number.isFinite(interval) && interval >= 100 ? interval : 10_000,
  };
}

export interface RunWorkerOptions {
  env: WorkerEnvironment;
  handler: WorkerHandler;
  concurrency: number;
  version: string;
  log(line: string): void;
  /** Resolves when the worker should stop (SIGTERM): no new job is taken, running jobs finish. */
  stopped: Promise<void>;
}

interface WireJob {
  id: string;
  input: Record<string, unknown>;
  s3Config?: unknown;
}

export async function runWorker(options: RunWorkerOptions): Promise<void> {
  const { env, log } = options;
  const clock = createClock('real');
  const running = new Map<string, HandlerRun>();
  let alive = true;
  let freed: (() => void) | undefined;
  const polls = new AbortController();
  void options.stopped.then(() => {
    alive = false;
    polls.abort();
    freed?.();
  });
  const call = async (method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<ExchangeAnswer | undefined> => {
    // node:http with kept-alive connections (src/contract/exchange.ts): each job costs two requests.
    const headers: Record<string, string> = body === undefined ? { authorization: env.key } : { authorization: env.key, 'content-type': 'application/json' };
    try {
      return await exchange({ method, url, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, timeoutMs: signal ? undefined : POLL_TIMEOUT_MS, maxBytes: MAX_ANSWER_BYTES });
    } catch (error) {
      if (alive) log(`request failed: ${method} ${new URL(url).pathname}: ${(error as Error).message}`);
      return undefined;
    }
  };
  const post = (url: string, jobId: string, body: unknown, isStream: boolean) =>
    call('POST', `${url.replace('$ID', encodeURIComponent(jobId))}&isStream=${String(isStream)}`, body);
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  const runJob = (job: WireJob) => {
    const handler: WorkerHandler = (received, context) => options.handler(job.s3Config === undefined ? received : { ...received, s3Config: job.s3Config } as typeof received, context);
    const run = runHandler(handler, { id: job.id, input: job.input ?? {} }, env.endpointId, clock);
    running.set(job.id, run);
    log(`job ${job.id} started`);
    // Chunks go out in order, each after the one before it.
    let chunks: Promise<unknown> = Promise.resolve();
    run.onChunk = (chunk) => {
      chunks = chunks.then(() => post(env.streamUrl, job.id, { output: chunk }, false));
    };
    void run.done.then(async (outcome) => {
      await chunks;
      const stopped = running.get(job.id) !== run;
      running.delete(job.id);
      freed?.();
      if (stopped) return log(`job ${job.id} stopped`);
      const streamed = run.chunks.length > 0;
      await post(env.doneUrl, job.id, outcome.status === 'COMPLETED' ? { output: outcome.output } : { error: outcome.error }, streamed);
      log(`job ${job.id} ${outcome.status === 'COMPLETED' ? 'completed' : 'failed'}`);
    });
  };

  const takeLoop = async () => {
    while (alive) {
      const room = options.concurrency - running.size;
      if (room <= 0) {
        await new Promise<void>((resolve) => (freed = resolve));
        freed = undefined;
        continue;
      }
      const url = room > 1 ? `${env.takeUrl.replace('/job-take/', '/job-take-batch/')}&batch_size=${room}` : env.takeUrl;
      const res = await call('GET', `${url}&job_in_progress=${running.size > 0 ? 1 : 0}`, undefined, AbortSignal.any([polls.signal, AbortSignal.timeout(POLL_TIMEOUT_MS)]));
      if (!res) {
        if (alive) await pause(ERROR_BACKOFF_MS);
        continue;
      }
      if (res.status === 200) {
        const body = parseJson(res.text) as WireJob | WireJob[] | undefined;
        if (body === undefined || body === null) {
          log('job-take answered 200 with a body that is not JSON');
          await pause(ERROR_BACKOFF_MS);
          continue;
        }
        for (const job of Array.isArray(body) ? body : [body]) runJob(job);
      } else {
        if (res.status === 429) await pause(TOO_MANY_BACKOFF_MS);
        else if (res.status !== 204) {
          log(`job-take answered ${res.status}`);
          await pause(ERROR_BACKOFF_MS);
        }
      }
    }
  };

  const stopUrl = env.takeUrl.includes('/job-take/') ? env.takeUrl.replace('/job-take/', '/job-stop/') : undefined;
  const stopLoop = async () => {
    while (alive && stopUrl) {
      const res = await call('GET', stopUrl, undefined, AbortSignal.any([polls.signal, AbortSignal.timeout(POLL_TIMEOUT_MS)]));
      if (res?.status === 200) {
        const body = parseJson(res.text) as { jobsToStop?: unknown } | undefined;
        for (const id of Array.isArray(body?.jobsToStop) ? body.jobsToStop : []) {
          const run = typeof id === 'string' ? running.get(id) : undefined;
          if (!run) continue;
          running.delete(id as string);
          run.abort('the job was stopped (cancelled or timed out)');
        }
      } else {
        if (alive && res?.status !== 204) await pause(res?.status === 429 ? TOO_MANY_BACKOFF_MS : ERROR_BACKOFF_MS);
      }
    }
  };

  const ping = env.pingUrl === undefined ? undefined : setInterval(() => {
    const ids = [...running.keys()].join(',');
    void call('GET', `${env.pingUrl}&job_id=${encodeURIComponent(ids)}&runpod_version=${encodeURIComponent(options.version)}`);
  }, env.pingIntervalMs);
  ping?.unref();
  log(`worker ${env.workerId} ready (concurrency ${options.concurrency})`);
  try {
    await Promise.all([takeLoop(), stopLoop()]);
    while (running.size > 0) await new Promise<void>((resolve) => (freed = resolve));
  } finally {
    if (ping) clearInterval(ping);
    clock.stop();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
