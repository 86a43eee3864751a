// Agreement bench (run: `tsx scripts/bench-agreement.ts`): 10,000 generated requests — half spec-valid,
// half single-point violations, spread over every operation of REST v1, queue v2, GraphQL and REST v2 — against
// the reference mock running OUT OF PROCESS (a child node process, so its heap is the mock's alone).
// Figures: 5xx answers and dropped connections (goal 0 each), the mock's heap after GC before the run
// and after it (its resources deleted; goal: back within 10%), requests/s. Bounded in count and time;
// loopback only. Options: --requests N (default 10000), --warmup N (default 4000, not measured),
// --seed N, --max-seconds N (default 300).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { heapAfterGc, runAgreement, type AgreementReport, type AgreementTarget } from '../src/agreement/index.js';
import { startMock } from '../src/mock/index.js';

const KEY = 'bench-agreement-key-0123456789';
const HEAP_GOAL = 0.1;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i === -1 ? undefined : Number(process.argv[i + 1]);
  return value !== undefined && Number.isFinite(value) ? value : fallback;
}

// ---- child: the mock, answering heap probes over IPC ------------------------------------------

async function serve(): Promise<void> {
  const mock = await startMock({
    host: '127.0.0.1', port: 0, clock: 'real', rateLimits: false, templateDeleteDelayMs: 0,
    apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }],
  });
  process.on('message', async (message) => {
    if (message === 'heap') process.send!({ heap: await heapAfterGc() });
  });
  process.on('SIGTERM', () => void mock.close().then(() => process.exit(0)));
  process.send!({ target: { restUrl: mock.restV1Url, restV2Url: mock.restV2Url, queueUrl: `${mock.url}/v2`, graphqlUrl: mock.graphqlUrl, apiKey: KEY } });
}

// ---- parent: the fuzzer --------------------------------------------------------------------------

function startChild(): Promise<{ proc: ChildProcess; target: AgreementTarget }> {
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', (m: { target: AgreementTarget }) => resolve({ proc, target: m.target }));
    proc.once('exit', (code) => reject(new Error(`the mock process exited with ${code}`)));
  });
}

function heapOf(proc: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    proc.once('message', (m: { heap: number }) => resolve(m.heap));
    proc.send('heap');
  });
}

async function main(): Promise<void> {
  if (process.argv.includes('--serve')) return serve();
  const total = option('--requests', 10_000);
  const seed = option('--seed', 20_261_124);
  const maxSeconds = option('--max-seconds', 300);
  const warmup = option('--warmup', 4_000);
  const { proc, target } = await startChild();
  let report: AgreementReport;
  let heapBefore: number;
  let heapAfter: number;
  try {
    // Warm-up with another seed (JIT, inline caches, first allocations of every route and error path:
    // the heap settles after a few thousand requests), then the measured run.
    // The mock runs without quotas (rateLimits: false): no RateLimit headers to judge.
    await runAgreement(target, { seed: seed + 1, validTotal: warmup / 2, invalidTotal: warmup / 2, rateLimitHeaders: false });
    heapBefore = await heapOf(proc);
    report = await runAgreement(target, { seed, validTotal: Math.ceil(total / 2), invalidTotal: Math.floor(total / 2), deadlineMs: maxSeconds * 1_000, rateLimitHeaders: false });
    heapAfter = await heapOf(proc);
  } finally {
    proc.kill('SIGTERM');
  }
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const growth = (heapAfter - heapBefore) / heapBefore;
  const rps = report.requests.total / (report.wallMs / 1_000);
  const line = (label: string, value: string, goal = '') => console.log(`${label.padEnd(34)} ${value}${goal ? `   (${goal})` : ''}`);
  console.log(`agreement bench — mock out of process, seed ${seed}, ${report.operations} operations, after a ${warmup}-request warm-up`);
  line('generated requests', `${report.requests.total} (${report.requests.valid} valid, ${report.requests.invalid} invalid)${report.stoppedEarly ? ' — STOPPED at the time limit' : ''}`);
  line('HTTP calls (incl. setup/cleanup)', String(report.httpCalls));
  line('statuses', Object.entries(report.statuses).map(([s, n]) => `${s}×${n}`).join(' '));
  line('5xx answers', String(report.serverErrors), `goal 0: ${report.serverErrors === 0 ? 'met' : 'MISSED'}`);
  line('dropped connections', String(report.dropped), `goal 0: ${report.dropped === 0 ? 'met' : 'MISSED'}`);
  line('requests without an answer in time', String(report.timeouts), `goal 0: ${report.timeouts === 0 ? 'met' : 'MISSED'}`);
  line('mock heap after GC, before → after', `${mb(heapBefore)} → ${mb(heapAfter)} MB (${(growth * 100).toFixed(1)}%)`, `goal ≤ +${HEAP_GOAL * 100}%: ${growth <= HEAP_GOAL ? 'met' : 'MISSED'}`);
  line('requests/s (sequential, one client)', rps.toFixed(0));
  line('wall time', `${(report.wallMs / 1_000).toFixed(1)} s`);
  if (report.leftOver.length) line('resources left after cleanup', report.leftOver.join(', '));
  line('spec disagreements found', String(report.failures.length), 'see npx vitest run test/agreement');
  const byOp = new Map<string, number>();
  for (const f of report.failures) byOp.set(`${f.phase} ${f.operationId}`, (byOp.get(`${f.phase} ${f.operationId}`) ?? 0) + 1);
  for (const [op, n] of byOp) console.log(`   ${op}: ${n}`);
  const missed = report.serverErrors > 0 || report.dropped > 0 || report.timeouts > 0 || growth > HEAP_GOAL || report.stoppedEarly;
  process.exitCode = missed ? 1 : 0;
}

await main();
