// GRAPHQL-COST-*: the mock measures every GraphQL document against the SDL's operation limits and
// refuses one over a limit before validating or executing it (HTTP 200, one errors[] entry naming the
// limit, its maximum and the measured value, no data, no side effect); at each limit it serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlLimits, STATIC_GRAPHQL_LIMIT_NAMES } from '../../src/contract/graphql-limits.js';
import { DOCUMENT_AT, saveTemplatesMutation } from '../../contract-tests/checks/graphql-cost-documents.js';
import { Harness } from './harness.js';

let h: Harness;
beforeAll(async () => { h = await Harness.start(); });
afterAll(async () => { await h.close(); });

const limits = graphqlLimits();
/** The alias bomb: ~1 MB, 30,000 aliases each listing the account's pods. */
const aliasBomb = `{ ${Array.from({ length: 30_000 }, (_, i) => `a${i}: myself { id pods { id } }`).join(' ')} }`;

describe('GraphQL operation limits', () => {
  for (const limit of STATIC_GRAPHQL_LIMIT_NAMES) {
    it(`GRAPHQL-COST: one past the ${limit} limit is refused naming the limit and the measured value; at the limit it is served`, async () => {
      const max = limits[limit];
      const over = await h.graphql(DOCUMENT_AT[limit](max + 1));
      expect(over.status).toBe(200);
      expect(over.body.data).toBeUndefined();
      const found = limit === 'tokens' ? `more than ${max}` : String(max + 1);
      expect(over.body.errors).toEqual([{ message: `Operation refused before execution: GraphQL limit "${limit}" is at most ${max}, found ${found}.` }]);
      const at = await h.graphql(DOCUMENT_AT[limit](max));
      expect(at.body.errors).toBeUndefined();
      expect(at.body.data).toBeTruthy();
    });
  }

  it('GRAPHQL-COST-001: the 1 MB alias bomb of 30,000 aliases is refused at parse time by the token limit', async () => {
    expect(aliasBomb.length).toBeGreaterThan(900_000);
    const answer = await h.graphql(aliasBomb);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ errors: [{ message: `Operation refused before execution: GraphQL limit "tokens" is at most ${limits.tokens}, found more than ${limits.tokens}.` }] });
  });

  it('GRAPHQL-COST-007: a mutation over a limit runs nothing (no template saved, SSH keys unchanged)', async () => {
    const names = Array.from({ length: limits.rootFields + 1 }, (_, i) => `limits-refused-${i}`);
    const refused = await h.graphql(saveTemplatesMutation(names));
    expect(refused.body.errors[0].message).toMatch(/"rootFields" is at most 10, found 11/);
    const keys = Array.from({ length: limits.rootFields + 1 }, (_, i) => `k${i}: updateUserSettings(input: {pubKey: "ssh-ed25519 AAAA refused-${i}"}) { pubKey }`).join(' ');
    expect((await h.graphql(`mutation { ${keys} }`)).body.errors).toHaveLength(1);
    const templates = (await h.rest('GET', '/templates')).body as { name: string }[];
    expect(templates.filter((t) => t.name.startsWith('limits-refused-'))).toEqual([]);
    expect((await h.graphql('{ myself { pubKey } }')).body.data.myself.pubKey ?? '').not.toMatch(/refused/);
  });

  it('the limits apply after authentication: a bomb without a key is answered 401', async () => {
    const answer = await h.request('POST', h.mock.graphqlUrl, { body: { query: aliasBomb }, key: null });
    expect(answer.status).toBe(401);
  });

  it('a syntax error within the token limit is still a syntax error, not a limit', async () => {
    const answer = await h.graphql('{ myself { id ');
    expect(answer.body.errors[0].message).toMatch(/^Syntax Error/);
  });

  it('bounded work: while the worst allowed requests run back to back, a neighbour\'s GET /v1/templates is answered between them', async () => {
    // Worst allowed: the token-limit document (most work per byte the limits let through).
    const worst = DOCUMENT_AT.tokens(limits.tokens);
    let worstDone = 0;
    const worstLoop = (async () => {
      for (let i = 0; i < 12; i++) {
        expect((await h.graphql(worst)).body.errors).toBeUndefined();
        worstDone++;
      }
    })();
    const neighbour: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await h.rest('GET', '/templates')).status).toBe(200);
      neighbour.push(worstDone);
    }
    await worstLoop;
    // Each neighbour request was answered while worst requests were still to come: not queued behind them all.
    expect(neighbour.every((done) => done < 12), `worst requests finished before each neighbour answer: ${neighbour.join(', ')}`).toBe(true);
  });
});

describe('GRAPHQL-COST-008: records per answer', () => {
  let small: Harness;
  beforeAll(async () => { small = await Harness.start({ limits: { graphqlRecords: 60 } }); });
  afterAll(async () => { await small.close(); });

  it('an answer past the records limit is refused whole (no data), one at it is served, and a long list comes back complete', async () => {
    for (let i = 0; i < 60; i++) expect((await small.rest('POST', '/pods', { name: `records-${i}`, imageName: 'x:1' })).status).toBe(201);
    const all = await small.graphql('{ myself { pods { id } } }');
    expect(all.body.data.myself.pods).toHaveLength(60);
    const over = await small.graphql('{ myself { pods { id } again: pods { id } } }');
    expect(over.body).toEqual({ errors: [{ message: 'Operation refused while listing: GraphQL limit "records" is at most 60, found more than 60.' }] });
  });
});

describe('the official clients are served within the limits', () => {
  it('every @runpod/mcp-server 4.0.0 GraphQL document is answered without a limit refusal (public ones without a key)', async () => {
    const { readFileSync } = await import('node:fs');
    const wire = JSON.parse(readFileSync(new URL('../compat/sdk-wire/mcp-server-4.0.0-graphql.json', import.meta.url), 'utf8')) as { documents: { tool: string; auth: string; query: string }[] };
    for (const { tool, auth, query } of wire.documents) {
      if (query.includes('$input')) continue; // needs variables; its limits are measured in test/graphql-limits-clients.test.ts
      const answer = await h.graphql(query, undefined, auth === 'none' ? null : undefined);
      expect(answer.status, tool).toBe(200);
      expect(answer.body.errors, `${tool}: ${JSON.stringify(answer.body.errors)}`).toBeUndefined();
    }
  });
});
