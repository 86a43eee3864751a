/**
 * Overhead of a typed queue `status()` against a raw `fetch` of the same record from the same local server
 * (fixed-json-server.mjs, in its own process so its CPU does not count against the client), next to the
 * official runpod-sdk's `status()`. Variants alternate in short rounds and each figure is the median of the
 * per-round ratios (paired), which a noisy 2-core VM needs for a stable number. Bounded: fixed request
 * counts and a time cap, loopback only. Shared by bench:clients (src) and bench:package (the installed tarball).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import runpodSdk from 'runpod-sdk';
import type { paths as QueueV2Paths } from '../../generated/queue-v2/types.js';

/** The slice of the package's createQueueClient the bench uses (from src/ or from an installed dist/). */
export type CreateQueueClient = (options: {
  endpointBaseUrl: string;
  endpointId: string;
  apiKey: string;
  validateRequests?: boolean;
}) => { status(jobId: string): Promise<unknown> };

export interface OverheadSettings {
  requestsPerRound: number;
  rounds: number;
  maxTotalMs: number;
}

const API_KEY = 'bench-key-0000';
const JOB = 'job-1-u1';

type Variant = () => Promise<unknown>;

export async function startFixedJsonServer() {
  const child = fork(fileURLToPath(new URL('./fixed-json-server.mjs', import.meta.url)));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('error', reject);
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.disconnect() };
}

async function timePerRequestUs(fn: Variant, count: number, cpu?: number[]): Promise<number> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) await fn();
  const wallUs = ((performance.now() - start) / count) * 1000;
  if (cpu) {
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / count);
  }
  return wallUs;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
export const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Runs the variants in alternating order, round after round; per-request µs per variant and round: wall
 * time in the returned samples, this process's CPU time in `cpu` (when given), which other load on the
 * machine disturbs far less than wall time.
 */
export async function rounds(variants: Record<string, Variant>, requests: number, count: number, maxTotalMs: number, cpu?: Record<string, number[]>) {
  const names = Object.keys(variants);
  for (const name of names) await timePerRequestUs(variants[name]!, 200); // JIT, sockets, lazy imports
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) if (cpu) cpu[name] = [];
  const started = performance.now();
  for (let round = 0; round < count && performance.now() - started < maxTotalMs; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) samples[name]!.push(await timePerRequestUs(variants[name]!, requests, cpu?.[name]));
  }
  return samples;
}

const pairedRatio = (samples: Record<string, number[]>, name: string, baseline: string) =>
  round3(median(samples[name]!.map((value, index) => value / samples[baseline]![index]!)));

export async function measureStatusOverhead(createQueueClient: CreateQueueClient, settings: OverheadSettings) {
  const { url, stop } = await startFixedJsonServer();
  try {
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
    // The official JS SDK (devDependency, pinned 1.1.2) reading the same record: the client we want to replace.
    const sdkEndpoint = runpodSdk(API_KEY, { baseUrl: `${url}/v2` }).endpoint('ep-1');
    if (!sdkEndpoint) throw new Error('runpod-sdk returned no endpoint');
    const cpu: Record<string, number[]> = {};
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
        // openapi-fetch alone (default Request and fetch, no retries, no timeout): what a client built
        // on it pays without any work of its own.
        openapiFetchAlone: async () => (await plain.GET('/status/{jobId}', { params: { path: { jobId: JOB } } })).data,
        status: () => validated.status(JOB),
        statusNoValidation: () => unvalidated.status(JOB),
        runpodSdkStatus: () => sdkEndpoint.status(JOB),
      },
      settings.requestsPerRound,
      settings.rounds,
      settings.maxTotalMs,
      cpu,
    );
    return {
      requestsPerRound: settings.requestsPerRound,
      rounds: samples.rawFetch!.length,
      rawFetchUsPerRequest: round3(median(samples.rawFetch!)),
      statusUsPerRequest: round3(median(samples.status!)),
      ratioValidated: pairedRatio(samples, 'status', 'rawFetch'),
      ratioNoValidation: pairedRatio(samples, 'statusNoValidation', 'rawFetch'),
      ratioRawFetchWithTimeout: pairedRatio(samples, 'rawFetchWithTimeout', 'rawFetch'),
      ratioOpenapiFetchAlone: pairedRatio(samples, 'openapiFetchAlone', 'rawFetch'),
      ratioRunpodSdk: pairedRatio(samples, 'runpodSdkStatus', 'rawFetch'),
      // The same ratios in this (client) process's CPU time per request: the server runs in its own process.
      cpu: {
        rawFetchUsPerRequest: round3(median(cpu.rawFetch!)),
        ratioValidated: pairedRatio(cpu, 'status', 'rawFetch'),
        ratioOpenapiFetchAlone: pairedRatio(cpu, 'openapiFetchAlone', 'rawFetch'),
        ratioRawFetchWithTimeout: pairedRatio(cpu, 'rawFetchWithTimeout', 'rawFetch'),
        ratioRunpodSdk: pairedRatio(cpu, 'runpodSdkStatus', 'rawFetch'),
      },
      goal: 'ratioValidated <= 1.1 and below ratioRunpodSdk',
    };
  } finally {
    stop();
  }
}
