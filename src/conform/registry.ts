// Checks register here by rule id; contract-tests/ holds them (one per rule in specs/rules.yaml).
import type { Ctx } from './context.js';
import type { Need } from './needs.js';

export type Requirement = 'readOnlyKey' | 'noPermissionKey' | 'embedded';

/**
 * Target state a check shares with others, for concurrent runs (runner.ts, --concurrency): two checks
 * run at once only when what they share does not overlap.
 *  - 'clock': advances the target's clock, or depends on where it stands or on job progress (jobs,
 *    ttl, retention, rate windows, delete delays, logs, billing);
 *  - 'restV2-quota': the API key's REST v2 minute/hour/day windows (every REST v2 call counts).
 * Derived on top of the declaration (selection.ts): 'clock' for clock rules and checks using queue v2,
 * jobs or REST v2 (whose 429s are waited out on the clock); 'restV2-quota' for checks using REST v2.
 * A check that declares no `shares` runs alone, nothing else at the same time: so does every check
 * reading account-wide lists or totals, measuring the target's memory, switching target-wide
 * behaviour (control API: webhook log, GPU availability) or reaching into the embedded mock — and
 * every new check until someone declares otherwise. Against the embedded mock the runner verifies
 * that a check declaring `shares` advances the clock, uses REST v2 and the control API only as declared.
 */
export type Shared = 'clock' | 'restV2-quota';

export interface CheckDefinition {
  id: string;
  /** Returns nothing, or a note shown with the pass (e.g. parts not observable black-box). */
  run(ctx: Ctx): Promise<void | string>;
  requires?: Requirement[];
  /**
   * What the check uses beyond its rule's surface: other surfaces, 'endpoint' (any queue endpoint
   * will do), 'jobs' (waits for job progress). See needs.ts; verified against the embedded mock.
   */
  needs?: Need[];
  /** Real time the check waits when the target has no clock control (slow tier estimate). */
  realWaitMs?: number;
  timeoutMs?: number;
  /** What it shares with other checks (see Shared); omitted: the check runs alone. */
  shares?: readonly Shared[];
}

const checks = new Map<string, CheckDefinition>();

export function defineCheck(id: string, run: CheckDefinition['run'], options: Omit<CheckDefinition, 'id' | 'run'> = {}): void {
  if (checks.has(id)) throw new Error(`check ${id} is defined twice`);
  checks.set(id, { id, run, ...options });
}

export function registeredChecks(): ReadonlyMap<string, CheckDefinition> {
  return checks;
}
