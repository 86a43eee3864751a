// `compute-contract worker --handler conformance` as the worker process of every endpoint: the conformance
// suite's queue rules pass behind the mock with it instead of the mock's in-process simulated handler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type TargetConfig } from '../../src/entries/conform.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { bundledWorkerCommand, removeBundledWorker } from './bundled-worker.js';

/**
 * The queue rules whose jobs run on workers (the rate, bounds, capacity and /openai rules never reach one).
 * In a worker process `input.mock.durationMs` is real time (docs/workers.md), and the rules whose jobs last
 * seconds (QUEUE-SYNC-002 8 s, QUEUE-EXEC-006 8 s, QUEUE-RETRY-003 5 s) run alone in a run (they move the
 * clock): each runs beside the others, in a run of its own against a mock of its own (the other rules move
 * their mock's clock by days, which would expire its jobs), so their real waits overlap instead of adding up.
 */
const LONG_RULES = ['QUEUE-SYNC-002', 'QUEUE-EXEC-006', 'QUEUE-RETRY-003'];
const QUEUE_RULES = `^QUEUE-(?!(${LONG_RULES.map((id) => id.slice('QUEUE-'.length)).join('|')})$)(JOB|SYNC|STREAM|CANCEL|RETRY|PURGE|HEALTH|EXEC|TTL|RETENTION|ERROR|REQUESTS)-`;
let mock: RunningMock;
let longMocks: RunningMock[] = [];

beforeAll(async () => {
  const worker = `exec:${await bundledWorkerCommand('--handler conformance')}`;
  const start = () => startMock({ port: 0, clock: 'virtual', control: true, workers: { '*': worker }, workerKillGraceMs: 2000, templateDeleteDelayMs: 0 });
  [mock, ...longMocks] = await Promise.all([start(), ...LONG_RULES.map(start)]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), ...longMocks.map((m) => m.close())]);
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
    const [result, ...long] = await Promise.all([run(mock, QUEUE_RULES), ...LONG_RULES.map((id, i) => run(longMocks[i]!, `^${id}$`))]);
    const ran = result.summary.results.filter((r) => r.outcome === 'pass');
    expect([...result.failing, ...long.flatMap((r) => r.failing)].map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(ran.length).toBeGreaterThan(30);
    expect(ran.map((r) => r.id)).toEqual(expect.arrayContaining(['QUEUE-JOB-013', 'QUEUE-JOB-014']));
    expect(long.map((r) => r.summary.results.filter((x) => x.outcome !== 'skip').map((x) => [x.id, x.outcome]))).toEqual(LONG_RULES.map((id) => [[id, 'pass']]));
  }, 600_000);
});
