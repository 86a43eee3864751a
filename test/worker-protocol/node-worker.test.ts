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
 * The other queue rules share the clock too, so a run takes them one after another, each waiting on worker
 * processes in real time: they are split into three runs, each against a mock of its own, side by side
 * (the two 10 and 20 MB body rules, whose jobs carry the body through a worker and back, in one of them).
 */
const LONG_RULES = ['QUEUE-SYNC-002', 'QUEUE-EXEC-006', 'QUEUE-RETRY-003'];
const NOT_LONG = `(?!(${LONG_RULES.join('|')})$)`;
const QUEUE_RULES = new RegExp(`^${NOT_LONG}QUEUE-(JOB|SYNC|STREAM|CANCEL|RETRY|PURGE|HEALTH|EXEC|TTL|RETENTION|ERROR|REQUESTS)-`);
const SHARDS = ['QUEUE-JOB-01[34]$', 'QUEUE-(JOB-(?!01[34]$)|SYNC-|STREAM-)', 'QUEUE-(CANCEL|RETRY|PURGE|HEALTH|EXEC|TTL|RETENTION|ERROR|REQUESTS)-'].map((shard) => `^${NOT_LONG}${shard}`);
let mock: RunningMock;
let shardMocks: RunningMock[] = [];
let longMocks: RunningMock[] = [];

beforeAll(async () => {
  const worker = `exec:${await bundledWorkerCommand('--handler conformance')}`;
  const start = () => startMock({ port: 0, clock: 'virtual', control: true, workers: { '*': worker }, workerKillGraceMs: 2000, templateDeleteDelayMs: 0 });
  const started = await Promise.all([start(), ...SHARDS.map(start), ...LONG_RULES.map(start)]);
  mock = started[0]!;
  shardMocks = started.slice(1, 1 + SHARDS.length);
  longMocks = started.slice(1 + SHARDS.length);
});
afterAll(async () => {
  await Promise.all([mock?.close(), ...shardMocks.map((m) => m.close()), ...longMocks.map((m) => m.close())]);
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
    const [shards, long] = await Promise.all([Promise.all(SHARDS.map((grep, i) => run(shardMocks[i]!, grep))), Promise.all(LONG_RULES.map((id, i) => run(longMocks[i]!, `^${id}$`)))]);
    expect([...shards, ...long].flatMap((r) => r.failing).map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    // The shards together ran every queue rule the pattern selects, each once, and each passed (but the
    // rules that can be judged only in-process, against the embedded mock).
    const selected = (r: (typeof shards)[number]) => r.summary.results.filter((x) => x.skipKind !== 'filtered');
    const ran = shards.flatMap(selected);
    const wanted = shards[0]!.summary.results.map((r) => r.id).filter((id) => QUEUE_RULES.test(id));
    expect(ran.map((r) => r.id).sort()).toEqual(wanted.sort());
    expect(ran.filter((r) => r.outcome !== 'pass' && r.skipKind !== 'mock-only').map((r) => `${r.id}: ${r.outcome} ${r.reason ?? ''}`)).toEqual([]);
    expect(ran.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(30);
    expect(ran.filter((r) => r.outcome === 'pass').map((r) => r.id)).toEqual(expect.arrayContaining(['QUEUE-JOB-013', 'QUEUE-JOB-014']));
    expect(long.map((r) => r.summary.results.filter((x) => x.outcome !== 'skip').map((x) => [x.id, x.outcome]))).toEqual(LONG_RULES.map((id) => [[id, 'pass']]));
  }, 600_000);
});
