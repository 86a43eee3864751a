// The verdict of a run: which failures count (must by default; every level with --strict), the
// totals per level, and the exit code. A failed preflight probe always counts: the run could not
// check what it was asked to (unreachable surface, refused key, jobs that never finish).
import { RULE_LEVELS, type RuleLevel } from '../contract/levels.js';
import type { PreflightProbe, RuleResult, RunSummary, Tally } from './types.js';

export function countsTowardVerdict(result: Pick<RuleResult, 'outcome' | 'level'>, strict: boolean): boolean {
  return result.outcome === 'fail' && (strict || result.level === 'must');
}

export function totalsOf(results: readonly RuleResult[], inScope: number, strict: boolean): RunSummary['totals'] {
  const count = (o: string) => results.filter((r) => r.outcome === o).length;
  const byLevel = Object.fromEntries(RULE_LEVELS.map((l) => [l, { pass: 0, fail: 0, skip: 0 }])) as Record<RuleLevel, Tally>;
  for (const r of results) byLevel[r.level][r.outcome]++;
  return {
    rules: results.length,
    inScope,
    pass: count('pass'),
    fail: count('fail'),
    skip: count('skip'),
    checked: count('pass') + count('fail'),
    counted: results.filter((r) => countsTowardVerdict(r, strict)).length,
    byLevel,
  };
}

export function verdictOf(totals: RunSummary['totals'], preflight: readonly PreflightProbe[]): RunSummary['verdict'] {
  return totals.counted > 0 || preflight.some((p) => !p.ok) ? 'fail' : 'pass';
}

export function exitCodeOf(summary: Pick<RunSummary, 'verdict'>): 0 | 1 {
  return summary.verdict === 'fail' ? 1 : 0;
}

/** "FAIL (3 must failures)", "PASS (2 should failures not counted; --strict counts them)". */
export function verdictLine(summary: RunSummary): string {
  const t = summary.totals;
  const brokenProbes = summary.preflight.filter((p) => !p.ok).length;
  const parts: string[] = [];
  if (t.counted > 0) parts.push(`${t.counted} ${summary.strict ? '' : 'must '}failure${t.counted === 1 ? '' : 's'}`);
  if (brokenProbes > 0) parts.push(`${brokenProbes} preflight problem${brokenProbes === 1 ? '' : 's'}`);
  const uncounted = t.fail - t.counted;
  if (uncounted > 0) {
    const levels = RULE_LEVELS.filter((l) => l !== 'must' && t.byLevel[l].fail > 0).map((l) => `${t.byLevel[l].fail} ${l}`).join(', ');
    parts.push(`${levels} failure${uncounted === 1 ? '' : 's'} not counted; --strict counts them`);
  }
  return `${summary.verdict.toUpperCase()}${parts.length ? ` (${parts.join('; ')})` : ''}`;
}
