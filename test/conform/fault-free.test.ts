// The suite proves itself (1/3): against the fault-free mock, every rule passes or is skipped with a
// reason, and the catalogue is fully accounted for.
import { describe, expect, test } from 'vitest';
import { loadCatalogue, runConformance } from '../../src/conform/index.js';

describe('conformance suite against the fault-free embedded mock', () => {
  test('reports zero failing rules and lists every catalogue rule', async () => {
    const result = await runConformance({ reportsDir: null, progress: false, settings: { tier: 'full' } });
    expect(result.failing.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(result.summary.results.map((r) => r.id)).toEqual(loadCatalogue().map((r) => r.id));
    for (const r of result.summary.results.filter((x) => x.outcome === 'skip')) {
      // Only rules that cannot be checked black-box may be skipped against the mock.
      expect([r.id, r.skipKind]).toEqual([r.id, 'mock-only']);
      expect(r.reason).toMatch(/black-box/);
    }
  }, 120_000);
});
