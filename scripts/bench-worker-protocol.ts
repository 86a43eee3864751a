// Bench of worker processes behind the mock (run: `npm run bench:worker-protocol`), measured in one run:
//   1. /runsync of a no-op job through a warm `compute-contract worker` process vs the same handler in-process,
//      same mock: p50 latency difference (goal ≤ +5 ms: job-take is a long poll, not a polling loop)
//   2. four idle worker processes for 10 s: the mock's CPU time over that window, as % of one core (goal ≤ 1 %)
//   3. 1,000 no-op jobs through four worker processes: lost jobs and results accepted twice (goal 0 and 0)
// Loopback only; every loop is bounded in count and time.
import { startMock, type RunningMock } from '../src/mock/index.js';
import type { WorkerHandler } from '../src/mock/index.js';

const KEY = 'bench-key';
const SAMPLES = Number(process.env['BENCH_SAMPLES'] ?? 200);
const IDLE_MS = 10_000;
const JOBS = 1_000;
const WORKER = `exec:${process.execPath} --import tsx src/cli/main.ts worker --handler conformance`;
const noop: WorkerHandler = () => ({ ok: true });
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

async function endpoint(mock: RunningMock, name: string, workersMin: number, workersMax: number): Promise<string> {
  const template = mock.core.store.saveTemplate({ name: `tpl-${name}`, imageName: 'bench:1' });
  if (!template.ok) throw new Error(template.message);
  const created = mock.core.store.createEndpoint({ name, templateId: template.value.id, workersMin, workersMax, idleTimeout: 3600 });
  if (!created.ok) throw new Error(created.message);
  mock.core.engine.ensureEndpoint(created.value.id);
  return created.value.id;
}

async function runsync(mock: RunningMock, id: string, input: Record<string, unknown>): Promise<{ ms: number; body: any }> {
  const started = performance.now();
  const res = await fetch(`${mock.queueV2Url(id)}/runsync?wait=60000`, { method: 'POST', headers: auth, body: JSON.stringify({ input }) });
  const body = await res.json();
  return { ms: performance.now() - started, body };
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Waits (bounded) until the endpoint has `count` workers ready for work. */
async function untilReady(mock: RunningMock, id: string, count: number): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const health = mock.core.engine.health(id);
    if (health.workers.idle >= count) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`workers of ${id} not ready within 60 s`);
}

const mock = await startMock({ port: 0, rateLimits: false, apiKeys: [{ key: KEY, scopes: ['jobs', 'read', 'write'] }], workers: { inproc: noop, external: WORKER, idle: WORKER, many: WORKER } });
try {
  // 1. warm external worker vs in-process handler, interleaved so both see the same machine.
  const inproc = await endpoint(mock, 'inproc', 1, 1);
  const external = await endpoint(mock, 'external', 1, 1);
  await untilReady(mock, external, 1);
  for (let i = 0; i < 20; i++) await runsync(mock, external, { mock: { durationMs: 0 } }); // warm-up
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    a.push((await runsync(mock, inproc, { mock: { durationMs: 0 } })).ms);
    b.push((await runsync(mock, external, { mock: { durationMs: 0 } })).ms);
  }
  console.log(`1. /runsync no-op p50: in-process ${p50(a).toFixed(2)} ms, external worker ${p50(b).toFixed(2)} ms → +${(p50(b) - p50(a)).toFixed(2)} ms (goal ≤ +5 ms; ${SAMPLES} each, interleaved)`);

  // 2. four idle worker processes: the mock's own CPU (this process) over 10 s.
  const idle = await endpoint(mock, 'idle', 4, 4);
  await untilReady(mock, idle, 4);
  await new Promise((r) => setTimeout(r, 1000));
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const cpu = process.cpuUsage(cpuBefore);
  const share = ((cpu.user + cpu.system) / 1000) / (performance.now() - wallBefore) * 100;
  console.log(`2. mock CPU with 4 idle worker processes (plus the 2 warm ones above) over ${IDLE_MS / 1000} s: ${share.toFixed(2)} % of one core (goal ≤ 1 %)`);

  // 3. 1,000 no-op jobs through four worker processes: every job ends once, no result accepted twice.
  const many = await endpoint(mock, 'many', 4, 4);
  await untilReady(mock, many, 4);
  const accepted = new Map<string, number>();
  const engine = mock.core.engine;
  const original = engine.workerResult.bind(engine);
  engine.workerResult = (endpointId, jobId, workerId, result, isStream) => {
    const verdict = original(endpointId, jobId, workerId, result, isStream);
    if (verdict === 'accepted') accepted.set(jobId, (accepted.get(jobId) ?? 0) + 1);
    return verdict;
  };
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) {
    const res = await fetch(`${mock.queueV2Url(many)}/run`, { method: 'POST', headers: auth, body: JSON.stringify({ input: { n: i, mock: { durationMs: 0 } } }) });
    ids.push(((await res.json()) as { id: string }).id);
  }
  const started = performance.now();
  let completed = 0;
  for (const id of ids) {
    const res = await fetch(`${mock.queueV2Url(many)}/status-sync/${id}?wait=60000`, { headers: auth });
    if (((await res.json()) as { status: string }).status === 'COMPLETED') completed++;
  }
  const twice = [...accepted.values()].filter((n) => n > 1).length;
  console.log(`3. ${JOBS} no-op jobs through 4 worker processes: ${completed} COMPLETED, ${JOBS - completed} lost, ${twice} results accepted twice, ${accepted.size} accepted once or more (goal 0 lost, 0 twice); ${((performance.now() - started) / 1000).toFixed(1)} s after the last submission`);
} finally {
  await mock.close();
}
