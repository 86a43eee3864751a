// Which rule levels fail a traffic check: `must` by default, every level with --strict, or --level LIST.
import { RULE_LEVELS, type RuleLevel } from '../contract/levels.js';

export function failingLevels(strict: boolean, list: string | undefined): Set<RuleLevel> {
  if (strict && list !== undefined) throw new Error('--strict and --level exclude each other');
  if (strict) return new Set(RULE_LEVELS);
  if (list === undefined) return new Set<RuleLevel>(['must']);
  const levels = list.split(',').map((l) => l.trim()).filter(Boolean);
  const unknown = levels.filter((l) => !(RULE_LEVELS as readonly string[]).includes(l));
  if (unknown.length || levels.length === 0) throw new Error(`--level takes a comma list of ${RULE_LEVELS.join(', ')} (got "${list}")`);
  return new Set(levels as RuleLevel[]);
}
