// npm run contract:diff [-- --breaking]  — the contract report: each OpenAPI surface, the GraphQL SDL, the
//   rule catalogue and the TypeScript API against the last release (contract/last-release/), every change
//   classified breaking / dangerous / safe, for callers and for implementers.
// npm run lint:contract (--check, in `npm run lint`) — fails when a breaking change is not named on a
//   **Breaking** line of CHANGELOG.md's unreleased section (CONTRIBUTING.md, "Changing the contract").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unreleasedSection } from './contract/changelog.js';
import { contractChanges, gate, renderReport, summary } from './contract/report.js';
import { readBaseline, readWorkingTree, ROOT } from './contract/sources.js';

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--check' && arg !== '--breaking');
if (unknown.length > 0) {
  console.error(`contract:diff: unknown argument ${unknown[0]} (usage: contract-diff [--check] [--breaking])`);
  process.exit(2);
}

let baseline;
try {
  baseline = readBaseline();
} catch (error) {
  console.error(`contract:diff: ${(error as Error).message}`);
  process.exit(2);
}
const changes = await contractChanges(baseline, readWorkingTree());

if (!args.includes('--check')) {
  console.log(renderReport(changes, baseline.label, args.includes('--breaking') ? { only: 'breaking' } : {}));
  process.exit(0);
}

const unreleased = unreleasedSection(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
const { breaking, unacknowledged } = gate(changes, unreleased);
if (unacknowledged.length === 0) {
  console.log(`contract gate: ${summary(changes)} against ${baseline.label}${breaking.length ? '; every breaking change is named on a **Breaking** line' : ''}`);
  process.exit(0);
}
console.error(`contract gate: ${unacknowledged.length} breaking change(s) against ${baseline.label} not named on a line of CHANGELOG.md's unreleased section starting \`- **Breaking**\`:`);
for (const change of unacknowledged) console.error(`  ${change.surface} (${change.party}): ${change.what}\n      name it as one of: ${change.names.map((n) => `\`${n}\``).join(', ')}`);
console.error('Either undo the change, or add a line under "## Unreleased" such as');
console.error(`  - **Breaking**: ${unacknowledged[0]!.names[0]} … (what changed and what callers or implementers do now)`);
console.error('The whole report: npm run contract:diff');
process.exit(1);
