// `compute-contract worker --handler conformance` as the worker process of every endpoint: the conformance
// suite's queue rules pass behind the mock with it instead of the mock's in-process simulated handler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type TargetConfig } from '../../src/entries/conform.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { bundledWorkerCommand, removeBundledWorker } from './bundled-worker.js';

/**
 * The queue rules whose jobs run on workers (the rate, bounds, capacity and /openai rules never reach one).
 * QUEUE-SYNC-002's job lasts 8 s, and in a worker process `input.mock.durationMs` is real time (docs/workers.md):
 * it runs beside the others, in a run of its own against a mock of its own (the other rules move their mock's
 * clock by days, which would expire its job), so it adds no wall time.
 */
const QUEUE_RULES = '^QUEUE-(?!SYNC-002$)(JOB|SYNC|STREAM|CANCEL|RETRY|PURGE|HEALTH|EXEC|TTL|RETENTION|ERROR|REQUESTS)-';
const REAL_TIME_RULE = '^QUEUE-SYNC-002$';
let mock: RunningMock;
let realTimeMock: RunningMock;

beforeAll(async () => {
  const worker = `exec:${await bundledWorkerCommand('--handler conformance')}`;
  const start = () => startMock({ port: 0, clock: 'virtual', control: true, workers: { '*': worker }, workerKillGraceMs: 2000, templateDeleteDelayMs: 0 });
  [mock, realTimeMock] = await Promise.all([start(), start()]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), realTimeMock?.close()]);
  removeBundledWorker();
});

const target = (m: RunningMock): TargetConfig => ({
  name: 'mock with compute-contract worker processes', restUrl: m.restV1Url, queueUrl: `${m.url}/v2`, graphqlUrl: m.graphqlUrl,
  restV2Url: m.restV2Url, apiKey: 'mock-key', controlUrl: m.controlUrl, workerImage: 'compute-contract/conformance:1',
});

describe('compute-contract worker --handler conformance behind the mock', () => {
  it('runs a job end to end: the runtime takes it, runs input.mock, posts the result', async () => {
    const headers = { authorization: 'Bearer mock-key', 'content-type': 'application/json' };
    const tpl = await (await fetch(`${mock.restV1Url}/templates`, { method: 'POST', headers, body: JSON.stringify({ name: 'w-tpl', imageName: 'w:1', isServerless: true, volumeInGb: 0 }) })).json() as { id: string };
    const ep = await (await fetch(`${mock.restV1Url}/endpoints`, { method: 'POST', headers, body: JSON.stringify({ name: 'w-ep', templateId: tpl.id, workersMax: 1 }) })).json() as { id: string };
    const res = await fetch(`${mock.queueV2Url(ep.id)}/runsync?wait=60000`, { method: 'POST', headers, body: JSON.stringify({ input: { mock: { durationMs: 10, output: { ok: 1 } } } }) });
    expect(await res.json()).toMatchObject({ status: 'COMPLETED', output: { ok: 1 } });
    const streamed = await (await fetch(`${mock.queueV2Url(ep.id)}/runsync?wait=60000`, { method: 'POST', headers, body: JSON.stringify({ input: { mock: { durationMs: 30, stream: ['a', 'b'] } } }) })).json() as { output: unknown };
    expect(streamed.output).toEqual(['a', 'b']);
  }, 60_000);

  it('passes the queue rules', async () => {
    const run = (m: RunningMock, grep: string) => runConformance({ target: target(m), reportsDir: null, progress: false, settings: { grep, concurrency: 4, controlledJobTimeoutMs: 60_000 } });
    const [result, realTime] = await Promise.all([run(mock, QUEUE_RULES), run(realTimeMock, REAL_TIME_RULE)]);
    const ran = result.summary.results.filter((r) => r.outcome === 'pass');
    expect([...result.failing, ...realTime.failing].map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(ran.length).toBeGreaterThan(30);
    expect(ran.map((r) => r.id)).toEqual(expect.arrayContaining(['QUEUE-JOB-013', 'QUEUE-JOB-014']));
    expect(realTime.summary.results.filter((r) => r.outcome !== 'skip').map((r) => [r.id, r.outcome])).toEqual([['QUEUE-SYNC-002', 'pass']]);
  }, 600_000);
});
