// `compute-contract worker [--handler conformance | MODULE] [--concurrency N]`: a queue worker speaking RunPod's
// worker protocol (docs/workers.md), configured by the environment RunPod (or the mock) gives a worker.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { conformanceHandler } from '../mock/worker-runtime/conformance-handler.js';
import { MAX_CONCURRENCY, readWorkerEnvironment, runWorker } from '../mock/worker-runtime/runtime.js';
import { loadWorkers } from '../mock/simulated-workers/load.js';
import { WorkerSetupError, type WorkerHandler } from '../mock/simulated-workers/types.js';

export const workerUsage = `Usage: compute-contract worker (--handler conformance | --handler MODULE) [--concurrency N]

Runs a queue worker that speaks RunPod's worker protocol: it takes jobs from RUNPOD_WEBHOOK_GET_JOB (a long
poll), posts results to RUNPOD_WEBHOOK_POST_OUTPUT and stream chunks to RUNPOD_WEBHOOK_POST_STREAM, stops the
jobs named on the stop channel and pings RUNPOD_WEBHOOK_PING, with RUNPOD_AI_API_KEY and RUNPOD_POD_ID: the
environment RunPod gives a worker, and the mock gives its --worker NAME=exec:… processes.

  --handler conformance   the conformance suite's handler (input.mock, docs/mock.md)
  --handler MODULE        a handler module: export default function handler(job, context) — return, throw,
                          {error}, or an async generator to stream (docs/workers.md)
  --concurrency N         jobs run at once (1..${MAX_CONCURRENCY}, default 1; > 1 takes with job-take-batch)

Exit code: 0 after SIGTERM/SIGINT once running jobs finished; 2 on usage errors or a missing variable.`;

export async function runWorkerCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { handler: { type: 'string' }, concurrency: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${workerUsage}`);
    return 2;
  }
  if (values.help) {
    console.log(workerUsage);
    return 0;
  }
  const concurrency = values.concurrency === undefined ? 1 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    console.error(`--concurrency must be an integer 1..${MAX_CONCURRENCY}`);
    return 2;
  }
  if (!values.handler) {
    console.error(`--handler is required\n\n${workerUsage}`);
    return 2;
  }
  let handler: WorkerHandler;
  try {
    handler = values.handler === 'conformance' ? conformanceHandler() : await moduleHandler(values.handler);
  } catch (error) {
    if (!(error instanceof WorkerSetupError)) throw error;
    console.error(error.message.replace(/^--worker worker=/, '--handler '));
    return 2;
  }
  const env = readWorkerEnvironment(process.env);
  if (Array.isArray(env)) {
    console.error(`compute-contract worker: ${env.join(', ')} not set (the environment RunPod gives a worker; docs/workers.md)`);
    return 2;
  }
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await runWorker({ env, handler, concurrency, version: packageVersion(), log: (line) => console.log(`[worker] ${line}`), stopped });
  return 0;
}

async function moduleHandler(module: string): Promise<WorkerHandler> {
  const loaded = (await loadWorkers({ worker: module })).get('worker')!;
  if (loaded.kind !== 'handler') throw new WorkerSetupError(`--handler ${module}: expected a handler module (export default function handler(job) {…})`);
  return loaded.handler;
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
