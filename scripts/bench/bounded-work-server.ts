// The server side of `npm run bench:bounded-work`: a mock (child process) holding a large account, a
// streaming worker with the biggest /stream backlog the limits allow, a job whose output is the largest
// result, and a second listener on the same event loop that reports the loop's longest block
// (perf_hooks.monitorEventLoopDelay) since the last read.
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { MAX_OUTPUT_BYTES, MAX_STREAM_CHUNKS } from '../../src/mock/simulated-workers/types.js';

export const BENCH_KEY = 'bench-key';
const SCOPES = ['read', 'write', 'jobs', 'graphql'] as const;

export interface BoundedWorkServed {
  base: string;
  /** GET: {maxMs, p99Ms, meanMs} of the event-loop delay since the previous GET (then reset). */
  loopUrl: string;
  /** Endpoint whose worker streams MAX_STREAM_CHUNKS chunks filling the result limit. */
  streamEndpointId: string;
  /** Endpoint whose worker returns the largest output; `bigOutputJobId` is one of its completed jobs. */
  bigOutputJobId: string;
  echoEndpointId: string;
  stateFile: string | undefined;
}

/** `count` numbers whose JSON fills about `bytes` (the costliest JSON per byte to parse and write: one value per 2 bytes). */
export const zeros = (bytes: number): number[] => new Array<number>(Math.floor(bytes / 2)).fill(0);

/** One stream chunk: the backlog of MAX_STREAM_CHUNKS of them fills the result limit. */
const CHUNK = zeros(Math.floor((MAX_OUTPUT_BYTES * 0.95) / MAX_STREAM_CHUNKS));

async function* streamAll(): AsyncGenerator<unknown> {
  for (let i = 0; i < MAX_STREAM_CHUNKS; i++) yield CHUNK;
}

function must<T>(result: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

function seedAccount(mock: RunningMock, pods: number): { streamEndpointId: string; bigOutputEndpointId: string; echoEndpointId: string } {
  const store = mock.core.store;
  const template = must(store.saveTemplate({ name: 'bench-base', imageName: 'bench:1', env: { K: 'v' } }));
  for (let i = 0; i < pods; i++) {
    must(store.createPod({ name: `bench-pod-${i}`, imageName: 'runpod/pytorch:2.4.0', env: { A: '1', B: '2' }, ports: ['8888/http', '22/tcp'] }));
  }
  for (let i = 0; i < pods / 4; i++) must(store.saveTemplate({ name: `bench-template-${i}`, imageName: 'repo/app:1', env: { K: 'v' } }));
  for (let i = 0; i < pods / 10; i++) must(store.createNetworkVolume({ name: `bench-volume-${i}`, size: 10, dataCenterId: 'EU-RO-1' }));
  const endpoint = (name: string) => {
    const id = must(store.createEndpoint({ name, templateId: template.id, workersMax: 3 })).id;
    mock.core.engine.ensureEndpoint(id);
    return id;
  };
  return { streamEndpointId: endpoint('bench-stream'), bigOutputEndpointId: endpoint('bench-big-output'), echoEndpointId: endpoint('bench-echo') };
}

async function bigOutputJob(mock: RunningMock, endpointId: string): Promise<string> {
  const res = await fetch(`${mock.queueV2Url(endpointId)}/runsync`, { method: 'POST', headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' }, body: '{"input":{}}' });
  const job = (await res.json()) as { id: string; status: string };
  if (job.status !== 'COMPLETED') throw new Error(`big-output job ended ${job.status}`);
  return job.id;
}

export async function serveBoundedWork(pods: number, stateFile: string | undefined): Promise<BoundedWorkServed> {
  const bigOutput = zeros(MAX_OUTPUT_BYTES * 0.95);
  const mock = await startMock({
    rateLimits: false, control: true, docs: true, stateFile, jobDurationMs: 0,
    apiKeys: [{ key: BENCH_KEY, scopes: [...SCOPES] }],
    workers: { 'bench-stream': streamAll, 'bench-big-output': () => ({ values: bigOutput }), 'bench-echo': () => ({ ok: true }) },
  });
  const ids = seedAccount(mock, pods);
  const bigOutputJobId = await bigOutputJob(mock, ids.bigOutputEndpointId);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const loop = createServer((_req, res) => {
    const figures = { maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6, meanMs: delay.mean / 1e6 };
    delay.reset();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(figures));
  });
  await new Promise<void>((resolve) => loop.listen(0, '127.0.0.1', resolve));
  const address = loop.address() as { port: number };
  const root = new URL(mock.restV1Url);
  process.on('SIGTERM', () => void mock.close().then(() => process.exit(0)));
  return {
    base: `${root.protocol}//${root.host}`, loopUrl: `http://127.0.0.1:${address.port}/`,
    streamEndpointId: ids.streamEndpointId, bigOutputJobId: `${ids.bigOutputEndpointId}/${bigOutputJobId}`, echoEndpointId: ids.echoEndpointId, stateFile,
  };
}
