// `compute-contract rules [--list] [--level LIST]`: the rule catalogue in counts (per surface, check
// kind, source and level), or one line per rule with its level.
import { rules } from '../../generated/rules.js';
import { operations } from '../../generated/operations.js';
import { levelOf, parseLevels, RULE_LEVELS, type RuleLevel } from '../contract/levels.js';

type Rule = { id: string; title: string; surface: string; source: string } & Record<string, unknown>;
const catalogue = rules as readonly Rule[];

export function rulesSummary(): string {
  const count = (key: (rule: Rule) => string) => {
    const counts = new Map<string, number>();
    for (const rule of catalogue) counts.set(key(rule), (counts.get(key(rule)) ?? 0) + 1);
    return counts;
  };
  const line = (counts: Map<string, number>) => [...counts].sort().map(([k, n]) => `${k} ${n}`).join(', ');
  const levels = count((r) => levelOf(r.source));
  const ops = (s: string) => operations.filter((o) => o.surface === s).length;
  return [
    `compute-contract rule catalogue: ${catalogue.length} rules`,
    `  by surface: ${line(count((r) => r.surface))}`,
    `  by check:   ${line(count((r) => String(r['check'])))}`,
    `  by source:  ${line(count((r) => r.source))}`,
    `  by level:   ${RULE_LEVELS.map((l) => `${l} ${levels.get(l) ?? 0}`).join(', ')} (must: seed, should: observed, may: assumed;` +
      ' only must failures fail a conformance run unless --strict)',
    `operations: REST v1 ${ops('restV1')}, queue v2 ${ops('queueV2')}, REST v2 ${ops('restV2')}, GraphQL 4 mutations + 1 query`,
  ].join('\n');
}

/** One line per rule: id, level, surface, title. */
export function rulesList(levels: readonly RuleLevel[] = RULE_LEVELS): string {
  return catalogue
    .filter((r) => levels.includes(levelOf(r.source)))
    .map((r) => `${r.id.padEnd(20)} ${levelOf(r.source).padEnd(6)} ${r.surface.padEnd(8)} ${r.title}`)
    .join('\n');
}

export const rulesUsage = `Usage: compute-contract rules [--list] [--level must,should,may]

Without options: counts of the rule catalogue (specs/rules.yaml) per surface, check kind, source and level.
  --list          one line per rule: id, level, surface, title
  --level LIST    with --list: only rules of these levels`;

export function runRulesCommand(argv: readonly string[]): number {
  let list = false;
  let levelValue: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--list') list = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(rulesUsage);
      return 0;
    } else if (arg === '--level' || arg.startsWith('--level=')) levelValue = arg.includes('=') ? arg.slice('--level='.length) : (argv[++i] ?? '');
    else {
      console.error(`unknown argument ${arg}\n\n${rulesUsage}`);
      return 2;
    }
  }
  const levels = parseLevels(levelValue);
  if (typeof levels === 'string') {
    console.error(`${levels}\n\n${rulesUsage}`);
    return 2;
  }
  console.log(list ? rulesList(levels) : rulesSummary());
  return 0;
}
