// npm run release:notes — the draft of the next release's CHANGELOG section from the contract report
// (contract/last-release/ -> working tree): per surface the operations added, removed and changed, the rules
// added and changed by level, the TypeScript API changes; and the version the release needs under the 0.x
// rules of CONTRIBUTING.md (anything breaking: minor; nothing breaking: patch).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SURFACE_TITLES, type ContractChange, type Level, type Surface } from './contract/change.js';
import { breakingLines, unreleasedSection } from './contract/changelog.js';
import { contractChanges } from './contract/report.js';
import { readBaseline, readManifest, readWorkingTree, ROOT, WIRE_SURFACES } from './contract/sources.js';

const RANK: Record<Level, number> = { breaking: 0, dangerous: 1, safe: 2 };
const worst = (changes: ContractChange[]): Level => changes.reduce<Level>((level, c) => (RANK[c.level] < RANK[level] ? c.level : level), 'safe');
const code = (text: string) => `\`${text}\``;

/** The version after `from` under 0.x rules (breaking: minor) and 1.x+ rules (breaking: major, otherwise minor). */
export function nextVersion(from: string, breaking: boolean, additions: boolean): string {
  const [major = 0, minor = 0, patch = 0] = from.split('-')[0]!.split('.').map(Number);
  if (major === 0) return breaking ? `0.${minor + 1}.0` : `0.${minor}.${patch + 1}`;
  if (breaking) return `${major + 1}.0.0`;
  return additions ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

function bySubject(changes: ContractChange[]): Map<string, ContractChange[]> {
  const out = new Map<string, ContractChange[]>();
  for (const change of changes) out.set(change.subject, [...(out.get(change.subject) ?? []), change]);
  return out;
}

function changedLine(subject: string, changes: ContractChange[]): string {
  const level = worst(changes);
  const label = level === 'safe' ? '' : ` (**${level}**${[...new Set(changes.filter((c) => c.level === level).map((c) => c.party))].map((p) => ` for ${p}s`).join(',')})`;
  const details = changes.map((c) => c.what.replace(/^[^:]*: /, '')).slice(0, 6);
  const more = changes.length > 6 ? `; … ${changes.length - 6} more (npm run contract:diff)` : '';
  return `  - ${code(subject)}${label}: ${details.join('; ')}${more}`;
}

function operationsSection(surface: Surface, changes: ContractChange[]): string[] {
  const added = changes.filter((c) => c.operation === 'added');
  const removed = changes.filter((c) => c.operation === 'removed');
  const rest = changes.filter((c) => !c.operation);
  const lines: string[] = [];
  if (added.length) lines.push(`- ${surface === 'graphql' ? 'Root fields' : 'Operations'} added: ${added.map((c) => code(c.subject)).join(', ')}`);
  if (removed.length) lines.push(`- **Breaking**: ${surface === 'graphql' ? 'root fields' : 'operations'} removed: ${removed.map((c) => code(c.subject)).join(', ')}`);
  if (rest.length) {
    lines.push(`- Changed:`);
    for (const [subject, mine] of bySubject(rest)) lines.push(changedLine(subject, mine));
  }
  return lines;
}

function rulesSection(changes: ContractChange[]): string[] {
  const lines: string[] = [];
  const added = changes.filter((c) => c.action === 'added');
  for (const level of ['must', 'should', 'may']) {
    const mine = added.filter((c) => c.what.startsWith(`${c.subject} (${level},`));
    if (mine.length) lines.push(`- New ${level} rules${level === 'must' ? ' (implementers: breaking unless they judge only new operations)' : ''}: ${mine.map((c) => code(c.subject)).join(', ')}`);
  }
  const changed = changes.filter((c) => c.action !== 'added');
  if (changed.length) {
    lines.push('- Changed:');
    for (const [subject, mine] of bySubject(changed)) lines.push(changedLine(subject, mine));
  }
  return lines;
}

function typescriptSection(changes: ContractChange[]): string[] {
  const lines: string[] = [];
  const entryOf = (c: ContractChange) => c.subject.split(': ')[0]!;
  for (const entry of [...new Set(changes.map(entryOf))]) {
    const mine = changes.filter((c) => entryOf(c) === entry);
    const name = (c: ContractChange) => code(c.subject.slice(entry.length + 2) || entry);
    const added = mine.filter((c) => c.action === 'added');
    const removed = mine.filter((c) => c.action === 'removed');
    const changed = mine.filter((c) => c.action === 'changed');
    const parts = [
      added.length ? `added ${added.map(name).join(', ')}` : '',
      removed.length ? `**breaking**: removed ${removed.map(name).join(', ')}` : '',
      changed.length ? `changed ${changed.map((c) => `${name(c)}${c.level === 'safe' ? '' : ` (**${c.level}**)`}`).join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`- ${code(entry)}: ${parts.join('; ')}`);
  }
  return lines;
}

const baseline = readBaseline();
const changes = await contractChanges(baseline, readWorkingTree());
const packageVersion = String(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
const from = readManifest().release ?? packageVersion;
const unreleased = unreleasedSection(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')) ?? '';
const handBreaking = breakingLines(unreleased).length;
const breaking = changes.some((c) => c.level === 'breaking') || handBreaking > 0;
const version = nextVersion(from, breaking, changes.some((c) => c.action === 'added'));

const out: string[] = [`## ${version}`, ''];
out.push(`<!-- Draft by npm run release:notes against ${baseline.label}. ${breaking ? `Breaking changes (${changes.filter((c) => c.level === 'breaking').length} judged here${handBreaking ? `, ${handBreaking} **Breaking** line(s) already in Unreleased` : ''})` : 'Nothing breaking'}: ${from} -> ${version} under 0.x rules (CONTRIBUTING.md). Merge with the hand-written Unreleased lines. -->`);
const sections: [Surface, string[]][] = [
  ...WIRE_SURFACES.map((surface): [Surface, string[]] => [surface, operationsSection(surface, changes.filter((c) => c.surface === surface))]),
  ['graphql', operationsSection('graphql', changes.filter((c) => c.surface === 'graphql'))],
  ['rules', rulesSection(changes.filter((c) => c.surface === 'rules'))],
  ['typescript', typescriptSection(changes.filter((c) => c.surface === 'typescript'))],
];
for (const [surface, lines] of sections) {
  out.push('', `### ${SURFACE_TITLES[surface]}`, '');
  out.push(...(lines.length ? lines : ['- No change.']));
}
console.log(out.join('\n'));
