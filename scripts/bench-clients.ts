/**
 * Client benchmarks (issue 4 goals), printed as JSON:
 * 1. overhead of `queue.status()` vs raw `fetch` on the same local server (goal ≤ 1.1×), interleaved
 *    rounds, median per-request time; with request validation on (default) and off;
 * 2. queue-client bundle size min+gz via esbuild (goal ≤ 10 kB), without the lazily loaded validators
 *    (what every user pays) and with them (what the first validated call loads).
 * Bounded: fixed request counts, loopback only. Usage: `tsx scripts/bench-clients.ts [--requests N]`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { createQueueClient } from '../src/clients/index.js';

const argIndex = process.argv.indexOf('--requests');
const REQUESTS_PER_ROUND = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 500;
const ROUNDS = 7;
const MAX_TOTAL_MS = 60_000;

const record = JSON.stringify({ id: 'job-1-u1', status: 'COMPLETED', delayTime: 10, executionTime: 20, output: { text: 'hello' } });

async function startServer() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(record) }).end(record);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function timePerRequest(fn: () => Promise<unknown>, count: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) await fn();
  return (performance.now() - start) / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function overhead() {
  const { server, url } = await startServer();
  const apiKey = 'bench-key-0000';
  const raw = async () => {
    const response = await fetch(`${url}/v2/ep-1/status/job-1-u1`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } });
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  };
  const validated = createQueueClient({ endpointBaseUrl: `${url}/v2`, endpointId: 'ep-1', apiKey });
  const unvalidated = createQueueClient({ endpointBaseUrl: `${url}/v2`, endpointId: 'ep-1', apiKey, validateRequests: false });
  const samples = { raw: [] as number[], validated: [] as number[], unvalidated: [] as number[] };
  const started = performance.now();
  // Warm-up: JIT, keep-alive sockets, lazy validator import.
  await timePerRequest(raw, 200);
  await timePerRequest(() => validated.status('job-1-u1'), 200);
  await timePerRequest(() => unvalidated.status('job-1-u1'), 200);
  for (let round = 0; round < ROUNDS && performance.now() - started < MAX_TOTAL_MS; round++) {
    samples.raw.push(await timePerRequest(raw, REQUESTS_PER_ROUND));
    samples.validated.push(await timePerRequest(() => validated.status('job-1-u1'), REQUESTS_PER_ROUND));
    samples.unvalidated.push(await timePerRequest(() => unvalidated.status('job-1-u1'), REQUESTS_PER_ROUND));
  }
  server.closeAllConnections();
  server.close();
  const rawMs = median(samples.raw);
  return {
    requestsPerRound: REQUESTS_PER_ROUND,
    rounds: samples.raw.length,
    rawFetchMsPerRequest: round3(rawMs),
    statusMsPerRequest: round3(median(samples.validated)),
    statusNoValidationMsPerRequest: round3(median(samples.unvalidated)),
    ratioValidated: round3(median(samples.validated) / rawMs),
    ratioNoValidation: round3(median(samples.unvalidated) / rawMs),
    goal: '<= 1.1',
  };
}

const externalValidation: Plugin = {
  name: 'external-validation',
  setup(builder) {
    builder.onResolve({ filter: /validation\/index\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

async function bundleSize(withValidation: boolean) {
  const entry = fileURLToPath(new URL('../src/clients/queue-client.ts', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    external: ['node:*'],
    plugins: withValidation ? [] : [externalValidation],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { minBytes: code.length, minGzBytes: gzipSync(code, { level: 9 }).length };
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

const report = {
  statusOverhead: await overhead(),
  queueClientBundle: { core: await bundleSize(false), withValidators: await bundleSize(true), goal: 'core min+gz <= 10240 bytes' },
};
console.log(JSON.stringify(report, null, 2));
