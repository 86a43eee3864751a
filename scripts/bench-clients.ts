/**
 * Client benchmarks (issue 4 goals), printed as JSON:
 * 1. overhead of `queue.status()` vs raw `fetch` on the same local server (goal ≤ 1.1×). The server runs
 *    in a child process; variants alternate in short rounds and the figure is the median of the
 *    per-round ratios (paired), which this noisy 2-core VM needs for a stable number. Also reported:
 *    raw fetch with an equivalent per-request timeout signal (what any client with a timeout pays),
 *    openapi-fetch alone (the floor of a client built on it), and
 *    the client's own CPU cost per call in µs against an in-process fetch that answers instantly;
 * 2. queue-client and REST v2 client bundle sizes min+gz via esbuild (goal ≤ 10 kB each), without the lazily loaded validators
 *    (what every user pays) and with them (what the first validated call loads).
 * Bounded: fixed request counts and a time cap, loopback only.
 * Usage: `tsx scripts/bench-clients.ts [--requests N] [--rounds N]`.
 */
import { fork } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import createClient from 'openapi-fetch';
import type { paths as QueueV2Paths } from '../generated/queue-v2/types.js';
import { createQueueClient } from '../src/clients/index.js';

const numberArg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const REQUESTS_PER_ROUND = numberArg('--requests', 150);
const ROUNDS = numberArg('--rounds', 41);
const MAX_TOTAL_MS = 90_000;
const API_KEY = 'bench-key-0000';
const JOB = 'job-1-u1';

type Variant = () => Promise<unknown>;

async function startServer() {
  const child = fork(fileURLToPath(new URL('./bench/fixed-json-server.mjs', import.meta.url)));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('error', reject);
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.disconnect() };
}

async function timePerRequestUs(fn: Variant, count: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) await fn();
  return ((performance.now() - start) / count) * 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Runs the variants in alternating order, round after round; per-request µs per variant and round. */
async function rounds(variants: Record<string, Variant>, requests: number, count: number) {
  const names = Object.keys(variants);
  for (const name of names) await timePerRequestUs(variants[name]!, 200); // JIT, sockets, lazy imports
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const started = performance.now();
  for (let round = 0; round < count && performance.now() - started < MAX_TOTAL_MS; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) samples[name]!.push(await timePerRequestUs(variants[name]!, requests));
  }
  return samples;
}

const pairedRatio = (samples: Record<string, number[]>, name: string, baseline: string) =>
  round3(median(samples[name]!.map((value, index) => value / samples[baseline]![index]!)));

async function overheadOnLoopback() {
  const { url, stop } = await startServer();
  const statusUrl = `${url}/v2/ep-1/status/${JOB}`;
  const headers = { authorization: `Bearer ${API_KEY}`, accept: 'application/json' };
  const readJson = async (response: Response) => {
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  };
  const client = (options: { validateRequests?: boolean } = {}) =>
    createQueueClient({ endpointBaseUrl: `${url}/v2`, endpointId: 'ep-1', apiKey: API_KEY, ...options });
  const plain = createClient<QueueV2Paths>({ baseUrl: `${url}/v2/ep-1`, headers });
  const validated = client();
  const unvalidated = client({ validateRequests: false });
  const samples = await rounds(
    {
      rawFetch: async () => readJson(await fetch(statusUrl, { headers })),
      rawFetchWithTimeout: async () => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 60_000);
        try {
          return await readJson(await fetch(statusUrl, { headers, signal: controller.signal }));
        } finally {
          clearTimeout(timer);
        }
      },
      // openapi-fetch alone (default Request and fetch, no retries, no timeout): the floor of any
      // client built on it, to tell its share of the overhead from ours.
      openapiFetchAlone: async () => (await plain.GET('/status/{jobId}', { params: { path: { jobId: JOB } } })).data,
      status: () => validated.status(JOB),
      statusNoValidation: () => unvalidated.status(JOB),
    },
    REQUESTS_PER_ROUND,
    ROUNDS,
  );
  stop();
  return {
    requestsPerRound: REQUESTS_PER_ROUND,
    rounds: samples.rawFetch!.length,
    rawFetchUsPerRequest: round3(median(samples.rawFetch!)),
    statusUsPerRequest: round3(median(samples.status!)),
    ratioValidated: pairedRatio(samples, 'status', 'rawFetch'),
    ratioNoValidation: pairedRatio(samples, 'statusNoValidation', 'rawFetch'),
    ratioRawFetchWithTimeout: pairedRatio(samples, 'rawFetchWithTimeout', 'rawFetch'),
    ratioOpenapiFetchAlone: pairedRatio(samples, 'openapiFetchAlone', 'rawFetch'),
    goal: 'ratioValidated <= 1.1',
  };
}

/** The client's own work per call, without a network: fetch answers at once from memory. */
async function clientCpuPerCall() {
  const record = JSON.stringify({ id: JOB, status: 'COMPLETED', delayTime: 10, executionTime: 20, output: { text: 'hello' } });
  const instantFetch = async () => new Response(record, { headers: { 'content-type': 'application/json', 'content-length': String(record.length) } });
  const client = createQueueClient({ endpointBaseUrl: 'http://127.0.0.1:9/v2', endpointId: 'ep-1', apiKey: API_KEY, fetch: instantFetch });
  const samples = await rounds({ instantFetch: async () => (await instantFetch()).json(), status: () => client.status(JOB) }, 1000, 21);
  const extra = samples.status!.map((value, index) => value - samples.instantFetch![index]!);
  return { extraUsPerCall: round3(median(extra)), instantFetchUsPerCall: round3(median(samples.instantFetch!)) };
}

const externalValidation: Plugin = {
  name: 'external-validation',
  setup(builder) {
    builder.onResolve({ filter: /validation\/index\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

async function bundleSize(withValidation: boolean, client = 'queue-client.ts') {
  const entry = fileURLToPath(new URL(`../src/clients/${client}`, import.meta.url));
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
  statusOverhead: await overheadOnLoopback(),
  clientCpu: await clientCpuPerCall(),
  queueClientBundle: { core: await bundleSize(false), withValidators: await bundleSize(true), goal: 'core min+gz <= 10240 bytes' },
  restV2ClientBundle: { core: await bundleSize(false, 'rest-v2/index.ts'), withValidators: await bundleSize(true, 'rest-v2/index.ts'), goal: 'core min+gz <= 10240 bytes' },
};
console.log(JSON.stringify(report, null, 2));
