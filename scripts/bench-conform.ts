// Conformance benchmark: wall time of the full tier against the embedded mock (goal ≤ 20 s on 2
// cores), rule coverage, and the mutation score (faults of the mock caught / faults). Writes the
// reports with the mutation table to reports/.
import { FAULT_NAMES } from '../src/mock/index.js';
import { runConformance } from '../src/conform/index.js';

const GOAL_MS = 20_000;

const clean = await runConformance({ reportsDir: null, progress: false, settings: { tier: 'full' } });
const t = clean.summary.totals;
const baseline = new Set(clean.failing.map((r) => r.id));
if (baseline.size) console.log(`fault-free mock fails ${[...baseline].join(', ')} (excluded from the mutation score)`);
const perFault: { fault: string; failing: string[] }[] = [];
for (const fault of FAULT_NAMES) {
  const run = await runConformance({ faults: [fault], reportsDir: null, progress: false, settings: { tier: 'full' } });
  // A fault counts as caught only by rules that pass against the fault-free mock.
  const failing = run.failing.map((r) => r.id).filter((id) => !baseline.has(id));
  perFault.push({ fault, failing });
  console.log(`  fault ${fault.padEnd(24)} ${failing.length ? `caught by ${failing.join(', ')}` : 'NOT CAUGHT'}`);
}
const caught = perFault.filter((f) => f.failing.length > 0).length;
const final = await runConformance({ reportsDir: 'reports', progress: false, settings: { tier: 'full' }, mutation: { caught, total: FAULT_NAMES.length, perFault } });

const wall = clean.summary.wallMs;
console.log(`conformance full tier vs embedded mock: ${(wall / 1000).toFixed(1)} s (goal ≤ ${GOAL_MS / 1000} s: ${wall <= GOAL_MS ? 'met' : 'MISSED'})`);
console.log(`rule coverage: ${t.checked}/${t.rules} checked (${t.pass} pass, ${t.fail} fail, ${t.skip} skipped)`);
console.log(`mutation score: ${caught}/${FAULT_NAMES.length} faults caught`);
console.log(`reports: ${final.reportFiles.join(', ')}`);
process.exitCode = clean.exitCode || (caught < FAULT_NAMES.length ? 1 : 0);
