// GRAPHQL-COST-*: the limits of the SDL's schema description leave room for every operation the official
// clients send (runpod-python 1.12.0 and its REST v2 wrapper as recorded on the wire, @runpod/mcp-server
// 4.0.0, our own typed client's documents, graphql-js's standard introspection query), also at the
// largest inputs the SDL allows; and rules.yaml pins the same numbers.
import { readFileSync, readdirSync } from 'node:fs';
import { buildSchema, getIntrospectionQuery, parse } from 'graphql';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { graphqlLimits, limitsFromSdl } from '../src/contract/graphql-limits.js';
import { checkGraphqlLimits } from '../src/validation/graphql-limits.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const sdl = read('specs/graphql/schema.graphql');
const schema = buildSchema(sdl);

interface Wire { steps: { call: string; requests: { body: string }[] }[] }
const python = JSON.parse(read('test/compat/sdk-wire/runpod-python-1.12.0-graphql.json')) as Wire;
const mcp = JSON.parse(read('test/compat/sdk-wire/mcp-server-4.0.0-graphql.json')) as { documents: { tool: string; query: string }[] };
const pythonDocuments = python.steps.flatMap((s) => s.requests.map((r) => ({ name: s.call, query: (JSON.parse(r.body) as { query: string }).query })));

/** runpod-python inlines env as `env: [{ key: "K", value: "V" }, …]`: the same document at the SDL's 256 entries. */
function withMaximalEnv(query: string): string {
  const entries = Array.from({ length: 256 }, (_, i) => `{ key: "KEY_${i}", value: "${'v'.repeat(64)}" }`).join(', ');
  return query.replace(/env: \[[^\]]*\]/, `env: [${entries}]`);
}

function expectWithinLimits(name: string, query: string): void {
  const checked = checkGraphqlLimits(schema, query);
  expect(checked.ok ? 'within the limits' : 'breach' in checked ? checked.breach.message : checked.syntaxError.message, name).toBe('within the limits');
}

describe('GraphQL operation limits fit the official clients', () => {
  it('every runpod-python 1.12.0 / REST v2 wrapper document is within the limits', () => {
    expect(pythonDocuments.length).toBeGreaterThan(20);
    for (const { name, query } of pythonDocuments) expectWithinLimits(name, query);
  });

  it('runpod-python saveTemplate and podFindAndDeployOnDemand with 256 env entries (the SDL maximum) are within the limits', () => {
    const withEnv = pythonDocuments.filter((d) => /env: \[/.test(d.query));
    expect(new Set(withEnv.map((d) => /saveTemplate|podFindAndDeployOnDemand/.exec(d.query)?.[0]))).toEqual(new Set(['saveTemplate', 'podFindAndDeployOnDemand']));
    for (const { name, query } of withEnv) expectWithinLimits(`${name} with 256 env entries`, withMaximalEnv(query));
  });

  it('every @runpod/mcp-server 4.0.0 GraphQL document is within the limits', () => {
    expect(mcp.documents.map((d) => d.tool)).toContain('list-public-endpoints');
    for (const { tool, query } of mcp.documents) expectWithinLimits(`mcp ${tool}`, query);
  });

  it('our typed client documents and the standard introspection query are within the limits', () => {
    const dir = new URL('../specs/graphql/operations/', import.meta.url);
    const all = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), 'utf8')).join('\n');
    expectWithinLimits('specs/graphql/operations', all);
    expectWithinLimits('introspection', getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }));
    expect(parse(all).definitions.length).toBeGreaterThan(10);
  });

  it('rules.yaml pins the numbers the SDL states (GRAPHQL-COST-001..008)', () => {
    const limits = graphqlLimits();
    const rules = (parseYaml(read('specs/rules.yaml')) as { rules: { id: string; values?: Record<string, number> }[] }).rules.filter((r) => r.id.startsWith('GRAPHQL-COST-'));
    expect(rules.map((r) => r.id)).toEqual(['001', '002', '003', '004', '005', '006', '007', '008'].map((n) => `GRAPHQL-COST-${n}`));
    for (const rule of rules) for (const [name, value] of Object.entries(rule.values ?? {})) expect(value, `${rule.id} ${name}`).toBe(limits[name as keyof typeof limits]);
  });

  it('a document measured again is judged as the first time, against the limits it is measured with (the measurement is remembered per text and limits)', () => {
    const query = '{ myself { id pods { id name } } }';
    const stated = graphqlLimits();
    for (let i = 0; i < 2; i++) expect(checkGraphqlLimits(schema, query, stated).ok).toBe(true);
    const shallow = { ...stated, depth: 1 };
    for (let i = 0; i < 2; i++) {
      const checked = checkGraphqlLimits(schema, query, shallow);
      expect(!checked.ok && 'breach' in checked ? [checked.breach.limit, checked.breach.max] : checked.ok).toEqual(['depth', 1]);
    }
    // Each caller gets a document of its own (the mock keeps per-operation state keyed by the operation node).
    const [first, second] = [checkGraphqlLimits(schema, query), checkGraphqlLimits(schema, query)];
    expect(first.ok && second.ok && first.document !== second.document).toBe(true);
    expect(checkGraphqlLimits(schema, query).ok).toBe(true);
  });

  it('an SDL missing a limit, or stating one twice, is refused', () => {
    expect(() => limitsFromSdl(sdl.replace(/^- cost: .*$/m, ''))).toThrow(/does not state the GraphQL limit "cost"/);
    expect(() => limitsFromSdl(sdl.replace(/^(- depth: .*)$/m, '$1\n$1'))).toThrow(/"depth" twice/);
  });
});
