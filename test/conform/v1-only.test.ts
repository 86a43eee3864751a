// Issue 35: the rules of queue v2, GraphQL, REST v2 and `all` that stay REST v1-only are few, named in one
// place (contract-tests/v1-only.ts) and shown as the same table in docs/real-targets.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { V1_ONLY } from '../../contract-tests/v1-only.js';
import { loadCatalogue } from '../../src/contract/catalogue.js';

describe('REST v1-only rules', () => {
  it('are at most 8 rules of surface queue v2, GraphQL, REST v2 or all, each with its reason', () => {
    const catalogue = new Map(loadCatalogue().map((r) => [r.id, r]));
    expect(V1_ONLY.size).toBeLessThanOrEqual(8);
    for (const [id, why] of V1_ONLY) {
      expect(catalogue.get(id)?.surface, id).toMatch(/^(queue-v2|graphql|rest-v2|all)$/);
      expect(why.length, id).toBeGreaterThan(20);
    }
  });

  it('docs/real-targets.md lists the same rules', () => {
    const docs = readFileSync(new URL('../../docs/real-targets.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Without REST v1'), docs.indexOf('## Preflight and root causes'));
    const rows = [...section.matchAll(/^\| ([A-Z][A-Z0-9-]+-\d{3}) \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...V1_ONLY.keys()]);
  });
});
