// Mutation score of the suite: run it against the embedded mock once without faults and once per
// fault of the mock's list; a fault counts as caught when a rule that passes fault-free fails with it.
import { FAULT_NAMES } from '../mock/index.js';
import type { RunSettings } from './target.js';
import type { RunSummary } from './types.js';
import type { CheckSuite } from './registry.js';
import { runConformance } from './run.js';

export type MutationScore = NonNullable<RunSummary['mutation']>;

/** `cleanFailing`: ids failing fault-free, when the caller already ran that (saves one full run). */
export async function measureMutationScore(
  checks: CheckSuite, settings: Partial<RunSettings>, log: (line: string) => void = () => undefined, cleanFailing?: readonly string[],
): Promise<MutationScore> {
  const baseline = new Set(cleanFailing ?? (await runConformance({ checks, reportsDir: null, progress: false, settings })).failing.map((r) => r.id));
  if (baseline.size) log(`fault-free mock fails ${[...baseline].join(', ')} (these rules do not count as catching a fault)`);
  const perFault: MutationScore['perFault'] = [];
  for (const fault of FAULT_NAMES) {
    const run = await runConformance({ checks, faults: [fault], reportsDir: null, progress: false, settings });
    const failing = run.failing.map((r) => r.id).filter((id) => !baseline.has(id));
    perFault.push({ fault, failing });
    log(`  fault ${fault.padEnd(24)} ${failing.length ? `caught by ${failing.join(', ')}` : 'NOT CAUGHT'}`);
  }
  const caught = perFault.filter((f) => f.failing.length > 0).length;
  log(`mutation score: ${caught}/${FAULT_NAMES.length} faults caught`);
  return { caught, total: FAULT_NAMES.length, perFault };
}
