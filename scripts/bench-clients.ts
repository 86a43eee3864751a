/**
 * Client benchmarks (issue 4 goals), printed as JSON:
 * 1. overhead of `queue.status()` vs raw `fetch` on the same local server (goal ≤ 1.1×). The server runs
 *    in a child process; variants alternate in short rounds and the figure is the median of the
 *    per-round ratios (paired), which this noisy 2-core VM needs for a stable number. Also reported:
 *    raw fetch with an equivalent per-request timeout signal (what any client with a timeout pays),
 *    openapi-fetch alone, the official runpod-sdk's status() (goal: ours below it), and
 *    the client's own CPU cost per call in µs against an in-process fetch that answers instantly;
 * 2. queue-client and REST v2 client bundle sizes min+gz via esbuild (goal ≤ 10 kB each): the entry and its static
 *    imports, without what loads lazily (the validators; REST v2's sandbox and secret rows) — what every user pays;
 * 3. per client (REST v1, queue v2, REST v2): the chunks its first validated call loads lazily, from an esbuild
 *    build with code splitting (each chunk gzipped on its own, as a browser fetches them), and which surfaces'
 *    generated validators they hold.
 * Bounded: fixed request counts and a time cap, loopback only.
 * Usage: `tsx scripts/bench-clients.ts [--requests N] [--rounds N] [--bundles-only]` (--bundles-only: sizes, no timing).
 */
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { createQueueClient } from '../src/clients/index.js';
import { measureStatusOverhead, median, round3, rounds } from './bench/status-overhead.js';

const numberArg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const REQUESTS_PER_ROUND = numberArg('--requests', 150);
const ROUNDS = numberArg('--rounds', 41);
const MAX_TOTAL_MS = 90_000;
const API_KEY = 'bench-key-0000';
const JOB = 'job-1-u1';

const overheadOnLoopback = () =>
  measureStatusOverhead(createQueueClient, { requestsPerRound: REQUESTS_PER_ROUND, rounds: ROUNDS, maxTotalMs: MAX_TOTAL_MS });

/** The client's own work per call, without a network: fetch answers at once from memory. */
async function clientCpuPerCall() {
  const record = JSON.stringify({ id: JOB, status: 'COMPLETED', delayTime: 10, executionTime: 20, output: { text: 'hello' } });
  const instantFetch = async () => new Response(record, { headers: { 'content-type': 'application/json', 'content-length': String(record.length) } });
  const client = createQueueClient({ endpointBaseUrl: 'http://127.0.0.1:9/v2', endpointId: 'ep-1', apiKey: API_KEY, fetch: instantFetch });
  const samples = await rounds({ instantFetch: async () => (await instantFetch()).json(), status: () => client.status(JOB) }, 1000, 21, MAX_TOTAL_MS);
  const extra = samples.status!.map((value, index) => value - samples.instantFetch![index]!);
  return { extraUsPerCall: round3(median(extra)), instantFetchUsPerCall: round3(median(samples.instantFetch!)) };
}

// Everything under src/validation/ stays out of the core bundle: the clients only ever import it lazily.
const externalValidation: Plugin = {
  name: 'external-validation',
  setup(builder) {
    builder.onResolve({ filter: /\/validation\/[\w./-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

const clientEntry = (client: string) => fileURLToPath(new URL(`../src/clients/${client}`, import.meta.url));
const esbuildOptions = {
  bundle: true,
  minify: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  mainFields: ['module', 'main'],
  external: ['node:*'],
  logLevel: 'silent',
} satisfies BuildOptions;

/**
 * What a client's import loads up front: its entry chunk and the chunks it imports statically, from a
 * build with code splitting (what the client loads with import() on first use of a rarely used operation,
 * such as REST v2's sandbox and secret rows, is a chunk of its own and not counted; the validators are
 * left out altogether). Each chunk gzipped on its own, as a browser fetches them.
 */
async function bundleSize(client: string) {
  const result = await build({ ...esbuildOptions, entryPoints: [clientEntry(client)], plugins: [externalValidation], splitting: true, outdir: '/bench-out', metafile: true });
  const metafile = result.metafile;
  const entry = Object.keys(metafile.outputs).find((file) => metafile.outputs[file]?.entryPoint?.endsWith(`src/clients/${client}`));
  if (!entry) throw new Error(`no entry chunk for ${client}`);
  const contents = new Map(result.outputFiles.map((out) => [out.path, out.contents]));
  const files = [...staticClosure(metafile, [entry])].map((file) => contents.get(resolve(file)) ?? new Uint8Array());
  return { minBytes: files.reduce((sum, code) => sum + code.length, 0), minGzBytes: files.reduce((sum, code) => sum + gzipSync(code, { level: 9 }).length, 0), chunks: files.length };
}

/** Output files reachable from `start` over static imports, minus those in `except`. */
function staticClosure(metafile: Metafile, start: string[], except = new Set<string>()): Set<string> {
  const seen = new Set<string>();
  const queue = start.filter((file) => !except.has(file));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of metafile.outputs[file]?.imports ?? []) {
      if (edge.kind === 'import-statement' && !edge.external && !except.has(edge.path)) queue.push(edge.path);
    }
  }
  return seen;
}

/**
 * What the first validated call of a client loads: the dynamic-import target chunks of its core whose
 * module names its surface (or, with a loader shared by all surfaces, the only target), plus their own
 * static imports that the core does not already hold.
 */
async function lazyValidators(client: string, surfaceDir: string) {
  // Nothing is written (write: false); esbuild only needs an outdir to name the chunks.
  const result = await build({ ...esbuildOptions, entryPoints: [clientEntry(client)], splitting: true, outdir: '/bench-out', metafile: true });
  const metafile = result.metafile;
  const outputs = Object.keys(metafile.outputs);
  const entry = outputs.find((file) => metafile.outputs[file]?.entryPoint?.endsWith(`src/clients/${client}`));
  if (!entry) throw new Error(`no entry chunk for ${client}`);
  const core = staticClosure(metafile, [entry]);
  const targets = [...core].flatMap((file) => metafile.outputs[file]!.imports.filter((edge) => edge.kind === 'dynamic-import' && !edge.external).map((edge) => edge.path));
  const validationTargets = [...new Set(targets)].filter((file) => /src\/validation\//.test(metafile.outputs[file]?.entryPoint ?? ''));
  const forSurface = validationTargets.filter((file) => metafile.outputs[file]!.entryPoint!.includes(surfaceDir));
  const picked = forSurface.length > 0 ? forSurface : validationTargets;
  const loaded = staticClosure(metafile, picked, core);
  const contents = new Map(result.outputFiles.map((out) => [out.path, out.contents]));
  const bytes = (file: string) => contents.get(resolve(file)) ?? new Uint8Array();
  const files = [...loaded];
  const surfacesHeld = new Set(
    files.flatMap((file) => Object.keys(metafile.outputs[file]!.inputs).map((input) => /generated\/validators\/([\w-]+?)(?:\.params)?\.js$/.exec(input)?.[1])).filter((name): name is string => name !== undefined),
  );
  return {
    loadedModule: picked.map((file) => metafile.outputs[file]!.entryPoint).join(', '),
    chunks: files.length,
    minBytes: files.reduce((sum, file) => sum + bytes(file).length, 0),
    minGzBytes: files.reduce((sum, file) => sum + gzipSync(bytes(file), { level: 9 }).length, 0),
    validatorsOf: [...surfacesHeld].sort(),
  };
}


const bundlesOnly = process.argv.includes('--bundles-only');
const report = {
  ...(bundlesOnly ? {} : { statusOverhead: await overheadOnLoopback(), clientCpu: await clientCpuPerCall() }),
  queueClientBundle: { core: await bundleSize('queue-client.ts'), goal: 'core min+gz <= 10240 bytes' },
  restV2ClientBundle: { core: await bundleSize('rest-v2/index.ts'), goal: 'core min+gz <= 10240 bytes' },
  lazilyLoadedValidators: {
    restV1: await lazyValidators('rest-client.ts', 'rest-v1'),
    queueV2: await lazyValidators('queue-client.ts', 'queue-v2'),
    restV2: await lazyValidators('rest-v2/index.ts', 'rest-v2'),
    goal: 'each client loads only its own surface\'s validators',
  },
};
console.log(JSON.stringify(report, null, 2));
