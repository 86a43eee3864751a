// The contract report: every judged change between the last release and the working tree, and the gate
// over it (a breaking change must be named on a **Breaking** line of CHANGELOG's unreleased section).
import { byLevel, SURFACE_TITLES, SURFACES, type ContractChange, type Level, type Party } from './change.js';
import { diffApiReports } from './api-diff.js';
import { breakingLines, isAcknowledged } from './changelog.js';
import { diffGraphql } from './graphql-diff.js';
import { diffOpenApi, type OpenApiDocument } from './openapi-diff.js';
import { diffRules } from './rules-diff.js';
import { WIRE_SURFACES, type Contract } from './sources.js';

function operationIds(document: OpenApiDocument): string[] {
  const ids: string[] = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const id = (operation as { operationId?: unknown } | null)?.operationId;
      if (typeof id === 'string') ids.push(id);
    }
  }
  return ids;
}

/** API report file → the package subpath it reports ("compute-contract-mock.api.md" → "compute-contract/mock"). */
function entryPointOf(file: string, packageName: string): string {
  const base = file.replace(/\.api\.md$/, '');
  return base === packageName ? packageName : `${packageName}/${base.slice(packageName.length + 1)}`;
}

export async function contractChanges(before: Contract, after: Contract, packageName = 'compute-contract'): Promise<ContractChange[]> {
  const changes: ContractChange[] = [];
  for (const surface of WIRE_SURFACES) changes.push(...diffOpenApi(surface, before.openapi[surface], after.openapi[surface]));
  changes.push(...(await diffGraphql(before.graphql, after.graphql)));
  const graphqlOperations = [...before.graphql.matchAll(/^\s{2}(\w+)\s*[(:]/gm)].map((m) => m[1]!);
  const oldOperations = new Set([...WIRE_SURFACES.flatMap((surface) => operationIds(before.openapi[surface])), ...graphqlOperations]);
  changes.push(...diffRules(before.rules, after.rules, oldOperations));
  for (const file of [...new Set([...Object.keys(before.api), ...Object.keys(after.api)])].sort()) {
    changes.push(...diffApiReports(entryPointOf(file, packageName), before.api[file], after.api[file]));
  }
  return changes.sort(byLevel);
}

export interface GateResult {
  breaking: ContractChange[];
  unacknowledged: ContractChange[];
}

export function gate(changes: readonly ContractChange[], unreleased: string | undefined): GateResult {
  const lines = unreleased === undefined ? [] : breakingLines(unreleased);
  const breaking = changes.filter((change) => change.level === 'breaking');
  return { breaking, unacknowledged: breaking.filter((change) => !isAcknowledged(change, lines)) };
}

const tag = (level: Level, party: Party) => `${level}${level === 'safe' ? '' : ` (${party})`}`;

export function renderReport(changes: readonly ContractChange[], baseline: string, options: { only?: Level } = {}): string {
  const lines = [`Contract diff: ${baseline} -> working tree`];
  const shown = changes.filter((change) => !options.only || change.level === options.only);
  for (const surface of SURFACES) {
    const mine = shown.filter((change) => change.surface === surface);
    lines.push('', `${SURFACE_TITLES[surface]}: ${mine.length === 0 ? 'no change' : `${mine.length} change(s)`}`);
    for (const change of mine) lines.push(`  ${tag(change.level, change.party).padEnd(23)} ${change.what}`);
  }
  lines.push('', summary(changes));
  return lines.join('\n');
}

export function summary(changes: readonly ContractChange[]): string {
  const count = (level: Level, party?: Party) => changes.filter((c) => c.level === level && (!party || c.party === party)).length;
  return `${count('breaking')} breaking (${count('breaking', 'caller')} for callers, ${count('breaking', 'implementer')} for implementers), ${count('dangerous')} dangerous, ${count('safe')} safe`;
}
