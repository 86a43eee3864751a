// Bench of the simulated workers (run: `npm run bench:workers`); ratios and deviations measured in one run:
//   1. /runsync throughput of an endpoint whose worker is a stub (three rules, the default one matching)
//      vs the default echo worker, same mock, jobs of 0 ms (goal: stub cost ≤ 1.1× echo)
//   2. an SSE chat stream of 100 chunks from a stub asking for 1000 ms (chunk k due at k × 10 ms):
//      on the virtual clock every chunk arrives in order exactly at its due instant (goal: exact); on the
//      real clock, how far arrivals deviate from the asked timing (reported)
// The load target runs in a child process (autocannon does not steal its CPU); traffic is loopback only
// and every loop is bounded in time.
import { startServedChild } from './bench/served-child.js';
import type { ChildProcess } from 'node:child_process';
import { startMock, type RunningMock } from '../src/mock/index.js';
import { autocannon } from './bench/autocannon.js';

const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 16);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const KEY = 'bench-key';
const CHUNKS = 100;
const STREAM_MS = 1_000;
const STUBS = [
  { match: { prompt: 'refuse me' }, error: 'refused', durationMs: 0 },
  { match: { size: { width: 64 } }, output: { image_url: 'https://example.test/small.png' }, durationMs: 0 },
  { output: { image_url: 'https://example.test/default.png' }, durationMs: 0 },
];
const STREAMED = Array.from({ length: CHUNKS }, (_, i) => `t${i} `);

async function endpoint(mock: RunningMock, name: string, imageName = 'bench:1'): Promise<string> {
  const template = mock.core.store.saveTemplate({ name: `tpl-${name}`, imageName });
  if (!template.ok) throw new Error(template.message);
  const created = mock.core.store.createEndpoint({ name, templateId: template.value.id, workersMin: 0, workersMax: 100 });
  if (!created.ok) throw new Error(created.message);
  mock.core.engine.ensureEndpoint(created.value.id);
  return created.value.id;
}

// ---- child: the load target ------------------------------------------------------------------

async function serveLoadTarget(): Promise<void> {
  const mock = await startMock({
    rateLimits: false, jobDurationMs: 0, apiKeys: [{ key: KEY, scopes: ['jobs'] }],
    limits: { maxJobsPerEndpoint: 10_000_000, maxJobsTotal: 10_000_000 }, workers: { stubbed: STUBS },
  });
  const urls = { echo: `${mock.queueV2Url(await endpoint(mock, 'echo'))}/runsync`, stub: `${mock.queueV2Url(await endpoint(mock, 'stubbed'))}/runsync` };
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write(`${JSON.stringify(urls)}\n`);
}

async function loadTarget(): Promise<{ proc: ChildProcess; urls: { echo: string; stub: string } }> {
  const { proc, served } = await startServedChild<{ echo: string; stub: string }>(import.meta.url, []);
  return { proc, urls: served };
}

async function runsyncRps(url: string): Promise<number> {
  const result = await autocannon({
    url, connections: CONNECTIONS, duration: DURATION_S, method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ input: { prompt: 'a lighthouse', size: { width: 512, height: 512 } } }),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

// ---- the stream ------------------------------------------------------------------------------

/** Opens the 100-chunk chat stream; returns a reader that records each chunk with the time it arrived. */
async function openStream(mock: RunningMock, endpointId: string, stamp: () => number) {
  const response = await fetch(`${mock.queueV2Url(endpointId)}/openai/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  });
  const arrivals: { text: string; at: number }[] = [];
  let done = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const data = buffer.slice(6, end);
        buffer = buffer.slice(end + 2);
        if (data === '[DONE]') done = true;
        else {
          const content = JSON.parse(data).choices?.[0]?.delta?.content;
          if (content) arrivals.push({ text: content, at: stamp() });
        }
      }
    }
  })();
  return { arrivals, reading, isDone: () => done };
}

async function streamOnVirtualClock(): Promise<{ inOrder: boolean; exact: boolean; maxDeviationMs: number }> {
  const mock = await startMock({ clock: 'virtual', control: true, apiKeys: [{ key: KEY, scopes: ['jobs'] }], workers: { streamer: [{ stream: STREAMED, durationMs: STREAM_MS }] } });
  try {
    const id = await endpoint(mock, 'streamer');
    const start = mock.clock.now();
    const stream = await openStream(mock, id, () => mock.clock.now() - start);
    let maxDeviation = 0;
    for (let k = 1; k <= CHUNKS; k++) {
      await fetch(`${mock.controlUrl}/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: STREAM_MS / CHUNKS }) });
      const deadline = Date.now() + 2_000;
      while (stream.arrivals.length < k && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      // Nothing early: exactly k chunks once the clock reached chunk k's instant.
      if (stream.arrivals.length !== k) return { inOrder: false, exact: false, maxDeviationMs: Infinity };
      maxDeviation = Math.max(maxDeviation, Math.abs(stream.arrivals[k - 1]!.at - (k * STREAM_MS) / CHUNKS));
    }
    await stream.reading;
    const inOrder = stream.arrivals.map((a) => a.text).join('') === STREAMED.join('') && stream.isDone();
    return { inOrder, exact: maxDeviation === 0, maxDeviationMs: maxDeviation };
  } finally {
    await mock.close();
  }
}

async function streamOnRealClock(): Promise<{ inOrder: boolean; p50DeviationMs: number; maxDeviationMs: number }> {
  const mock = await startMock({ apiKeys: [{ key: KEY, scopes: ['jobs'] }], workers: { streamer: [{ stream: STREAMED, durationMs: STREAM_MS }] } });
  try {
    const id = await endpoint(mock, 'streamer');
    const start = performance.now();
    const stream = await openStream(mock, id, () => performance.now() - start);
    await stream.reading;
    const deviations = stream.arrivals.map((a, i) => Math.abs(a.at - ((i + 1) * STREAM_MS) / CHUNKS)).sort((a, b) => a - b);
    return {
      inOrder: stream.arrivals.map((a) => a.text).join('') === STREAMED.join('') && stream.isDone(),
      p50DeviationMs: +deviations[deviations.length >> 1]!.toFixed(1),
      maxDeviationMs: +deviations.at(-1)!.toFixed(1),
    };
  } finally {
    await mock.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main(): Promise<void> {
  if (process.argv.includes('--serve')) return serveLoadTarget();
  const target = await loadTarget();
  const rounds: { echoRps: number; stubRps: number }[] = [];
  try {
    // Interleaved rounds: the machine may be shared, so compare figures taken close together.
    for (let round = 0; round < ROUNDS; round++) rounds.push({ echoRps: Math.round(await runsyncRps(target.urls.echo)), stubRps: Math.round(await runsyncRps(target.urls.stub)) });
  } finally {
    target.proc.kill('SIGTERM');
  }
  process.stderr.write(`bench:workers: /runsync rounds ${JSON.stringify(rounds)}\n`);
  const stubCost = +median(rounds.map((r) => r.echoRps / r.stubRps)).toFixed(2);
  const virtual = await streamOnVirtualClock();
  process.stderr.write(`bench:workers: virtual-clock stream ${JSON.stringify(virtual)}\n`);
  const real = await streamOnRealClock();
  const report = {
    durationSecondsPerLoad: DURATION_S, connections: CONNECTIONS, rounds,
    stubCostVsEcho: stubCost, stubGoal: '<= 1.1 (echo rps / stub rps on /runsync, median of rounds)',
    stream100Virtual: virtual, streamGoal: 'in order, each chunk at k x 10 ms of virtual time (exact)',
    stream100Real: real,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (stubCost > 1.1 || !virtual.inOrder || !virtual.exact || !real.inOrder) process.stdout.write('bench: a goal was missed\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
