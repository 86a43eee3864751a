// Bench of load-balancing endpoints (run: `npm run bench:lb`, part of `npm run bench`): a warm HTTP worker
// process (examples/lb-workers/server.mjs) called through the mock (`/lb/{id}/…`) vs the same worker called
// directly on its PORT, 16 connections, interleaved rounds. Goals (issue 40): p50 through the mock at most
// 2 ms above direct, throughput at least 0.8× direct (the mock is a thin router here).
// The mock runs in a child process (autocannon does not steal its CPU); traffic is loopback only, bounded in time.
import { resolve } from 'node:path';
import { startServedChild } from './bench/served-child.js';
import { startMock } from '../src/mock/index.js';
import { autocannon, type AutocannonResult } from './bench/autocannon.js';

const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 16);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const KEY = 'bench-key';
const BODY = JSON.stringify({ prompt: 'a lighthouse at dusk' });

interface Served { viaMock: string; direct: string }

async function serve(): Promise<void> {
  const mock = await startMock({
    rateLimits: false, apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs'] }],
    workers: { 'bench-lb': `exec:node ${resolve('examples/lb-workers/server.mjs')}` },
  });
  const created = await fetch(`${mock.restV2Url}/serverless`, {
    method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-lb', type: 'LOAD_BALANCER', image: 'bench:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'REQUEST_COUNT', requestCount: 1000 }, workers: { min: 1, max: 1, idleTimeout: 3600 } }),
  });
  const { id } = (await created.json()) as { id: string };
  // One request warms the worker (started, /ping 200); its address is then known.
  const warm = await fetch(`${mock.lbUrl(id)}/generate`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: BODY });
  if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}`);
  const direct = mock.loadBalancer.pool(id)!.view()[0]!.url!;
  process.on('SIGTERM', () => void mock.close().then(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ viaMock: `${mock.lbUrl(id)}/generate`, direct: `${direct}/generate` } satisfies Served)}\n`);
}

async function load(url: string): Promise<AutocannonResult> {
  const result = await autocannon({
    url, connections: CONNECTIONS, duration: DURATION_S, method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: BODY,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main(): Promise<void> {
  if (process.argv.includes('--serve')) return serve();
  // BENCH_CPU_PROF=DIR: the mock's process writes a V8 CPU profile there (node --cpu-prof) when it stops.
  const profileDir = process.env['BENCH_CPU_PROF'];
  const { proc, served } = await startServedChild<Served>(import.meta.url, [], profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
  const rounds: { directRps: number; mockRps: number; directP50Ms: number; mockP50Ms: number }[] = [];
  try {
    // Interleaved: the machine may be shared, so each ratio compares figures taken close together.
    for (let round = 0; round < ROUNDS; round++) {
      const direct = await load(served.direct);
      const viaMock = await load(served.viaMock);
      rounds.push({ directRps: Math.round(direct.requests.average), mockRps: Math.round(viaMock.requests.average), directP50Ms: direct.latency.p50, mockP50Ms: viaMock.latency.p50 });
    }
  } finally {
    proc.kill('SIGTERM');
    await new Promise((resolve) => proc.once('exit', resolve));
  }
  const throughputRatio = +median(rounds.map((r) => r.mockRps / r.directRps)).toFixed(2);
  const p50AddedMs = +median(rounds.map((r) => r.mockP50Ms - r.directP50Ms)).toFixed(2);
  process.stdout.write(`${JSON.stringify({
    connections: CONNECTIONS, durationSecondsPerLoad: DURATION_S, rounds,
    throughputMockVsDirect: throughputRatio, throughputGoal: '>= 0.8 (median of rounds)',
    p50AddedByMockMs: p50AddedMs, p50Goal: '<= 2 ms (median of rounds)',
  }, null, 2)}\n`);
  if (throughputRatio < 0.8 || p50AddedMs > 2) process.stdout.write('bench: a goal was missed\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
