// The suite proves itself (1/2): against the fault-free embedded mock every catalogue rule is checked
// (mock-only rules in-process) and passes — among them every rule a mock fault declares as its catcher
// (faults.test.ts proves they fail with the fault) — run concurrently as `npm start` does, and one check
// after another (--concurrency 1) with the same report; and against the mock as the service is today
// (`conform --today`: REST v1 retired, three surfaces), where every rule but REST v1's own and the v1-only
// list (contract-tests/v1-only.ts) runs and passes.
import { describe, expect, test } from 'vitest';
import { loadCatalogue, runConformance, type RuleResult } from '../../src/entries/conform.js';
import { FAULT_CATCHERS } from '../../src/mock/faults.js';
import { V1_ONLY } from '../../contract-tests/v1-only.js';

/**
 * What a report says about a rule, without what timing decides: the duration, the number of calls
 * (polling checks ask until the job is there, and each ask lets virtual time pass, so where the clock
 * stands in a rate window when a rate check starts — its Retry-After figure — follows from them too)
 * and the heap figures AGREE-ROBUST-001 reads after GC.
 */
const content = ({ durationMs: _d, calls: _c, ...rest }: RuleResult) => ({
  ...rest,
  reason: rest.reason?.replace(/heap after GC [\d.]+ → [\d.]+ MB/, 'heap after GC … MB').replace(/Retry-After \d+ s/g, 'Retry-After … s'),
});

describe('conformance suite against the fault-free embedded mock', () => {
  let concurrent: RuleResult[] = [];

  test('reports zero failing rules and lists every catalogue rule (default concurrency)', async () => {
    const result = await runConformance({ reportsDir: null, progress: false, settings: { tier: 'full' } });
    concurrent = result.summary.results;
    expect(result.failing.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(result.summary.results.map((r) => r.id)).toEqual(loadCatalogue().map((r) => r.id));
    // The embedded mock offers clock control and in-process access, so nothing may be skipped.
    expect(result.summary.results.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.outcome} ${r.reason}`)).toEqual([]);
    // Half of the faults' self-proof (faults.test.ts has the other): every rule a fault declares as its
    // catcher passes without any fault.
    const declared = [...new Set(Object.values(FAULT_CATCHERS).flat())].sort();
    const passed = new Set(result.summary.results.filter((r) => r.outcome === 'pass').map((r) => r.id));
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.filter((id) => !passed.has(id)), 'rules declared in FAULT_CATCHERS that did not pass without faults').toEqual([]);
  }, 300_000); // the whole catalogue; generous for a loaded 2-core machine

  test('today (REST v1 retired, three URLs): only REST v1\'s own rules and the listed v1-only ones are skipped; ISOLATION-* and AGREE-* run; queue v2 passes as in the full run', async () => {
    expect(concurrent, 'the full run of the first test is the baseline').not.toHaveLength(0);
    const { summary } = await runConformance({ reportsDir: null, progress: false, today: true, settings: { tier: 'full' } });
    expect(summary.surfaces.configured).toEqual(['queueV2', 'graphql', 'restV2']);
    expect(summary.preflight.filter((p) => !p.ok)).toEqual([]);
    expect(summary.results.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    // Not run: every REST v1 rule, and of the other surfaces exactly the v1-only list (docs/real-targets.md,
    // at most 8), each for want of REST v1 and nothing else: the set-up seam made everything else run.
    const skipped = summary.results.filter((r) => r.outcome === 'skip');
    expect(summary.results.filter((r) => r.surface === 'rest-v1' && r.outcome !== 'skip').map((r) => r.id)).toEqual([]);
    expect(skipped.filter((r) => r.surface !== 'rest-v1').map((r) => r.id).sort()).toEqual([...V1_ONLY.keys()].sort());
    expect(V1_ONLY.size).toBeLessThanOrEqual(8);
    expect(skipped.filter((r) => r.skipKind !== 'not-configured' || r.reason !== 'needs --rest-url (REST v1 is not configured)').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    // The two-account world and the agreement phase are built through REST v2: every ISOLATION-* and AGREE-* rule runs and passes.
    const worlds = (ids: string[]) => ids.filter((id) => /^(ISOLATION|AGREE)-/.test(id));
    expect(worlds(summary.results.filter((r) => r.outcome === 'pass').map((r) => r.id))).toEqual(worlds(loadCatalogue().map((r) => r.id)));
    // Queue v2 rules set up through REST v2: the same rules pass as in the full run (ISOLATION-JOB-001 among them).
    const queuePasses = (results: RuleResult[]) => results.filter((r) => r.surface === 'queue-v2' && r.outcome === 'pass').map((r) => r.id);
    expect(queuePasses(summary.results)).toEqual(queuePasses(concurrent));
    // Coverage counts the rules of the three surfaces and of `all`, the skipped ones as not covered.
    expect(summary.totals.inScope).toBe(summary.results.filter((r) => r.surface !== 'rest-v1').length);
    expect(summary.totals.checked).toBe(summary.totals.inScope - V1_ONLY.size);
  }, 300_000);

  test('--concurrency 1 (one check after another) gives the same report, in the same order', async () => {
    const result = await runConformance({ reportsDir: null, progress: false, settings: { tier: 'full', concurrency: 1 } });
    expect(concurrent.map((r) => r.id)).toEqual(result.summary.results.map((r) => r.id));
    const sequential = new Map(result.summary.results.map((r) => [r.id, JSON.stringify(content(r))]));
    const differing = concurrent.filter((r) => sequential.get(r.id) !== JSON.stringify(content(r)));
    expect(differing.map((r) => ({ concurrent: JSON.stringify(content(r)), sequential: sequential.get(r.id) }))).toEqual([]);
  }, 300_000);
});
