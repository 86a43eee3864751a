// The generator agrees with the spec's own validators, with no server involved: every generated
// spec-valid request passes the generated Ajv validators (REST v1, queue v2) or graphql-js variable
// coercion (GraphQL), and every single-point violation fails them at exactly the path it names.
import fc from 'fast-check';
import {
  buildSchema, getNamedType, getVariableValues, isInputObjectType, isScalarType, isSpecifiedScalarType, Kind, parse,
  type GraphQLScalarType, type OperationDefinitionNode,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allOperations, operationSeed } from '../../src/agreement/runner.js';
import { parsePlaceholder } from '../../src/agreement/references.js';
import { schemaArbitrary } from '../../src/agreement/schema-arbitrary.js';
import { validCaseArbitrary, violationMakers, type GenerationContext, type RequestCase } from '../../src/agreement/requests.js';
import type { Schema } from '../../src/agreement/schema.js';
import type { OperationModel } from '../../src/agreement/spec-model.js';
import { parseQuery, serializeQuery } from '../../src/contract/query-style.js';
import { packageFile } from '../../src/contract/package-files.js';
import { validateRequest } from '../../src/validation/index.js';

const SEED = 7;
const RUNS = 25;
/** Longer maxLengths are checked once per operation and path (see the loop). */
const HUGE_LENGTH = 1024 * 1024;
const sdl = buildSchema(readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8'));
/**
 * The index-th sample of a schema: the one draw of its arbitrary seeded by the index. Arbitrary and draw
 * are kept per schema (a map past maxProperties 256 asks for the same 257 values in each of the 25 cases).
 */
const samples = new Map<Schema, { arbitrary: fc.Arbitrary<unknown>; drawn: Map<number, unknown> }>();
const ctx: GenerationContext = {
  reservedKeys: ['mock'],
  unique: (value) => value,
  sample: (schema, op, index) => {
    let entry = samples.get(schema);
    if (!entry) samples.set(schema, (entry = { arbitrary: schemaArbitrary(schema, { resolve: op.resolve }), drawn: new Map() }));
    if (!entry.drawn.has(index)) entry.drawn.set(index, fc.sample(entry.arbitrary, { seed: index + 1, numRuns: 1 })[0]);
    return entry.drawn.get(index);
  },
};

/** Placeholders stand for ids of existing resources (any well-formed id will do here) or catalogue values. */
function fill<T>(node: T): T {
  const ref = parsePlaceholder(node);
  if (ref) return (ref.kind === 'cudaVersion' ? '12.8' : 'agree1') as T;
  if (Array.isArray(node)) return node.map(fill) as T;
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fill(v)])) as T;
  return node;
}

/** Query values as the server sees them: through a URL serialised as the spec declares (style/explode), as strings. */
function wireQuery(op: OperationModel, query: Record<string, unknown>): Record<string, unknown> {
  return parseQuery(serializeQuery(query, op.queryStyles), op.queryStyles);
}

/** GraphQL: what graphql-js coercion sees; bounds stated only in SDL descriptions are the server's (mock test). */
const GRAPHQL_STRUCTURAL = new Set(['wrong-type', 'not-integer', 'missing-required', 'unknown-property', 'malformed-json']);
/** Input fields of a custom scalar type: the SDL alone (buildSchema) cannot coerce them; the server does. */
const CUSTOM_SCALAR_FIELDS = new Set(Object.values(sdl.getTypeMap()).flatMap((type) =>
  isInputObjectType(type) ? Object.values(type.getFields()).filter((f) => isScalarType(getNamedType(f.type)) && !isSpecifiedScalarType(getNamedType(f.type) as GraphQLScalarType)).map((f) => f.name) : []));

/** The operation definition of a GraphQL operation's document, parsed once per operation. */
const definitions = new Map<OperationModel, OperationDefinitionNode>();
function definitionOf(op: OperationModel): OperationDefinitionNode {
  let definition = definitions.get(op);
  if (!definition) {
    definition = parse(op.graphql!.document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    definitions.set(op, definition);
  }
  return definition;
}

function issuesOf(c: RequestCase): { path: string; message: string }[] {
  if (c.op.surface === 'graphql') {
    if (c.bodyMode === 'raw') return [{ path: '/body', message: 'not JSON' }];
    const definition = definitionOf(c.op);
    const variables = c.body;
    if (!variables || typeof variables !== 'object' || Array.isArray(variables)) return [{ path: '/variables', message: 'must be an object' }];
    const result = getVariableValues(sdl, definition.variableDefinitions ?? [], variables as Record<string, unknown>);
    return (result.errors ?? []).map((e) => ({ path: '/variables', message: e.message }));
  }
  if (c.bodyMode === 'raw') return [{ path: '/body', message: 'malformed' }];
  const body = c.bodyMode === 'json' ? c.body : undefined;
  return validateRequest(c.op.surface, c.op.operationId, { path: c.path, query: wireQuery(c.op, c.query), body });
}

const operations = allOperations();

describe('agreement generator ⇄ the specs\' validators', () => {
  it('covers every operation of every surface (REST v1, queue v2, GraphQL, REST v2)', () => {
    const surfaces = new Set(operations.map((o) => o.surface));
    expect([...surfaces].sort()).toEqual(['graphql', 'queueV2', 'restV1', 'restV2']);
    expect(operations.filter((o) => o.surface === 'restV2')).toHaveLength(67);
    expect(operations.filter((o) => o.surface === 'graphql').map((o) => o.operationId).sort()).toEqual(['deleteTemplate', 'gpuTypes', 'myself', 'pod', 'podTemplate', 'saveTemplate', 'secretCreate', 'secretDelete']);
  });

  it.each(operations.map((op) => [`${op.surface} ${op.operationId}`, op] as [string, OperationModel]))('%s: generated valid requests pass, each violation fails at its path', (_, op) => {
    const cases = fc.sample(validCaseArbitrary(op, ctx), { seed: operationSeed(SEED, op, 'valid'), numRuns: RUNS }).map(fill);
    let violations = 0;
    const hugeChecked = new Set<string>();
    // Every violation the validator lets through or names at another path; asserted once at the end (an
    // expect per violation cost more than the validation itself: thousands per operation).
    const missed: string[] = [];
    for (const c of cases) {
      expect(issuesOf(c), `valid ${op.operationId}: ${JSON.stringify({ path: c.path, query: c.query, body: c.body }).slice(0, 400)}`).toEqual([]);
      // Each violation's request is made only when judged (a 16 MiB value past a secret's maxLength only once).
      for (const { violation, make } of violationMakers(c, ctx)) {
        violations++;
        // A value past a huge maxLength (a secret's 16,777,215) is the same 16 MiB scan in every case: judged
        // in the first case that makes it, not again in each of the 25 (seconds each on a loaded machine).
        const huge = violation.kind === 'too-long' && Number(/maxLength (\d+)/.exec(violation.detail)?.[1] ?? 0) > HUGE_LENGTH;
        if (huge && hugeChecked.has(violation.pointer)) continue;
        if (huge) hugeChecked.add(violation.pointer);
        if (op.surface === 'graphql' && (!GRAPHQL_STRUCTURAL.has(violation.kind) || CUSTOM_SCALAR_FIELDS.has(violation.pointer.split('/').at(-1)!))) continue;
        const issues = issuesOf(make());
        const what = `${violation.kind} at ${violation.pointer}`;
        if (issues.length === 0) missed.push(`${op.operationId}: ${what} passed the validator`);
        else if (op.surface !== 'graphql' && !issues.some((i) => i.path === violation.pointer)) {
          missed.push(`${op.operationId}: ${what} reported at ${issues.map((i) => i.path).join(', ')} instead`);
        }
      }
    }
    expect(missed).toEqual([]);
    if (op.params.length > 0 || op.body) expect(violations, `${op.operationId} has inputs but no violation was generated`).toBeGreaterThan(0);
  });
});
