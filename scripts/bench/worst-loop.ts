// The client that sends one worst-case request back to back, in a worker thread of its own: the
// megabytes it uploads and downloads never delay the neighbour's latency measured on the main thread.
import { Worker } from 'node:worker_threads';

/** One worst-case request, as plain data a worker thread can run. */
export type WorstRequest =
  | { kind: 'get'; url: string; headers: Record<string, string> }
  | { kind: 'post'; url: string; headers: Record<string, string>; body: string; accountInBody?: boolean }
  /** POST /run to a streaming endpoint, wait for the job to finish, then time GET /stream (the full backlog). */
  | { kind: 'stream'; queueUrl: string; headers: Record<string, string> };

export interface WorstLoopResult {
  durationsMs: number[];
  statuses: number[];
}

// Plain JavaScript: the worker runs it with eval (no TypeScript loader in worker threads).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { request, maxMs, maxCount } = workerData;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function once(i) {
  if (request.kind === 'get') {
    const start = performance.now();
    const res = await fetch(request.url, { headers: request.headers });
    await res.arrayBuffer();
    return [performance.now() - start, res.status];
  }
  if (request.kind === 'post') {
    const body = request.accountInBody ? request.body.replace('"account":"bench-seed"', '"account":"bench-seed-' + i + '"') : request.body;
    const start = performance.now();
    const res = await fetch(request.url, { method: 'POST', headers: request.headers, body });
    await res.arrayBuffer();
    return [performance.now() - start, res.status];
  }
  const run = await fetch(request.queueUrl + '/run', { method: 'POST', headers: request.headers, body: '{"input":{}}' });
  const { id } = await run.json();
  for (let polls = 0; polls < 600; polls++) {
    const status = await (await fetch(request.queueUrl + '/status/' + id, { headers: request.headers })).json();
    if (status.status === 'COMPLETED' || status.status === 'FAILED') break;
    await sleep(50);
  }
  const start = performance.now();
  const res = await fetch(request.queueUrl + '/stream/' + id, { headers: request.headers });
  await res.arrayBuffer();
  return [performance.now() - start, res.status];
}
(async () => {
  const durationsMs = [];
  const statuses = [];
  const started = performance.now();
  for (let i = 0; i < maxCount && (i === 0 || performance.now() - started < maxMs); i++) {
    const [ms, status] = await once(i);
    durationsMs.push(ms);
    statuses.push(status);
  }
  parentPort.postMessage({ durationsMs, statuses });
})().catch((error) => { throw error; });
`;

/** Runs `request` back to back for up to `maxMs` (at least once) and `maxCount` times; resolves with each duration. */
export function runWorstLoop(request: WorstRequest, maxMs: number, maxCount: number): Promise<WorstLoopResult> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { request, maxMs, maxCount } });
  return new Promise((resolve, reject) => {
    worker.once('message', (result: WorstLoopResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
