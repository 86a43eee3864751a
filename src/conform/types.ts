// Shared types of the conformance runner: rules, tiers, outcomes and results.
import type { RuleLevel } from '../contract/levels.js';
import type { SurfaceName } from '../contract/surfaces.js';
import type { CatalogueRule, RuleCheckKind, Tier } from '../contract/catalogue.js';

export type { CatalogueRule, RuleCheckKind, Tier };

export type Outcome = 'pass' | 'fail' | 'skip';

/**
 * Why a rule was not run: every skip names one, so nothing passes silently. 'preflight': the target
 * lacks a capability the check needs (unreachable surface, key refused, jobs that never finish); the
 * reason is the one root cause, shared by every rule it blocks.
 */
export type SkipKind = 'needs-clock' | 'tier' | 'mock-only' | 'not-configured' | 'no-check' | 'filtered' | 'preflight';

export interface RuleResult {
  id: string;
  title: string;
  surface: string;
  check: RuleCheckKind;
  tier: Tier;
  /** must (seed) / should (observed) / may (assumed): see src/contract/levels.ts. */
  level: RuleLevel;
  seed: string;
  outcome: Outcome;
  skipKind?: SkipKind;
  /** Failure message, skip reason, or notes of a pass (e.g. parts not observable black-box). */
  reason?: string;
  durationMs: number;
  /** HTTP calls the check made (all validated against the spec). */
  calls: number;
}

export type Tally = { pass: number; fail: number; skip: number };

/** One preflight probe of a configured surface: reachable, key accepted, jobs finish. */
export interface PreflightProbe {
  surface: SurfaceName;
  /**
   * accounts: the second key (--second-api-key) reads another account than the first; endpoint: the
   * --endpoint-id is a queue endpoint of the key's account; retired: the surface answers 410 Gone.
   */
  probe: 'reachable' | 'key' | 'jobs' | 'accounts' | 'endpoint' | 'retired';
  ok: boolean;
  /** What was seen (the root cause when not ok). */
  detail: string;
  durationMs: number;
}

export interface RunSummary {
  target: string;
  tier: Tier;
  seed: number;
  clockControl: boolean;
  startedAt: string;
  wallMs: number;
  /** Surfaces the target configures, and the ones it does not (their rules are skipped). */
  surfaces: { configured: SurfaceName[]; absent: SurfaceName[] };
  /** Levels selected by --level; strict: every failing level counts toward the verdict. */
  levels: RuleLevel[];
  strict: boolean;
  preflight: PreflightProbe[];
  results: RuleResult[];
  /**
   * rules: the whole catalogue; inScope: the selected rules of the configured surfaces and of `all`
   * (the coverage denominator: checked / inScope, a skipped rule is not covered);
   * counted: failures that decide the verdict (must, or every level with --strict).
   */
  totals: { rules: number; inScope: number; pass: number; fail: number; skip: number; checked: number; counted: number; byLevel: Record<RuleLevel, Tally> };
  /** pass unless a counted rule failed or a preflight probe did. */
  verdict: 'pass' | 'fail';
  /** Filled in by the self-proof run (faults caught / faults), when known. */
  mutation?: { caught: number; total: number; perFault: { fault: string; failing: string[] }[] };
}
