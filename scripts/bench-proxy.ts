// Bench of the validating proxy (run: `tsx scripts/bench-proxy.ts`): overhead on GET
// /v2/{endpointId}/status/{jobId} of the reference mock, direct vs through `compute-contract proxy`,
// measured in the same run. Goals (issue 37): throughput ≥ 0.9× a bare forwarding pipe and ≥ 10× Prism
// 5.16's validating proxy (`prism proxy`, same queue v2 spec, same upstream); p50 added ≤ 1 ms.
//   p50: sequential requests on one keep-alive connection, alternating direct and proxied blocks
//   throughput: autocannon (16 connections), interleaved rounds, median of the per-round ratios
// The bare node:http pipe proxy (no judging) is the floor any Node proxy pays.
// Mock and proxies run in child processes (so the load generator does not steal their event loop);
// traffic is loopback only and every loop is bounded in count and time.
// BENCH_PROFILE_DIR=dir: the validating proxy's process writes a V8 CPU profile there (--cpu-prof) when it stops.
// Each round also gives the CPU per request (user + system, Linux /proc) of the proxy, the bare pipe and the
// mock behind each: the whole chain (load generator, proxy, mock) shares the machine's cores.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServedChild } from './bench/served-child.js';
import { cpuMsOf, cpuUsPerRequest } from './bench/process-cpu.js';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMock } from '../src/mock/index.js';
import { startProxy } from '../src/proxy/index.js';
import { autocannon } from './bench/autocannon.js';
import { keepTickObjectShape } from '../src/contract/tick-object-shape.js';
import { startPrism, stop as stopPrism, writeQueueSpecForPrism } from './targets/prism.js';


const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 16);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const LATENCY_REQUESTS = Number(process.env['BENCH_LATENCY_REQUESTS'] ?? 2000);
const KEY = 'bench-proxy-key';

// ---- child side ---------------------------------------------------------------------------

/** A mock with one completed job; prints its base URL and the status path of that job. */
async function serveMock(): Promise<{ url: string; path: string }> {
  const mock = await startMock({ clock: 'virtual', rateLimits: false, apiKeys: [{ key: KEY, scopes: ['jobs'] }] });
  const template = mock.core.store.saveTemplate({ name: 'bench', imageName: 'bench:1' });
  if (!template.ok) throw new Error(template.message);
  const endpoint = mock.core.store.createEndpoint({ templateId: template.value.id, workersMax: 1 });
  if (!endpoint.ok) throw new Error(endpoint.message);
  mock.core.engine.ensureEndpoint(endpoint.value.id);
  const job = mock.core.engine.submit(endpoint.value.id, 'run', { input: { prompt: 'bench', mock: { durationMs: 1 } } });
  for (let i = 0; i < 5; i++) mock.clock.advance(1);
  return { url: mock.url, path: `/v2/${endpoint.value.id}/status/${job.id}` };
}

async function serveProxy(upstream: string): Promise<{ url: string }> {
  const proxy = await startProxy({ upstream, port: 0 });
  return { url: proxy.url };
}

/** The floor: forward and pipe back, nothing else. */
async function serveBareProxy(upstream: string): Promise<{ url: string }> {
  // As the proxy and the mock do (src/contract/tick-object-shape.ts): no side runs nextTick in V8's slow state.
  keepTickObjectShape();
  const target = new URL(upstream);
  const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((req, res) => {
    const out = request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent: upstreamAgent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

// ---- parent side --------------------------------------------------------------------------

const PROFILE_DIR = process.env['BENCH_PROFILE_DIR'];
const child = <T>(...args: string[]) => startServedChild<T>(import.meta.url, args, args[0] === 'proxy' && PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : []);

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function once(url: string): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${KEY}` }, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${url}: ${res.statusCode}`))));
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** Sequential latency in alternating blocks of 100, so every side sees the same machine load. */
async function p50s(urls: Record<string, string>): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(urls).map((k) => [k, []]));
  for (const url of Object.values(urls)) for (let i = 0; i < 50; i++) await once(url); // warm-up
  for (let done = 0; done < LATENCY_REQUESTS; done += 100) {
    for (const [name, url] of Object.entries(urls)) for (let i = 0; i < 100; i++) times[name]!.push(await once(url));
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** Median over the rounds of process `a`'s CPU per request ÷ process `b`'s (undefined without /proc figures). */
function cpuRatio(rounds: { cpuUsPerRequest?: Record<string, number> }[], a: string, b: string): number | undefined {
  const ratios = rounds.flatMap(({ cpuUsPerRequest: cpu }) => (cpu?.[a] && cpu[b] ? [+(cpu[a] / cpu[b]).toFixed(1)] : []));
  return ratios.length ? median(ratios) : undefined;
}

/** Requests per second of `url`, and CPU µs per request of each process in `pids` (by name) during the load. */
async function rps(url: string, pids: Record<string, number | undefined> = {}): Promise<{ rps: number; cpuUs: Record<string, number | undefined> }> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMsOf(pid)]));
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: { authorization: `Bearer ${KEY}` } });
  const cpuUs = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuUsPerRequest(before[name], cpuMsOf(pid), result.requests.total)]));
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpuUs };
}

async function main(): Promise<void> {
  const serveIndex = process.argv.indexOf('--serve');
  if (serveIndex !== -1) {
    process.on('SIGTERM', () => process.exit(0));
    const kind = process.argv[serveIndex + 1];
    const upstream = process.argv[serveIndex + 2]!;
    const served = kind === 'mock' ? await serveMock() : kind === 'bare' ? await serveBareProxy(upstream) : await serveProxy(upstream);
    process.stdout.write(`${JSON.stringify(served)}\n`);
    return;
  }
  const mock = await child<{ url: string; path: string }>('mock');
  const proxy = await child<{ url: string }>('proxy', mock.served.url);
  const bare = await child<{ url: string }>('bare', mock.served.url);
  const specDir = mkdtempSync(join(tmpdir(), 'cc-bench-proxy-'));
  writeQueueSpecForPrism(join(specDir, 'queue-v2.json'));
  const prism = await startPrism(join(specDir, 'queue-v2.json'), mock.served.url);
  const urls = { direct: `${mock.served.url}${mock.served.path}`, proxied: `${proxy.served.url}${mock.served.path}`, bare: `${bare.served.url}${mock.served.path}`, prism: `${prism.url}${mock.served.path}` };
  interface Round { directRps: number; proxiedRps: number; bareProxyRps: number; prismProxyRps: number; ratio: number; bareRatio: number; vsBare: number; vsPrism: number; cpuUsPerRequest?: Record<string, number> }
  const rounds: Round[] = [];
  let latency: Record<string, number>;
  let tally: { totals: { judged: number; violations: number } };
  try {
    latency = await p50s({ direct: urls.direct, proxied: urls.proxied, bare: urls.bare });
    await rps(urls.prism); // Prism warms up (JIT, its spec) before its first measured load
    for (let round = 0; round < ROUNDS; round++) {
      // B P D X … each round in another order, so a drift of the machine's load spreads over all sides.
      const order = ['bare', 'proxied', 'direct', 'prism'] as const;
      const measured: Record<string, number> = {};
      const cpu: Record<string, number | undefined> = {};
      const pidsOf: Record<string, Record<string, number | undefined>> = {
        proxied: { proxy: proxy.proc.pid, mockBehindProxy: mock.proc.pid }, bare: { pipe: bare.proc.pid, mockBehindPipe: mock.proc.pid }, direct: { mockDirect: mock.proc.pid },
        prism: { prismProxy: prism.child.pid, mockBehindPrism: mock.proc.pid },
      };
      for (const name of round % 2 === 0 ? order : [...order].reverse()) {
        const result = await rps(urls[name], pidsOf[name]);
        measured[name] = result.rps;
        Object.assign(cpu, result.cpuUs);
      }
      const { direct: d, proxied: p, bare: b, prism: x } = measured as Record<(typeof order)[number], number>;
      const cpuUsPerRequest = Object.values(cpu).every((v) => v !== undefined) ? { cpuUsPerRequest: cpu as Record<string, number> } : {};
      rounds.push({ directRps: Math.round(d), proxiedRps: Math.round(p), bareProxyRps: Math.round(b), prismProxyRps: Math.round(x), ratio: +(p / d).toFixed(2), bareRatio: +(b / d).toFixed(2), vsBare: +(p / b).toFixed(2), vsPrism: +(p / x).toFixed(1), ...cpuUsPerRequest });
    }
    tally = (await (await fetch(`${proxy.served.url}/__proxy/report`)).json()) as typeof tally;
  } finally {
    agent.destroy();
    for (const c of [proxy, bare, mock]) c.proc.kill('SIGTERM');
    await stopPrism(prism.child);
    rmSync(specDir, { recursive: true, force: true });
  }
  const report = {
    request: 'GET /v2/{endpointId}/status/{jobId} (reference mock)',
    loadAverage: loadavg().map((value) => +value.toFixed(1)),
    latencyRequestsPerSide: LATENCY_REQUESTS,
    p50DirectMs: +latency['direct']!.toFixed(3),
    p50ProxiedMs: +latency['proxied']!.toFixed(3),
    p50AddedMs: +(latency['proxied']! - latency['direct']!).toFixed(3),
    p50Goal: '<= 1 ms added',
    p50AddedByBareProxyMs: +(latency['bare']! - latency['direct']!).toFixed(3),
    durationSecondsPerLoad: DURATION_S,
    connections: CONNECTIONS,
    rounds,
    proxiedVsBareProxy: median(rounds.map((r) => r.vsBare)),
    proxiedVsBareProxyGoal: '>= 0.9 (validating proxy / bare node:http pipe, requests per second, median of rounds)',
    proxiedVsPrismProxy: median(rounds.map((r) => r.vsPrism)),
    proxiedVsPrismProxyGoal: '>= 10 (validating proxy / prism proxy 5.16 on the same spec and upstream)',
    // The same comparison in CPU per request, the proxy's process against Prism's: on 2 cores the load generator
    // shares the machine, so the faster side's requests per second are partly the generator's limit.
    prismCpuPerRequestOverProxys: cpuRatio(rounds, 'prismProxy', 'proxy'),
    prismCpuPerRequestOverPipes: cpuRatio(rounds, 'prismProxy', 'pipe'),
    throughputRatio: median(rounds.map((r) => r.ratio)),
    bareProxyThroughputRatio: median(rounds.map((r) => r.bareRatio)),
    proxyJudged: tally.totals.judged,
    proxyViolations: tally.totals.violations,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (report.p50AddedMs > 1 || report.proxiedVsBareProxy < 0.9 || report.proxiedVsPrismProxy < 10 || report.proxyViolations > 0) {
    process.stdout.write('bench: a goal was missed\n');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
