// The suite proves itself (1/3): against the fault-free embedded mock every catalogue rule is checked
// (mock-only rules in-process) and passes.
import { describe, expect, test } from 'vitest';
import { loadCatalogue, runConformance } from '../../src/conform/index.js';

describe('conformance suite against the fault-free embedded mock', () => {
  test('reports zero failing rules and lists every catalogue rule', async () => {
    const result = await runConformance({ reportsDir: null, progress: false, settings: { tier: 'full' } });
    expect(result.failing.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(result.summary.results.map((r) => r.id)).toEqual(loadCatalogue().map((r) => r.id));
    // The embedded mock offers clock control and in-process access, so nothing may be skipped.
    expect(result.summary.results.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.outcome} ${r.reason}`)).toEqual([]);
  }, 300_000); // the whole catalogue; generous for a loaded 2-core machine
});
