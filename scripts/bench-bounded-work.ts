// Bench of bounded work on every surface (issue 30, item 2; run: `npm run bench:bounded-work`). The mock
// runs in a child process (scripts/bench/bounded-work-server.ts) with a BENCH_PODS-pod account, a
// streaming worker and a job holding the largest result. For each operation's most expensive request the
// limits allow, one client (a worker thread) sends it back to back for BENCH_WORST_MS (bounded in count)
// while a second client measures GET /v1/templates. Printed per worst case, all in the same run:
//   - the neighbour's p50/p99 while it runs vs alone (goal: p99 at most 50 ms above alone)
//   - the worst request's own duration (median, max) and status
//   - the longest event-loop block in the server (perf_hooks.monitorEventLoopDelay; budget in docs/mock.md)
// Then, in a second child with --state, the largest state record (a /runsync 20 MiB input) written back to
// back, and the restart of a mock on that file (restore happens before it listens). BENCH_CASES=a,b keeps
// the cases whose names contain a or b; BENCH_STATE=off skips the --state child.
// Loopback only; every loop is bounded in count and time.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServedChild } from './bench/served-child.js';
import { BENCH_KEY, serveBoundedWork, type BoundedWorkServed } from './bench/bounded-work-server.js';
import { runWorstLoop, type WorstRequest } from './bench/worst-loop.js';
import { startMock } from '../src/mock/index.js';
import { MAX_SEED_ITEMS } from '../src/mock/control.js';
import { TURN_BUDGET_MS } from '../src/mock/turns.js';

const PODS = Number(process.env['BENCH_PODS'] ?? 200);
const WORST_MS = Number(process.env['BENCH_WORST_MS'] ?? 4000);
const ALONE_SAMPLES = Number(process.env['BENCH_NEIGHBOUR_SAMPLES'] ?? 300);
const GOAL_NEIGHBOUR_MS = 50;
const MiB = 1024 * 1024;

interface WorstCase {
  name: string;
  request: WorstRequest;
  /** Most requests sent (the big job submissions each store tens of megabytes). */
  maxCount: number;
}

function worstCases(s: BoundedWorkServed): WorstCase[] {
  const auth = { authorization: `Bearer ${BENCH_KEY}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const get = (name: string, path: string, maxCount = 200): WorstCase => ({ name, request: { kind: 'get', url: `${s.base}${path}`, headers: auth }, maxCount });
  const post = (name: string, path: string, body: string, maxCount: number): WorstCase => ({ name, request: { kind: 'post', url: `${s.base}${path}`, headers: json, body }, maxCount });
  /** A body of exactly `bytes` bytes: `prefix` + zeros + `suffix`. */
  const filled = (bytes: number, prefix: string, suffix: string) => `${prefix}${'0,'.repeat(Math.floor((bytes - prefix.length - suffix.length - 1) / 2))}0${suffix}`;
  const aliases = Array.from({ length: 8 }, (_, i) => `a${i}: pods { id name imageName desiredStatus env ports costPerHr machine { gpuDisplayName } runtime { ports { ip privatePort publicPort type } } }`).join(' ');
  const seedTemplates = Array.from({ length: MAX_SEED_ITEMS }, (_, i) => ({ name: `seeded-${i}`, imageName: 'repo/app:1' }));
  return [
    get('REST v2 GET /v2/billing?bucketSize=hour&lastN=8784', '/v2/billing?bucketSize=hour&lastN=8784', 40),
    get('REST v2 GET /v2/billing/pods?bucketSize=hour&lastN=8784', '/v2/billing/pods?bucketSize=hour&lastN=8784', 40),
    get('REST v2 GET /v2/billing/network-volumes?bucketSize=hour&lastN=8784', '/v2/billing/network-volumes?bucketSize=hour&lastN=8784', 40),
    get(`REST v1 GET /v1/pods?includeTemplate&includeNetworkVolume (${PODS} pods)`, '/v1/pods?includeTemplate=true&includeNetworkVolume=true'),
    get(`REST v2 GET /v2/pods (${PODS} pods)`, '/v2/pods'),
    post(`GraphQL 8 aliased pod lists (${PODS} pods each)`, '/graphql', JSON.stringify({ query: `{ myself { ${aliases} } }` }), 200),
    post('REST v1 POST /v1/pods, 1 MiB body', '/v1/pods', filled(MiB, '{"name":"big","imageName":"a:1","pad":[', ']}'), 100),
    post('REST v2 POST /v2/pods, 1 MiB body', '/v2/pods', filled(MiB, '{"name":"big","imageName":"a:1","pad":[', ']}'), 100),
    post('queue v2 POST /run, 10 MB body', `/v2/${s.echoEndpointId}/run`, filled(10_000_000, '{"input":{"values":[', ']}}'), 3),
    post('queue v2 POST /runsync, 20 MiB body', `/v2/${s.echoEndpointId}/runsync`, filled(20 * MiB, '{"input":{"values":[', ']}}'), 3),
    get('queue v2 GET /status of the largest result (~20 MB)', `/v2/${s.bigOutputJobId.replace('/', '/status/')}`, 10),
    { name: 'queue v2 GET /stream, backlog of 10,000 chunks (~20 MB)', request: { kind: 'stream', queueUrl: `${s.base}/v2/${s.streamEndpointId}`, headers: json }, maxCount: 3 },
    { name: `control POST /__control/seed, ${MAX_SEED_ITEMS} templates (the most one seed creates)`, request: { kind: 'post', url: `${s.base}/__control/seed`, headers: json, body: JSON.stringify({ account: 'bench-seed', templates: seedTemplates }), accountInBody: true }, maxCount: 20 },
    get('docs GET /docs/ (the site is built before the mock listens)', '/docs/', 1),
  ];
}

const quantile = (values: number[], q: number) => values.length === 0 ? NaN : [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const round = (ms: number) => +ms.toFixed(1);

async function loopBlock(s: BoundedWorkServed): Promise<number> {
  const figures = (await (await fetch(s.loopUrl)).json()) as { maxMs: number };
  return round(figures.maxMs);
}

let neighbourErrors = 0;

/** Neighbour latencies until `until` settles (at least `minimum` samples), 2 ms apart. */
async function neighbourSamples(s: BoundedWorkServed, until: Promise<unknown> | undefined, minimum: number): Promise<number[]> {
  let done = until === undefined;
  void until?.finally(() => (done = true));
  const out: number[] = [];
  while ((!done || out.length < minimum) && out.length < 100_000) {
    const start = performance.now();
    try {
      const res = await fetch(`${s.base}/v1/templates`, { headers: { authorization: `Bearer ${BENCH_KEY}` } });
      await res.arrayBuffer();
    } catch {
      // A keep-alive socket the server closed while its loop was held: the wait still counts.
      neighbourErrors++;
    }
    out.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 2));
  }
  return out;
}

async function restoreFigures(stateFile: string): Promise<{ stateFileMB: number; restoreMs: number; loopMaxMs: number }> {
  const bytes = statSync(stateFile).size;
  const start = performance.now();
  const mock = await startMock({ stateFile, rateLimits: false });
  const restoreMs = performance.now() - start;
  await mock.close();
  // The restore runs before the mock listens: no request waits behind it, the whole start is one figure.
  return { stateFileMB: round(bytes / 1e6), restoreMs: round(restoreMs), loopMaxMs: round(restoreMs) };
}

type Row = Record<string, unknown>;

/** The worst cases matching `keep`, against a child mock (with --state at `stateFile` when given). */
async function runCases(stateFile: string | undefined, keep: (c: WorstCase) => boolean): Promise<Row[]> {
  const { proc, served } = await startServedChild<BoundedWorkServed>(import.meta.url, [stateFile ?? 'none']);
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const label = stateFile ? ' [--state]' : '';
  try {
    await neighbourSamples(served, undefined, 50); // warm-up
    await loopBlock(served);
    const alone = await neighbourSamples(served, undefined, ALONE_SAMPLES);
    const aloneP99 = quantile(alone, 0.99);
    const rows: Row[] = [{ case: `neighbour alone (GET /v1/templates)${label}`, neighbourP50Ms: round(quantile(alone, 0.5)), neighbourP99Ms: round(aloneP99), loopMaxMs: await loopBlock(served) }];
    for (const worst of worstCases(served).filter(keep)) {
      const loop = runWorstLoop(worst.request, WORST_MS, worst.maxCount);
      const during = await neighbourSamples(served, loop, 5);
      const { durationsMs, statuses } = await loop;
      const p99 = quantile(during, 0.99);
      rows.push({
        case: `${worst.name}${label}`,
        neighbourP50Ms: round(quantile(during, 0.5)), neighbourP99Ms: round(p99), neighbourP99AboveAloneMs: round(p99 - aloneP99),
        worstMedianMs: round(quantile(durationsMs, 0.5)), worstMaxMs: round(Math.max(...durationsMs)), sent: durationsMs.length,
        statuses: [...new Set(statuses)].join('/'), loopMaxMs: await loopBlock(served),
      });
      process.stderr.write(`bench:bounded-work ${JSON.stringify(rows[rows.length - 1])}\n`);
    }
    return rows;
  } finally {
    proc.kill('SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--serve')) {
    const at = process.argv[process.argv.indexOf('--serve') + 1];
    process.stdout.write(`${JSON.stringify(await serveBoundedWork(PODS, at === 'none' ? undefined : at))}\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-bounded-'));
  const stateFile = join(dir, 'state.jsonl');
  const only = process.env['BENCH_CASES'];
  const chosen = (c: WorstCase) => only === undefined || only.split(',').some((part) => c.name.includes(part));
  try {
    // Every case without --state (with it, every answer also waits for the fsync of what it may show);
    // then the largest --state record (/runsync's 20 MiB input) written, and the file restored.
    const rows = await runCases(undefined, chosen);
    const stateRows = process.env['BENCH_STATE'] === 'off' ? [] : await runCases(stateFile, (c) => chosen(c) && c.name.includes('runsync'));
    const restore = stateRows.length > 0 ? await restoreFigures(stateFile) : undefined;
    const all = [...rows, ...stateRows];
    const worstAbove = Math.max(...all.map((r) => (r['neighbourP99AboveAloneMs'] as number | undefined) ?? 0));
    const report = {
      accountPods: PODS, worstLoopMs: WORST_MS, loadAverage: loadavg().map((l) => +l.toFixed(2)),
      goals: { neighbourP99AboveAloneMs: `<= ${GOAL_NEIGHBOUR_MS}`, loopMaxMs: `slices of <= ${TURN_BUDGET_MS} ms (the figure adds GC pauses and CPU taken by other processes)` },
      neighbourErrors, worstNeighbourP99AboveAloneMs: round(worstAbove), rows: all, stateRestart: restore,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    if (worstAbove > GOAL_NEIGHBOUR_MS) process.stdout.write('bench: a goal was missed\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
