// The suite proves itself (2/2): each fault of the mock's list declares the rules that must catch it
// (src/mock/faults.ts, FAULT_CATCHERS); those rules fail with the fault. That they pass without it is
// proven by fault-free.test.ts, whose run of the whole catalogue without faults names each of them (one
// run of the suite without faults, not two). The whole suite per fault (the mutation score) is
// `compute-contract conform --prove` / bench:conform.
import { describe, expect, test } from 'vitest';
import { loadCatalogue, runConformance } from '../../src/entries/conform.js';
import { conformanceChecks } from '../../contract-tests/index.js';
import { FAULT_CATCHERS } from '../../src/mock/faults.js';
import { FAULT_NAMES, type FaultName } from '../../src/mock/index.js';

const catchers = (fault: FaultName): readonly string[] => (FAULT_CATCHERS as Partial<Record<string, readonly string[]>>)[fault] ?? [];

/**
 * Runs exactly `ids` against the embedded mock; per rule id its outcome, with the reason unless it is
 * the `expected` outcome (so a mismatch shows why).
 */
async function outcomes(ids: readonly string[], faults: FaultName[], expected: 'pass' | 'fail'): Promise<Record<string, string>> {
  // The agreement rules' catches need one generated request per operation, not the default two (the
  // faults are caught either way; the run costs half the CPU). A REST v2 fault the agreement rules catch is
  // judged against the mock as the service is today (REST v1 retired, REST v2 its management surface): the
  // REST v1 part of the agreement run cannot see it, and leaving it out costs about a third.
  const today = faults.every((fault) => fault.startsWith('rest-v2-')) && ids.every((id) => id.startsWith('AGREE-'));
  const result = await runConformance({ faults, today, reportsDir: null, progress: false, settings: { tier: 'full', grep: `^(${ids.join('|')})$`, fuzzRuns: 1 } });
  const ran = result.summary.results.filter((r) => r.skipKind !== 'filtered');
  return Object.fromEntries(ran.map((r) => [r.id, r.outcome === expected ? expected : `${r.outcome}: ${r.reason ?? ''}`]));
}

const all = (ids: readonly string[], outcome: string) => Object.fromEntries(ids.map((id) => [id, outcome]));

describe('every mock fault is caught by the rules it declares', () => {
  test('each fault declares at least one rule, each a catalogue rule with a check; nothing is declared for an unknown fault', () => {
    const ids = new Set(loadCatalogue().map((r) => r.id));
    expect(FAULT_NAMES.filter((f) => catchers(f).length === 0), 'faults declaring no catching rule (src/mock/faults.ts FAULT_CATCHERS)').toEqual([]);
    for (const fault of FAULT_NAMES) {
      expect(catchers(fault).filter((id) => !ids.has(id) || !conformanceChecks.has(id)), `${fault}: declared rules unknown or without a check`).toEqual([]);
    }
    expect(Object.keys(FAULT_CATCHERS).filter((f) => !(FAULT_NAMES as readonly string[]).includes(f))).toEqual([]);
  });

  // The cross-account faults are judged against every ISOLATION-* rule in one run (they share one
  // run of B's requests): the declared rules fail, every other ISOLATION rule still passes.
  const isolation = loadCatalogue().map((r) => r.id).filter((id) => id.startsWith('ISOLATION-'));
  for (const fault of FAULT_NAMES) {
    const declared = catchers(fault);
    const acrossAccounts = declared.length > 0 && declared.every((id) => id.startsWith('ISOLATION-'));
    test(`${fault}: every declared rule fails with it${acrossAccounts ? ', no other ISOLATION rule does' : ''}`, async () => {
      expect(declared.length, `${fault} declares no catching rule in src/mock/faults.ts FAULT_CATCHERS`).toBeGreaterThan(0);
      if (!acrossAccounts) return void expect(await outcomes(declared, [fault], 'fail')).toEqual(all(declared, 'fail'));
      const want = (id: string) => (declared.includes(id) ? 'fail' : 'pass');
      const result = await runConformance({ faults: [fault], reportsDir: null, progress: false, settings: { tier: 'full', grep: '^ISOLATION-' } });
      const ran = result.summary.results.filter((r) => r.skipKind !== 'filtered');
      expect(Object.fromEntries(ran.map((r) => [r.id, r.outcome === want(r.id) ? r.outcome : `${r.outcome}: ${r.reason ?? ''}`])))
        .toEqual(Object.fromEntries(isolation.map((id) => [id, want(id)])));
    }, 60_000);
  }
});
