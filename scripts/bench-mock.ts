// Bench of the reference mock (run: `tsx scripts/bench-mock.ts`). Figures are ratios measured in the
// same run, so they do not depend on the machine:
//   1. GET /v2/{id}/status/{jobId} throughput vs a bare node:http server answering the same bytes (goal ≥ 0.8×,
//      issue 37), and vs Prism 5.16 mocking the same queue v2 spec (goal ≥ 20×); POST /v2/{id}/run vs a bare server
//      reading the body and answering bytes of the mock's answer's length (goal ≥ 0.8×, issue 37), taken apart with a
//      bare server that also keeps each job (what storing a job costs at all, and what the mock adds to it)
//   2. p99 latency of that request with 100k stored jobs vs 1k (goal ≤ 1.2×)
//   3. heap per 100k completed jobs
//   4. accounts (issue 27): that GET /status throughput when the mock also holds 1,000 other accounts × 100
//      templates vs one account (goal ≥ 0.95×), and listing one account's templates with 1,000 accounts × 100
//      templates vs one account with 100: cost ratio (goal ≤ 1.2×; per-account indexes, not a filter), in
//      process (the goal) and over HTTP (for reference)
// Each server runs in its own child process (so autocannon does not steal its CPU); traffic is
// loopback only and every load loop is bounded in time. The bare and the 1k mock's CPU per request (user +
// system, Linux /proc) is printed beside the ratio: steadier than requests per second on a shared machine; so is
// Prism's (mock ÷ Prism by CPU per request: on 2 cores the load generator caps the mock's requests per second), and,
// where `perf` is available, the instructions per request of the mock and the bare server (/status and /run).
// Every measured server gets one load before the measured rounds (as Prism does): a first load also measures the JIT
// compiling the server's code (on its background threads, counted in its CPU), more of it for the mock than for bare node.
// The mock and the bare server each hold one tick object (src/contract/tick-object-shape.ts): without it a server
// idle between loads can run node's nextTick in V8's runtime, a state that came and went between runs and rounds.
// Every measured load starts once all the servers are idle (a server may still collect its heap after a load), and
// the mock and its baseline are loaded in A B B A order each round (bare, mock, mock, bare; the same for /run).
// BENCH_PROFILE_DIR=dir: the measured mock (1k jobs) writes a V8 CPU profile there (--cpu-prof) when it stops.
import { startServedChild } from './bench/served-child.js';
import { cpuMsOf, cpuMsOfAll, cpuUsPerRequest, untilQuiet } from './bench/process-cpu.js';
import { countingInstructions } from './bench/perf-counters.js';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startMock, type RunningMock } from '../src/mock/index.js';
import { DEFAULT_TTL_MS } from '../src/mock/jobs/engine.js';
import { restHandlers } from '../src/mock/rest/handlers.js';
import { autocannon } from './bench/autocannon.js';
import { tickCostAfterIdleCollections } from './bench/tick-shape.js';
import { keepTickObjectShape } from '../src/contract/tick-object-shape.js';
import { startPrism, stop as stopPrism, writeQueueSpecForPrism } from './targets/prism.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';


const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const KEY = 'bench-key';
/** The /run figure's stored jobs end this often: at 50k /run a second some 2,500, a quarter of x-max-stored-jobs' 10,000. */
const SUBMITTED_JOBS_END_EVERY_MS = 50;

interface Served {
  url: string;
  heapDeltaMb?: number;
}

// ---- child side ---------------------------------------------------------------------------

/**
 * Answers `body` (the bytes the mock answers to the measured GET /status, base64url) with the mock's two content
 * headers; a POST's body is read to its end first, then `runBody` (bytes of the mock's /run answer) is answered.
 */
async function serveBare(encoded: string, runEncoded: string): Promise<Served> {
  // As the mock does: neither side is measured with node's nextTick in V8's slow state (tick-object-shape.ts).
  keepTickObjectShape();
  const body = Buffer.from(encoded, 'base64url').toString('utf8');
  const runBody = Buffer.from(runEncoded, 'base64url').toString('utf8');
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      req.on('data', () => {});
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(runBody) });
        res.end(runBody);
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/status` };
}

/**
 * The least a job store does per POST /run, for the /run figure's decomposition (not its goal): reads the body, parses
 * it, keeps a job record under a new id in a Map (ended on the same tick as the mock's) and answers {id, status}.
 */
async function serveStoringBare(): Promise<Served> {
  keepTickObjectShape();
  const jobs = new Map<string, { id: string; status: string; input: unknown; submittedAt: number }>();
  setInterval(() => jobs.clear(), SUBMITTED_JOBS_END_EVERY_MS);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: unknown };
      const job = { id: `${randomUUID()}-u1`, status: 'IN_QUEUE', input: body.input, submittedAt: Date.now() };
      jobs.set(job.id, job);
      const text = JSON.stringify({ id: job.id, status: job.status });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/run` };
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** Other accounts of the accounts figures, and the templates each holds. */
const OTHER_ACCOUNTS = 1_000;
const TEMPLATES_PER_ACCOUNT = 100;

/** `accounts` accounts (the bench key's is `acct-0`) of `templates` templates each, stored directly. */
function fillAccounts(mock: RunningMock, accounts: number, templates: number): void {
  for (let a = 0; a < accounts; a++) {
    const store = mock.core.accounts.store(`acct-${a}`);
    for (let t = 0; t < templates; t++) {
      const saved = store.saveTemplate({ name: `tpl-${t}`, imageName: 'bench:1' });
      if (!saved.ok) throw new Error(saved.message);
    }
  }
}

/** GET /v1/templates of the bench key's account, in a mock holding `accounts` accounts × 100 templates. */
async function serveTemplateList(accounts: number): Promise<Served> {
  const mock = await startMock({ rateLimits: false, apiKeys: [{ key: KEY, scopes: ['read'], account: 'acct-0' }] });
  fillAccounts(mock, accounts, TEMPLATES_PER_ACCOUNT);
  return { url: `${mock.restV1Url}/templates` };
}

/**
 * A mock holding `count` completed jobs; answers the status URL of one in the middle. With `otherAccounts`, 1,000
 * more accounts. With `submissions` (the /run figure's mock) it answers the /run URL of an endpoint without workers,
 * at its documented job ceilings (x-max-stored-jobs): every SUBMITTED_JOBS_END_EVERY_MS the virtual clock passes a
 * ttl, so each job submitted is also ended and deleted (that work is in the figure) and the store stays within its
 * maximum, as it does in use. (Until 2026-11-29 the ceilings were lifted and jobs were never ended: the figure was
 * taken with about 1.7M jobs in one endpoint, over 150× the maximum, where each Map insert cost several times more.)
 */
async function serveMock(count: number, otherAccounts = false, submissions = false): Promise<Served> {
  const mock = await startMock({ clock: 'virtual', rateLimits: false, apiKeys: [{ key: KEY, scopes: ['jobs'] }] });
  if (otherAccounts) fillAccounts(mock, OTHER_ACCOUNTS, TEMPLATES_PER_ACCOUNT);
  const template = mock.core.store.saveTemplate({ name: 'bench', imageName: 'bench:1' });
  if (!template.ok) throw new Error(template.message);
  const endpoint = mock.core.store.createEndpoint({ templateId: template.value.id, workersMax: 100 });
  if (!endpoint.ok) throw new Error(endpoint.message);
  const endpointId = endpoint.value.id;
  mock.core.engine.ensureEndpoint(endpointId);
  const before = heapMb();
  let probe = '';
  for (let i = 0; i < count; i++) {
    const job = mock.core.engine.submit(endpointId, 'run', { input: { prompt: `job ${i}`, mock: { durationMs: 1 } } });
    if (i === count >> 1) probe = job.id;
    // Let workers pick up and finish this batch (timers due "now" and 1 ms later).
    if (i % 100 === 99 || i === count - 1) {
      mock.clock.advance(0);
      mock.clock.advance(1);
    }
  }
  for (let i = 0; i < 5; i++) mock.clock.advance(1);
  if (mock.core.engine.health(endpointId).jobs.completed !== count) throw new Error('not every job completed');
  const heapDeltaMb = +((heapMb() - before) * (100_000 / count)).toFixed(1);
  if (!submissions) return { url: `${mock.queueV2Url(endpointId)}/status/${probe}`, heapDeltaMb };
  const sink = mock.core.store.createEndpoint({ templateId: template.value.id, workersMin: 0, workersMax: 0 });
  if (!sink.ok) throw new Error(sink.message);
  setInterval(() => mock.clock.advance(DEFAULT_TTL_MS), SUBMITTED_JOBS_END_EVERY_MS);
  return { url: `${mock.queueV2Url(sink.value.id)}/run`, heapDeltaMb };
}

// ---- parent side --------------------------------------------------------------------------

const PROFILE_DIR = process.env['BENCH_PROFILE_DIR'];
const child = (kind: string) => startServedChild<Served>(import.meta.url, [kind], ['--expose-gc', ...(kind === 'mock:1000' && PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [])]);

/** The measured /run body: a small input, as a client's typical submission. */
const RUN_BODY = JSON.stringify({ input: { prompt: 'a photo of a cat', steps: 20 } });
const RUN = { method: 'POST', body: RUN_BODY } as const;

/** Every server process of the run (Prism's included): a measured load waits until the others are idle. */
const serverPids: number[] = [];

/**
 * Requests per second and p99 of `url`; with `pid`, that process's CPU µs per request during the load (started once
 * every server is idle; `backgroundCpuMs`: what the others used during it), and with `count` also the thousands of
 * instructions it retired per request (where perf is available).
 */
async function load(url: string, headers: Record<string, string>, pid?: number, post?: typeof RUN, count = false) {
  const others = serverPids.filter((other) => other !== pid);
  if (pid !== undefined) await untilQuiet(serverPids);
  const othersBefore = cpuMsOfAll(others);
  const before = pid === undefined ? undefined : cpuMsOf(pid);
  const run = () => autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: post ? { ...headers, 'content-type': 'application/json' } : headers, ...post });
  const { result, instructions } = count ? await countingInstructions(pid, run) : { result: await run(), instructions: undefined };
  const cpuUs = pid === undefined ? undefined : cpuUsPerRequest(before, cpuMsOf(pid), result.requests.total);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const kiloInstructions = instructions === undefined || result.requests.total === 0 ? undefined : Math.round(instructions / result.requests.total / 1000);
  return { rps: result.requests.average, p99: result.latency.p99, cpuUs, kiloInstructions, backgroundCpuMs: cpuMsOfAll(others) - othersBefore };
}

type Load = Awaited<ReturnType<typeof load>>;

/** Two loads of one server as one figure: each figure averaged. */
function both(a: Load, b: Load): Load {
  const mean = (x: number | undefined, y: number | undefined) => (x === undefined || y === undefined ? undefined : Math.round((x + y) / 2));
  return {
    rps: (a.rps + b.rps) / 2, p99: (a.p99 + b.p99) / 2, cpuUs: mean(a.cpuUs, b.cpuUs),
    kiloInstructions: mean(a.kiloInstructions, b.kiloInstructions), backgroundCpuMs: a.backgroundCpuMs + b.backgroundCpuMs,
  };
}

/** Median of a/b over the rounds that have both figures (undefined when none has). */
function medianRatio(rows: Record<string, number>[], a: string, b: string, digits: number): number | undefined {
  const ratios = rows.flatMap((row) => (row[a] !== undefined && row[b] ? [row[a] / row[b]] : []));
  return ratios.length === 0 ? undefined : +median(ratios).toFixed(digits);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/**
 * The list cost without HTTP: GET /v1/templates' handler (and its JSON) for one account of a mock holding
 * 1,000 accounts × 100 templates vs a mock holding one account of 100, both in this process (same heap,
 * same GC), batches interleaved. What it isolates: the per-account index (no filter over every account).
 */
async function listCostInProcess(): Promise<number> {
  const one = await startMock({ rateLimits: false });
  const many = await startMock({ rateLimits: false });
  try {
    fillAccounts(one, 1, TEMPLATES_PER_ACCOUNT);
    fillAccounts(many, OTHER_ACCOUNTS, TEMPLATES_PER_ACCOUNT);
    const list = restHandlers['listTemplates']!;
    const batch = (mock: RunningMock) => {
      const core = mock.core.forAccount('acct-0');
      const started = performance.now();
      for (let i = 0; i < 2_000; i++) JSON.stringify((list(core, { params: {}, query: {}, body: undefined, head: false }) as { body: unknown }).body);
      return performance.now() - started;
    };
    batch(one);
    batch(many);
    const ratios: number[] = [];
    for (let round = 0; round < 7; round++) {
      const a = batch(one);
      const b = batch(many);
      const b2 = batch(many);
      const a2 = batch(one);
      ratios.push((b + b2) / (a + a2));
    }
    return median(ratios);
  } finally {
    await one.close();
    await many.close();
  }
}

async function main(): Promise<void> {
  const serveIndex = process.argv.indexOf('--serve');
  if (serveIndex !== -1) {
    const kind = process.argv[serveIndex + 1] ?? '';
    // Exit (rather than die) on SIGTERM so --cpu-prof and similar flags can write their output.
    process.on('SIGTERM', () => process.exit(0));
    const served = kind.startsWith('bare:') ? await serveBare(kind.split(':')[1]!, kind.split(':')[2]!)
      : kind === 'storing' ? await serveStoringBare()
      : kind.startsWith('list:') ? await serveTemplateList(Number(kind.slice(5)))
        : await serveMock(Number(kind.split(':')[1]), kind.endsWith(':accounts'), kind.endsWith(':run'));
    process.stdout.write(`${JSON.stringify(served)}\n`);
    return;
  }
  const auth = { authorization: `Bearer ${KEY}` };
  const listCostWithoutHttp = await listCostInProcess();
  const tickAfterIdleCollections = tickCostAfterIdleCollections();
  const smallChild = await child('mock:1000');
  // The baseline answers the very bytes the mock answers (same length, same JSON), so only the work differs.
  const answer = await fetch(smallChild.served.url, { headers: auth });
  if (answer.status !== 200) throw new Error(`mock GET /status answered ${answer.status}`);
  const runChild = await child('mock:1000:run');
  const runAnswer = await fetch(runChild.served.url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: RUN_BODY });
  if (runAnswer.status !== 200) throw new Error(`mock POST /run answered ${runAnswer.status}`);
  const bareChild = await child(`bare:${Buffer.from(await answer.arrayBuffer()).toString('base64url')}:${Buffer.from(await runAnswer.arrayBuffer()).toString('base64url')}`);
  const servers = [
    bareChild, smallChild, await child('mock:100000'),
    await child('mock:1000:accounts'), await child('list:1'), await child(`list:${OTHER_ACCOUNTS}`), runChild, await child('storing'),
  ];
  const [bare, small, large, manyAccounts, listOne, listMany, runMock, storing] = servers.map((s) => s.served) as Served[] as [Served, Served, Served, Served, Served, Served, Served, Served];
  const storingChild = servers[7]!;
  const bareRunUrl = new URL('/run', bare.url).href;
  const specDir = mkdtempSync(join(tmpdir(), 'cc-bench-mock-'));
  writeQueueSpecForPrism(join(specDir, 'queue-v2.json'));
  const prism = await startPrism(join(specDir, 'queue-v2.json'));
  const prismUrl = `${prism.url}${new URL(small.url).pathname}`;
  serverPids.push(...servers.map((server) => server.proc.pid!), prism.child.pid!);
  await load(prismUrl, auth); // Prism warms up (JIT, its spec) before its first measured load
  // So do the bare server and the mocks measured against it (the /run mock on /run).
  for (const url of [bare.url, small.url, large.url, manyAccounts.url]) await load(url, auth);
  await load(bareRunUrl, auth, undefined, RUN);
  await load(runMock.url, auth, undefined, RUN);
  await load(storing.url, auth, undefined, RUN);
  const prismRatios: number[] = [];
  // Interleaved rounds: the machine may be shared, so compare figures taken close together.
  const throughputRatios: number[] = [];
  const runThroughputRatios: number[] = [];
  const runOverStoringRatios: number[] = [];
  const storingOverBareRatios: number[] = [];
  const p99Ratios: number[] = [];
  const accountsThroughputRatios: number[] = [];
  const listCostRatios: number[] = [];
  const rows: Record<string, number>[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Each pair of a figure in A B B A order: the speed of a shared machine drifts between loads.
      const b1 = await load(bare.url, auth, bareChild.proc.pid, undefined, true);
      const s = both(await load(small.url, auth, smallChild.proc.pid, undefined, true), await load(small.url, auth, smallChild.proc.pid, undefined, true));
      const b = both(b1, await load(bare.url, auth, bareChild.proc.pid, undefined, true));
      const x = await load(prismUrl, auth, prism.child.pid);
      const l = await load(large.url, auth);
      // Accounts figures in A B B A order (the load of a shared machine drifts between loads).
      const m = await load(manyAccounts.url, auth);
      const m2 = await load(manyAccounts.url, auth);
      const s2 = await load(small.url, auth);
      const lo = await load(listOne.url, auth);
      const lm = await load(listMany.url, auth);
      const lm2 = await load(listMany.url, auth);
      const lo2 = await load(listOne.url, auth);
      const br1 = await load(bareRunUrl, auth, bareChild.proc.pid, RUN, true);
      const r = both(await load(runMock.url, auth, runChild.proc.pid, RUN, true), await load(runMock.url, auth, runChild.proc.pid, RUN, true));
      const br = both(br1, await load(bareRunUrl, auth, bareChild.proc.pid, RUN, true));
      // The decomposition: storing ÷ bare is what keeping each job costs; mock ÷ storing what the mock adds to it.
      const r2a = await load(runMock.url, auth, runChild.proc.pid, RUN);
      const st = both(await load(storing.url, auth, storingChild.proc.pid, RUN), await load(storing.url, auth, storingChild.proc.pid, RUN));
      const r2 = both(r2a, await load(runMock.url, auth, runChild.proc.pid, RUN));
      runThroughputRatios.push(r.rps / br.rps);
      runOverStoringRatios.push(r2.rps / st.rps);
      storingOverBareRatios.push(st.rps / br.rps);
      throughputRatios.push(s.rps / b.rps);
      prismRatios.push(s.rps / x.rps);
      p99Ratios.push(l.p99 / Math.max(1, s.p99));
      accountsThroughputRatios.push((m.rps + m2.rps) / (s.rps + s2.rps));
      listCostRatios.push((lo.rps + lo2.rps) / (lm.rps + lm2.rps));
      rows.push({
        bareRps: Math.round(b.rps), prismRps: Math.round(x.rps), mockRps1k: Math.round(s.rps), mockRps100k: Math.round(l.rps), p99Ms1k: s.p99, p99Ms100k: l.p99,
        ...(b.cpuUs !== undefined && s.cpuUs !== undefined ? { bareCpuUsPerRequest: b.cpuUs, mockCpuUsPerRequest1k: s.cpuUs } : {}),
        mockRps1kWith1000Accounts: Math.round((m.rps + m2.rps) / 2), listRps1x100: Math.round((lo.rps + lo2.rps) / 2), listRps1000x100: Math.round((lm.rps + lm2.rps) / 2),
        bareRunRps: Math.round(br.rps), mockRunRps: Math.round(r.rps), storingBareRunRps: Math.round(st.rps),
        ...(br.cpuUs !== undefined && r.cpuUs !== undefined ? { bareRunCpuUsPerRequest: br.cpuUs, mockRunCpuUsPerRequest: r.cpuUs } : {}),
        ...(x.cpuUs !== undefined ? { prismCpuUsPerRequest: x.cpuUs } : {}),
        ...(b.kiloInstructions !== undefined && s.kiloInstructions !== undefined ? { bareKiloInstructionsPerRequest: b.kiloInstructions, mockKiloInstructionsPerRequest1k: s.kiloInstructions } : {}),
        ...(br.kiloInstructions !== undefined && r.kiloInstructions !== undefined ? { bareRunKiloInstructionsPerRequest: br.kiloInstructions, mockRunKiloInstructionsPerRequest: r.kiloInstructions } : {}),
        // CPU (ms) the other servers used during each measured load (each starts once every server is idle).
        backgroundCpuMsBare: b.backgroundCpuMs, backgroundCpuMsMock: s.backgroundCpuMs, backgroundCpuMsPrism: x.backgroundCpuMs,
        backgroundCpuMsBareRun: br.backgroundCpuMs, backgroundCpuMsMockRun: r.backgroundCpuMs,
      });
    }
  } finally {
    for (const s of servers) s.proc.kill('SIGTERM');
    await stopPrism(prism.child);
    rmSync(specDir, { recursive: true, force: true });
  }
  const report = {
    durationSecondsPerLoad: DURATION_S,
    connections: CONNECTIONS,
    rounds: rows,
    loadAverage: loadavg().map((value) => +value.toFixed(1)),
    throughputRatio: +median(throughputRatios).toFixed(2),
    throughputGoal: '>= 0.8 (mock GET /status vs bare node:http answering the same bytes, median of rounds)',
    ...(rows.every((r) => r['mockCpuUsPerRequest1k'] !== undefined) ? { cpuPerRequestRatio: +median(rows.map((r) => r['mockCpuUsPerRequest1k']! / r['bareCpuUsPerRequest']!)).toFixed(2), cpuPerRequestNote: 'mock ÷ bare server CPU (user + system) per request during those loads, median of rounds' } : {}),
    runThroughputRatio: +median(runThroughputRatios).toFixed(2),
    runThroughputGoal: '>= 0.8 (mock POST /run vs a bare node:http server reading the body and answering bytes of the same length, median of rounds)',
    ...(rows.every((r) => r['mockRunCpuUsPerRequest'] !== undefined) ? { runCpuPerRequestRatio: +median(rows.map((r) => r['mockRunCpuUsPerRequest']! / r['bareRunCpuUsPerRequest']!)).toFixed(2) } : {}),
    runStoringOverBareRatio: +median(storingOverBareRatios).toFixed(2),
    runOverStoringRatio: +median(runOverStoringRatios).toFixed(2),
    runDecompositionNote: 'a bare server that also parses each /run body and keeps the job in a Map (storing) ÷ bare: what keeping a job costs at all; mock ÷ storing: what the mock adds to that (routing, auth, validation, its job record, ttl and per-endpoint index)',
    prismRatio: +median(prismRatios).toFixed(1),
    prismGoal: '>= 20 (mock GET /status vs Prism 5.16 mocking the same queue v2 spec, median of rounds)',
    // On 2 cores the load generator's own CPU caps the faster server's requests per second; CPU per request is not capped.
    prismCpuPerRequestOverMocks: medianRatio(rows, 'prismCpuUsPerRequest', 'mockCpuUsPerRequest1k', 1),
    instructionsPerRequestRatio: medianRatio(rows, 'mockKiloInstructionsPerRequest1k', 'bareKiloInstructionsPerRequest', 2),
    runInstructionsPerRequestRatio: medianRatio(rows, 'mockRunKiloInstructionsPerRequest', 'bareRunKiloInstructionsPerRequest', 2),
    instructionsNote: 'mock ÷ bare instructions per request (perf stat, user + kernel), median of rounds: the work per request, steadier than CPU time or throughput on a shared machine',
    p99Ratio: +median(p99Ratios).toFixed(2),
    p99Goal: '<= 1.2 (100k stored jobs vs 1k, median of rounds)',
    heapMbPer100kCompletedJobs: large.heapDeltaMb,
    // process.nextTick after full collections with no tick queued (an idle server): ns per tick with one tick
    // object held (as the mock, the proxy and both bare servers do) and without.
    tickAfterIdleCollections,
    accountsThroughputRatio: +median(accountsThroughputRatios).toFixed(2),
    accountsThroughputGoal: `>= 0.95 (GET /status with ${OTHER_ACCOUNTS} more accounts × ${TEMPLATES_PER_ACCOUNT} templates vs one account, median of rounds)`,
    listCostRatio: +listCostWithoutHttp.toFixed(2),
    listCostGoal: `<= 1.2 (listing one account's templates: ${OTHER_ACCOUNTS} accounts × ${TEMPLATES_PER_ACCOUNT} templates vs 1 × ${TEMPLATES_PER_ACCOUNT}; handler + JSON in one process, median of interleaved batches)`,
    listCostRatioOverHttp: +median(listCostRatios).toFixed(2),
    listCostOverHttpNote: 'the same over HTTP, each mock in its own process (includes the larger heap\'s GC and the machine\'s noise)',
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (report.throughputRatio < 0.8 || report.runThroughputRatio < 0.8 || report.prismRatio < 20 || report.p99Ratio > 1.2 || report.accountsThroughputRatio < 0.95 || report.listCostRatio > 1.2) {
    process.stdout.write('bench: a goal was missed\n');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
