// Benchmark: full-tier wall time (default flags) against a target whose jobs never complete — Prism
// serving the REST v1 and queue v2 specs (stateless: the status of a job is never that job's) — goal
// ≤ 60 s on 2 cores; and its ratio to the full tier against the embedded mock in the same run.
import { runSideBySide, sideBySideTable } from './targets/side-by-side.js';

const GOAL_MS = 60_000;

const { embedded, prism } = await runSideBySide((line) => console.error(line));
const jobs = prism.preflight.find((p) => p.probe === 'jobs');
const blocked = prism.results.filter((r) => r.skipKind === 'preflight').length;
const wall = prism.wallMs;

console.log(sideBySideTable({ embedded, prism }));
console.log('');
console.log(`preflight against Prism: ${jobs ? `${jobs.ok ? 'jobs finish' : jobs.detail.replace(/: the status of job .*/, '')}` : 'no job probe'}; ${blocked} rules not run for that one cause`);
console.log(`conformance full tier vs a target whose jobs never complete (Prism): ${(wall / 1000).toFixed(1)} s (goal ≤ ${GOAL_MS / 1000} s: ${wall <= GOAL_MS ? 'met' : 'MISSED'}); ` +
  `${(wall / embedded.wallMs).toFixed(2)}× the embedded mock's ${(embedded.wallMs / 1000).toFixed(1)} s in the same run`);
process.exitCode = wall <= GOAL_MS && jobs?.ok === false ? 0 : 1;
