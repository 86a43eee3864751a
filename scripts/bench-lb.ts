// Bench of load-balancing endpoints (run: `npm run bench:lb`, part of `npm run bench`): a warm HTTP worker
// process (examples/lb-workers/server.mjs) called through the mock (`/lb/{id}/…`) vs the same worker called
// directly on its PORT, 16 connections, interleaved rounds. Goals (issue 40): p50 through the mock at most
// 2 ms above direct, throughput at least 0.8× direct (the mock is a thin router here). Beside them, the same
// worker behind the thinnest node:http router (serveMinimalProxy), and each router's CPU per request: what a
// second HTTP hop costs on this machine whoever makes it, and what the mock adds to that.
// The mock runs in a child process (autocannon does not steal its CPU); traffic is loopback only, bounded in time.
import { loadavg } from 'node:os';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { cpuMsOf } from './bench/process-cpu.js';
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

/**
 * The thinnest router node:http makes (keep-alive agent, headers as they came, pipes both ways): what any Node
 * router costs on this machine, so the mock's own share is told apart from the second HTTP hop's.
 */
async function serveMinimalProxy(direct: string): Promise<void> {
  const worker = new URL(direct);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((req, res) => {
    const upstream = httpRequest({ host: worker.hostname, port: worker.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${worker.pathname}` })}\n`));
  process.on('SIGTERM', () => process.exit(0));
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
  const minimalAt = process.argv.indexOf('--minimal');
  if (minimalAt !== -1) return serveMinimalProxy(process.argv[minimalAt + 1]!);
  if (process.argv.includes('--serve')) return serve();
  // BENCH_CPU_PROF=DIR: the mock's process writes a V8 CPU profile there (node --cpu-prof) when it stops.
  const profileDir = process.env['BENCH_CPU_PROF'];
  const { proc, served } = await startServedChild<Served>(import.meta.url, [], profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []);
  const minimal = await startServedChild<{ url: string }>(import.meta.url, ['--minimal', served.direct]);
  const rounds: { directRps: number; minimalRps: number; mockRps: number; directP50Ms: number; minimalP50Ms: number; mockP50Ms: number; mockCpuUsPerRequest?: number; minimalCpuUsPerRequest?: number }[] = [];
  /** CPU µs per request of `pid` while `url` is loaded. */
  const measured = async (url: string, pid: number | undefined) => {
    const before = cpuMsOf(pid);
    const result = await load(url);
    const after = cpuMsOf(pid);
    const cpuUs = before !== undefined && after !== undefined ? Math.round((1000 * (after - before)) / (result.requests.average * DURATION_S)) : undefined;
    return { result, cpuUs };
  };
  try {
    // Interleaved: the machine may be shared, so each ratio compares figures taken close together.
    for (let round = 0; round < ROUNDS; round++) {
      const direct = await load(served.direct);
      const viaMinimal = await measured(minimal.served.url, minimal.proc.pid);
      const viaMock = await measured(served.viaMock, proc.pid);
      // CPU per forwarded request: what the router itself spends (a busy machine inflates it too, less than rates).
      rounds.push({
        directRps: Math.round(direct.requests.average), minimalRps: Math.round(viaMinimal.result.requests.average), mockRps: Math.round(viaMock.result.requests.average),
        directP50Ms: direct.latency.p50, minimalP50Ms: viaMinimal.result.latency.p50, mockP50Ms: viaMock.result.latency.p50,
        ...(viaMock.cpuUs !== undefined ? { mockCpuUsPerRequest: viaMock.cpuUs } : {}),
        ...(viaMinimal.cpuUs !== undefined ? { minimalCpuUsPerRequest: viaMinimal.cpuUs } : {}),
      });
    }
  } finally {
    for (const child of [proc, minimal.proc]) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  const throughputRatio = +median(rounds.map((r) => r.mockRps / r.directRps)).toFixed(2);
  const p50AddedMs = +median(rounds.map((r) => r.mockP50Ms - r.directP50Ms)).toFixed(2);
  process.stdout.write(`${JSON.stringify({
    connections: CONNECTIONS, durationSecondsPerLoad: DURATION_S, rounds,
    throughputMockVsDirect: throughputRatio, throughputGoal: '>= 0.8 (median of rounds)',
    p50AddedByMockMs: p50AddedMs, p50Goal: '<= 2 ms (median of rounds)',
    // The same figures against the thinnest node:http router in front of the same worker.
    throughputMockVsMinimalProxy: +median(rounds.map((r) => r.mockRps / r.minimalRps)).toFixed(2),
    p50AddedByMockOverMinimalProxyMs: +median(rounds.map((r) => r.mockP50Ms - r.minimalP50Ms)).toFixed(2),
    throughputMinimalProxyVsDirect: +median(rounds.map((r) => r.minimalRps / r.directRps)).toFixed(2),
    mockCpuUsPerRequest: median(rounds.map((r) => r.mockCpuUsPerRequest ?? Number.NaN)),
    minimalProxyCpuUsPerRequest: median(rounds.map((r) => r.minimalCpuUsPerRequest ?? Number.NaN)),
    loadAverage1m: +loadavg()[0]!.toFixed(2),
  }, null, 2)}\n`);
  if (throughputRatio < 0.8 || p50AddedMs > 2) process.stdout.write('bench: a goal was missed\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
