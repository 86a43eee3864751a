// A plain-text summary of the rule catalogue: counts per surface and per check kind.
import { rules } from '../../generated/rules.js';
import { operations } from '../../generated/operations.js';

export function rulesSummary(): string {
  const count = (key: 'surface' | 'check' | 'source') => {
    const counts = new Map<string, number>();
    for (const rule of rules as readonly Record<string, unknown>[]) {
      const k = String(rule[key]);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return [...counts].sort().map(([k, n]) => `${k} ${n}`).join(', ');
  };
  const ops = (s: string) => operations.filter((o) => o.surface === s).length;
  return [
    `compute-contract rule catalogue: ${rules.length} rules`,
    `  by surface: ${count('surface')}`,
    `  by check:   ${count('check')}`,
    `  by source:  ${count('source')}`,
    `operations: REST v1 ${ops('restV1')}, queue v2 ${ops('queueV2')}, GraphQL 4 mutations + 1 query`,
  ].join('\n');
}
