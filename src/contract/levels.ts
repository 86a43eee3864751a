// Rule levels (RFC 2119 words) follow a rule's source: what the seed states is a must; what the real
// service was observed doing is a should; what we assumed where both are silent is a may.
export type RuleLevel = 'must' | 'should' | 'may';
export type RuleSource = 'seed' | 'observed' | 'assumed';

export const RULE_LEVELS: readonly RuleLevel[] = ['must', 'should', 'may'];

const LEVEL_OF_SOURCE: Record<RuleSource, RuleLevel> = { seed: 'must', observed: 'should', assumed: 'may' };

export function levelOf(source: string): RuleLevel {
  const level = LEVEL_OF_SOURCE[source as RuleSource];
  if (!level) throw new Error(`rule source '${source}' has no level (expected seed, observed or assumed)`);
  return level;
}

/** `--level must,should` → the levels; a string names what is wrong. */
export function parseLevels(value: string | undefined): readonly RuleLevel[] | string {
  if (value === undefined) return RULE_LEVELS;
  const parts = value.split(',').map((p) => p.trim().toLowerCase());
  const bad = parts.filter((p) => !(RULE_LEVELS as readonly string[]).includes(p));
  if (parts.length === 0 || bad.length > 0) return `--level takes a comma-separated list of ${RULE_LEVELS.join(', ')} (got ${JSON.stringify(value.slice(0, 80))})`;
  return RULE_LEVELS.filter((l) => parts.includes(l));
}
