// Shared types of the conformance runner: rules, tiers, outcomes and results.
export type Tier = 'safe' | 'full' | 'slow';
export type RuleCheckKind = 'black-box' | 'clock' | 'mock-only';

export interface CatalogueRule {
  id: string;
  title: string;
  seed: string;
  surface: string;
  check: RuleCheckKind;
  tier: Tier;
  source: string;
  values?: Record<string, unknown>;
  operations?: readonly string[];
  'why-not-black-box'?: string;
}

export type Outcome = 'pass' | 'fail' | 'skip';

/** Why a rule was not run: every skip names one, so nothing passes silently. */
export type SkipKind = 'needs-clock' | 'tier' | 'mock-only' | 'not-configured' | 'no-check' | 'filtered';

export interface RuleResult {
  id: string;
  title: string;
  surface: string;
  check: RuleCheckKind;
  tier: Tier;
  seed: string;
  outcome: Outcome;
  skipKind?: SkipKind;
  /** Failure message, skip reason, or notes of a pass (e.g. parts not observable black-box). */
  reason?: string;
  durationMs: number;
  /** HTTP calls the check made (all validated against the spec). */
  calls: number;
}

export interface RunSummary {
  target: string;
  tier: Tier;
  seed: number;
  clockControl: boolean;
  startedAt: string;
  wallMs: number;
  results: RuleResult[];
  totals: { rules: number; pass: number; fail: number; skip: number; checked: number };
  /** Filled in by the self-proof run (faults caught / faults), when known. */
  mutation?: { caught: number; total: number; perFault: { fault: string; failing: string[] }[] };
}
