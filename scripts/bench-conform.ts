// Conformance benchmark: wall time of the full tier against the embedded mock (goal ≤ 20 s on 2
// cores), rule coverage, and the mutation score (faults of the mock caught / faults). Writes the
// reports with the mutation table to reports/.
import { FAULT_NAMES } from '../src/mock/index.js';
import { measureMutationScore, runConformance } from '../src/conform/index.js';

const GOAL_MS = 20_000;

const clean = await runConformance({ reportsDir: null, progress: false, settings: { tier: 'full' } });
const t = clean.summary.totals;
const mutation = await measureMutationScore({ tier: 'full' }, (line) => console.log(line), clean.failing.map((r) => r.id));
const { caught } = mutation;
const final = await runConformance({ reportsDir: 'reports', progress: false, settings: { tier: 'full' }, mutation });

const wall = clean.summary.wallMs;
console.log(`conformance full tier vs embedded mock: ${(wall / 1000).toFixed(1)} s (goal ≤ ${GOAL_MS / 1000} s: ${wall <= GOAL_MS ? 'met' : 'MISSED'})`);
console.log(`rule coverage: ${t.checked}/${t.rules} checked (${t.pass} pass, ${t.fail} fail, ${t.skip} skipped)`);
console.log(`reports: ${final.reportFiles.join(', ')}`);
process.exitCode = clean.exitCode || (caught < FAULT_NAMES.length ? 1 : 0);
