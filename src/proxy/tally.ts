// The running tally of judged traffic: counts per rule and operation, and the distinct violations
// (same operation, rule and message counted once, with how often). Bounded so a long session stays small.
import type { RuleLevel } from '../contract/levels.js';
import type { Violation } from './exchange.js';
import type { Judgement } from './judge.js';
import { titleOf, violation } from './rule-ids.js';

/** Distinct violations kept; later distinct ones are only counted (droppedViolations). */
export const MAX_DISTINCT_VIOLATIONS = 1000;
/** Operations and notes tracked by name; beyond this they are counted under "(other)". */
const MAX_KEYS = 500;

export interface TallyViolation extends Violation {
  count: number;
  /** First exchange that showed it: method and path, never the query (it may carry api_key). */
  example: string;
}

export interface TrafficReport {
  tool: string;
  /** Upstream URL or traffic file. */
  source: string;
  startedAt: string;
  endedAt: string;
  totals: {
    exchanges: number;
    judged: number;
    unmatched: number;
    withNotes: number;
    upstreamErrors: number;
    violations: number;
    distinctViolations: number;
    droppedViolations: number;
    byLevel: Record<RuleLevel, number>;
  };
  rules: { ruleId: string; level: RuleLevel; title: string; checked: number; violations: number }[];
  operations: { surface: string; operationId: string; exchanges: number; violations: number }[];
  notes: { note: string; count: number }[];
  violations: TallyViolation[];
}

function bump<V>(map: Map<string, V>, key: string, fresh: () => V): V {
  const k = map.has(key) || map.size < MAX_KEYS ? key : '(other)';
  let value = map.get(k);
  if (!value) map.set(k, (value = fresh()));
  return value;
}

export class Tally {
  private exchanges = 0;
  private judged = 0;
  private unmatched = 0;
  private withNotes = 0;
  private upstreamErrors = 0;
  private dropped = 0;
  private readonly droppedByLevel: Record<RuleLevel, number> = { must: 0, should: 0, may: 0 };
  private readonly perRule = new Map<string, { checked: number; violations: number }>();
  private readonly perOperation = new Map<string, { surface: string; operationId: string; exchanges: number; violations: number }>();
  private readonly notes = new Map<string, { count: number }>();
  private readonly distinct = new Map<string, TallyViolation>();
  readonly startedAt = new Date().toISOString();

  constructor(
    readonly tool: string,
    readonly source: string,
  ) {}

  add(judgement: Judgement, example: string): void {
    this.exchanges++;
    if (judgement.surface === undefined) this.unmatched++;
    else this.judged++;
    if (judgement.notes.length) this.withNotes++;
    for (const note of judgement.notes) bump(this.notes, note, () => ({ count: 0 })).count++;
    for (const id of judgement.checked) bump(this.perRule, id, () => ({ checked: 0, violations: 0 })).checked++;
    const op = bump(this.perOperation, `${judgement.surface ?? '-'} ${judgement.operationId}`, () => ({ surface: judgement.surface ?? '-', operationId: judgement.operationId, exchanges: 0, violations: 0 }));
    op.exchanges++;
    for (const v of judgement.violations) {
      op.violations++;
      bump(this.perRule, v.ruleId, () => ({ checked: 0, violations: 0 })).violations++;
      const key = `${v.surface} ${v.operationId} ${v.ruleId} ${v.message}`;
      const seen = this.distinct.get(key);
      if (seen) seen.count++;
      else if (this.distinct.size < MAX_DISTINCT_VIOLATIONS) this.distinct.set(key, { ...v, count: 1, example });
      else {
        this.dropped++;
        this.droppedByLevel[v.level]++;
      }
    }
  }

  /** The upstream could not be reached or broke off: no answer to judge. */
  upstreamError(): void {
    this.exchanges++;
    this.upstreamErrors++;
  }

  report(): TrafficReport {
    const violations = [...this.distinct.values()];
    const byLevel: Record<RuleLevel, number> = { ...this.droppedByLevel };
    for (const v of violations) byLevel[v.level] += v.count;
    const rules = [...this.perRule].map(([ruleId, r]) => ({ ruleId, level: violation(ruleId, '-', '-', '').level, title: titleOf(ruleId), ...r })).sort((a, b) => a.ruleId.localeCompare(b.ruleId));
    return {
      tool: this.tool,
      source: this.source,
      startedAt: this.startedAt,
      endedAt: new Date().toISOString(),
      totals: {
        exchanges: this.exchanges,
        judged: this.judged,
        unmatched: this.unmatched,
        withNotes: this.withNotes,
        upstreamErrors: this.upstreamErrors,
        violations: violations.reduce((n, v) => n + v.count, 0) + this.dropped,
        distinctViolations: violations.length,
        droppedViolations: this.dropped,
        byLevel,
      },
      rules,
      operations: [...this.perOperation.values()].sort((a, b) => `${a.surface} ${a.operationId}`.localeCompare(`${b.surface} ${b.operationId}`)),
      notes: [...this.notes].map(([note, n]) => ({ note, count: n.count })),
      violations,
    };
  }
}

/** Exit status of a traffic check: 1 when a violation of a counted level was seen. */
export function exitCodeOf(report: TrafficReport, levels: ReadonlySet<RuleLevel>): number {
  return [...levels].some((level) => report.totals.byLevel[level] > 0) ? 1 : 0;
}
