// `compute-contract/conform`: the conformance suite (one check per rule of specs/rules.yaml) and the rule catalogue.
// The runner (src/conform) takes its checks as an argument; this entry binds the package's own suite.
import { conformanceChecks } from '../../contract-tests/index.js';
import * as runner from '../conform/index.js';
import type { MutationScore, RunSettings } from '../conform/index.js';

export * from '../conform/index.js';
export { rules, type RuleId, type Rule } from '../../generated/rules.js';

/** Options of a run of the package's suite (its checks are implied). */
export type ConformanceOptions = Omit<runner.ConformanceOptions, 'checks'>;

/** Runs the package's conformance suite against a target (or the embedded mock) and writes the reports. */
export function runConformance(options: ConformanceOptions = {}): Promise<runner.ConformanceResult> {
  return runner.runConformance({ ...options, checks: conformanceChecks });
}

/** Mutation score of the package's suite against the embedded mock's faults. */
export function measureMutationScore(
  settings: Partial<RunSettings>, log?: (line: string) => void, cleanFailing?: readonly string[],
): Promise<MutationScore> {
  return runner.measureMutationScore(conformanceChecks, settings, log, cleanFailing);
}
