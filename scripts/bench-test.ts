/**
 * `npm test` against the commit issue 37 measured it on (9442c39: 135–138 s there, goal 120 s), in the same
 * run on the same machine (issue 37 item 5; run: `npm run bench:test`, last in `npm run bench`). The goal
 * becomes a ratio that does not depend on the machine: this checkout's `npm test` ÷ the baseline's ≤ 0.87
 * (120 s ÷ 138 s, the stricter end of the figure).
 *
 * The baseline is checked out from this repository's history into a scratch worktree (`git worktree add
 * --detach`; a shallow clone lacks it: `git fetch --unshallow`) and installed with `npm ci`. Each side runs
 * `npm test` once to warm its caches (vitest's transform cache, tsc's incremental state where the commit
 * has them), then --runs times, the two sides taking turns so both see the same load. Per run: wall time,
 * CPU of the whole process tree (user + system of the waited children, from /proc/self/stat), and the
 * tests vitest's JSON reporter counted. A failing test on either side is printed (the bench still
 * reports: a flaky baseline test says nothing about this checkout's time).
 * Usage: `npm run bench:test [-- --baseline <commit> --runs N --only <test file> …]` (--only, repeatable: just
 * those files on both sides, to try the bench itself). Bounded: each run is stopped after 30 min.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './package/pack-install.js';
import { childrenCpuMs } from './bench/process-cpu.js';

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const BASELINE = argument('--baseline') ?? '9442c39';
const RUNS = Math.min(5, Math.max(1, Number(argument('--runs') ?? 1)));
const ONLY = process.argv.flatMap((arg, index) => (process.argv[index - 1] === '--only' ? [arg] : []));
const GOAL_RATIO = 0.87;
const RUN_LIMIT_MS = 30 * 60_000;

interface TestRun {
  wallS: number;
  cpuS: number;
  tests: number;
  failed: number;
  loadAverage: number[];
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function git(args: string[], cwd = repoRoot): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout.trim();
}

let running: ReturnType<typeof spawn> | undefined;

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  wallS: number;
  /** The last 4,000 characters it wrote to stderr. */
  stderr: string;
}

/**
 * `npm ARGS` in `cwd`, in a process group of its own so that an interrupted bench (or the 30 min bound) stops
 * the whole tree: vitest, tsc and their children, or npm ci's scripts. Async: a signal handler can run meanwhile.
 */
function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = (running = spawn('npm', args, { cwd, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] }));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const limit = setTimeout(() => stopTree(child), RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      running = undefined;
      resolve({ code, signal, wallS: (performance.now() - started) / 1000, stderr });
    });
  });
}

/** `npm test` in `cwd`: wall time, the CPU of everything it ran, and the test counts of its JSON report. */
async function npmTest(cwd: string, report: string): Promise<TestRun> {
  const cpuBefore = childrenCpuMs();
  const { code, signal, wallS, stderr } = await npm(['test', ...(ONLY.length ? ['--', ...ONLY] : [])], cwd, { ...process.env, VITEST_JSON: report });
  if (signal) throw new Error(`npm test in ${cwd} was stopped (${signal}) after ${Math.round(wallS)} s`);
  if (!existsSync(report)) throw new Error(`npm test in ${cwd} exited ${code} without a JSON report: ${stderr}`);
  const json = JSON.parse(readFileSync(report, 'utf8')) as { numTotalTests: number; numFailedTests: number };
  rmSync(report, { force: true });
  return { wallS: round1(wallS), cpuS: round1((childrenCpuMs() - cpuBefore) / 1000), tests: json.numTotalTests, failed: json.numFailedTests, loadAverage: loadavg().map(round1) };
}

function stopTree(child: ReturnType<typeof spawn>): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'bench-test-'));
const baselineDir = join(scratch, 'baseline');
const cleanUp = () => {
  spawnSync('git', ['worktree', 'remove', '--force', baselineDir], { cwd: repoRoot });
  rmSync(scratch, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (running) stopTree(running);
    cleanUp();
    process.exit(130);
  });
}
const commit = git(['rev-parse', '--verify', `${BASELINE}^{commit}`]);
try {
  console.error(`bench:test: checking out ${BASELINE} (${commit.slice(0, 12)}) and installing it (npm ci)…`);
  git(['worktree', 'add', '--detach', baselineDir, commit]);
  const install = await npm(['ci', '--prefer-offline', '--no-audit', '--no-fund'], baselineDir);
  if (install.code !== 0) throw new Error(`npm ci of ${BASELINE} failed (${install.code ?? install.signal}): ${install.stderr}`);

  const sides = { baseline: baselineDir, head: repoRoot } as const;
  const runs: Record<keyof typeof sides, TestRun[]> = { baseline: [], head: [] };
  for (let round = 0; round <= RUNS; round++) {
    for (const side of ['baseline', 'head'] as const) {
      const label = round === 0 ? 'warm-up' : `run ${round} of ${RUNS}`;
      console.error(`bench:test: ${side} npm test, ${label}…`);
      const run = await npmTest(sides[side], join(scratch, `${side}-${round}.json`));
      console.error(`bench:test: ${side} ${label}: ${run.wallS} s wall, ${run.cpuS} s CPU, ${run.tests} tests (${run.failed} failed), load ${run.loadAverage.join(' ')}`);
      if (round > 0) runs[side].push(run);
    }
  }
  const wall = (side: keyof typeof sides) => median(runs[side].map((r) => r.wallS));
  const cpu = (side: keyof typeof sides) => median(runs[side].map((r) => r.cpuS));
  const wallRatio = Math.round((100 * wall('head')) / wall('baseline')) / 100;
  const summary = {
    baseline: { commit, runs: runs.baseline },
    head: { commit: git(['rev-parse', 'HEAD']), runs: runs.head },
    wallRatio,
    cpuRatio: Math.round((100 * cpu('head')) / cpu('baseline')) / 100,
    goal: `<= ${GOAL_RATIO} (120 s ÷ 138 s: issue 37's goal over its figure for ${BASELINE}; medians of ${RUNS} warm run(s) each, turns taken)`,
  };
  console.log(JSON.stringify(summary, null, 2));
  console.log(`\n| npm test | ${BASELINE} (baseline) | HEAD | HEAD ÷ baseline (goal ≤ ${GOAL_RATIO}) |\n|---|---|---|---|\n| wall | ${wall('baseline')} s | ${wall('head')} s | ${wallRatio}× |\n| CPU | ${cpu('baseline')} s | ${cpu('head')} s | ${summary.cpuRatio}× |\n| tests | ${runs.baseline[0]!.tests} | ${runs.head[0]!.tests} | |`);
  if (wallRatio > GOAL_RATIO) console.log('bench: a goal was missed');
} finally {
  cleanUp();
}
