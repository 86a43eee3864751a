// Shared by the self-proof tests: run the suite against the embedded mock with one fault injected.
import { runConformance } from '../../src/conform/index.js';
import type { FaultName } from '../../src/mock/index.js';

export async function failingRules(faults: FaultName[], bail: boolean): Promise<string[]> {
  const result = await runConformance({ faults, reportsDir: null, progress: false, settings: { tier: 'full', bail } });
  return result.failing.map((r) => `${r.id}: ${r.reason}`);
}

/** The mock's fault list split in halves so vitest runs the two files on both cores. */
export function half<T>(list: readonly T[], which: 0 | 1): T[] {
  const mid = Math.ceil(list.length / 2);
  return which === 0 ? list.slice(0, mid) : list.slice(mid);
}
