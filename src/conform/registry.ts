// Checks register here by rule id; contract-tests/ holds them (one per rule in specs/rules.yaml) and hands
// the runner the finished suite (`conformanceChecks` of contract-tests/index.ts).
import type { Ctx } from './context.js';
import type { Need, Shared } from './needs.js';

/**
 * secondApiKey: a key of another account (ISOLATION-*); the preflight proves the two accounts differ.
 * lbUrl: the address of load-balancing endpoints (--lb-url or derived); lbWorkerImage: an image answering the echo contract.
 */
export type Requirement = 'readOnlyKey' | 'noPermissionKey' | 'secondApiKey' | 'embedded' | 'lbUrl' | 'lbWorkerImage';

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
  /**
   * The check covers every configured surface (ISOLATION-*): it uses whichever of the four the target
   * has and is skipped only when it has none; they count as declared needs for the usage check.
   */
  everyConfiguredSurface?: boolean;
  /** Real time the check waits when the target has no clock control (slow tier estimate). */
  realWaitMs?: number;
  timeoutMs?: number;
  /** What it shares with other checks (see Shared in needs.ts); omitted: the check runs alone. */
  shares?: readonly Shared[];
}

const checks = new Map<string, CheckDefinition>();

export function defineCheck(id: string, run: CheckDefinition['run'], options: Omit<CheckDefinition, 'id' | 'run'> = {}): void {
  if (checks.has(id)) throw new Error(`check ${id} is defined twice`);
  checks.set(id, { id, run, ...options });
}

/** Checks by rule id: what a run executes. */
export type CheckSuite = ReadonlyMap<string, CheckDefinition>;

export function registeredChecks(): CheckSuite {
  return checks;
}
