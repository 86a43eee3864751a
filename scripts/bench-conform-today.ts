// Bench of the suite against the service as it is today (issue 35; run: `npm run bench:today`, part of
// `npm run bench`): the embedded mock with REST v1 retired and only REST v2, queue v2 and GraphQL in the
// target (`conform --today`) against the full embedded mock (`npm start`), in the same process, rounds
// interleaved so each ratio compares runs taken close together on a shared machine. Goals:
//  - rules run on the v1-less target ÷ rules of the same surfaces (queue v2, GraphQL, REST v2, `all`) run
//    on the full mock ≥ 0.97;
//  - wall time of the v1-less run ≤ 1.1× the full run's share for the same rules (no extra waits from a
//    slower set-up path). The share: the full run's wall × (Σ per-rule durations, in the full run, of the
//    rules the v1-less run ran ÷ Σ per-rule durations of every rule the full run ran). Checks run
//    concurrently, so durations overlap; weighting the wall by them keeps the figure in wall-time units;
//  - `npm start` ≤ 10 s: the process `tsx src/cli/main.ts start` end to end (start-up, the full embedded
//    run, reports), wall time.
// Figures are medians of the rounds. A failing run is an error (exit 1); a missed goal prints
// "bench: a goal was missed".
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runConformance, type RuleResult } from '../src/entries/conform.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const GOAL_RULES_RATIO = 0.97;
const GOAL_TIME_RATIO = 1.1;
const GOAL_START_MS = 10_000;

const ran = (r: RuleResult) => r.outcome !== 'skip';
const sameSurfaces = (r: RuleResult) => r.surface !== 'rest-v1';
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function conform(today: boolean) {
  const result = await runConformance({ reportsDir: null, progress: false, today, settings: { tier: 'full' } });
  if (result.exitCode !== 0) throw new Error(`${today ? 'v1-less' : 'full'} run failed: ${result.failing.map((r) => `${r.id}: ${r.reason}`).join('; ') || 'a preflight problem'}`);
  return result.summary;
}

/** `npm start` as a user runs it, minus npm's own start-up: reports go to a scratch directory. */
async function npmStartMs(): Promise<number> {
  const cwd = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const started = performance.now();
  try {
    const code = await new Promise<number | null>((done, fail) => {
      const child = spawn(resolve('node_modules/.bin/tsx'), [resolve('src/cli/main.ts'), 'start'], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('error', fail);
      child.on('exit', done);
    });
    if (code !== 0) throw new Error(`tsx src/cli/main.ts start exited ${code}`);
    return performance.now() - started;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

const rounds: { fullWallMs: number; todayWallMs: number; fullShareMs: number; timeRatio: number; npmStartMs: number }[] = [];
let counts = { today: 0, full: 0 };
for (let round = 0; round < ROUNDS; round++) {
  const full = await conform(false);
  const today = await conform(true);
  const todayRan = new Set(today.results.filter(ran).map((r) => r.id));
  const fullRan = full.results.filter(ran);
  const fullShareMs = full.wallMs * (sum(fullRan.filter((r) => todayRan.has(r.id)).map((r) => r.durationMs)) / sum(fullRan.map((r) => r.durationMs)));
  rounds.push({
    fullWallMs: full.wallMs, todayWallMs: today.wallMs, fullShareMs: Math.round(fullShareMs),
    timeRatio: +(today.wallMs / fullShareMs).toFixed(2), npmStartMs: Math.round(await npmStartMs()),
  });
  counts = { today: today.results.filter((r) => sameSurfaces(r) && ran(r)).length, full: fullRan.filter(sameSurfaces).length };
}

const rulesRatio = +(counts.today / counts.full).toFixed(3);
const timeRatio = median(rounds.map((r) => r.timeRatio));
const startMs = median(rounds.map((r) => r.npmStartMs));
process.stdout.write(`${JSON.stringify({
  rounds,
  rulesRunV1Less: counts.today, rulesRunFullSameSurfaces: counts.full,
  rulesRatio, rulesGoal: `>= ${GOAL_RULES_RATIO} (rules of queue v2, GraphQL, REST v2 and all run on the v1-less target ÷ run on the full mock)`,
  timeRatio, timeGoal: `<= ${GOAL_TIME_RATIO} (v1-less wall ÷ the full run's wall weighted by the per-rule durations of the same rules; median of rounds)`,
  npmStartMs: startMs, npmStartGoal: `<= ${GOAL_START_MS} ms (tsx src/cli/main.ts start, end to end; median of rounds)`,
  loadAverage: +loadavg()[0]!.toFixed(1),
}, null, 2)}\n`);
if (rulesRatio < GOAL_RULES_RATIO || timeRatio > GOAL_TIME_RATIO || startMs > GOAL_START_MS) process.stdout.write('bench: a goal was missed\n');
