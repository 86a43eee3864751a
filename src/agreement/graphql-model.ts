// The GraphQL operations of specs/graphql/operations as fuzzable operations: each document with the
// fragments it uses, and its variables as a JSON Schema derived from the SDL's input types (Int is
// 32-bit, input objects reject unknown fields, non-null means required, custom scalars carry the
// pattern their description states).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, Kind, parse, print,
  typeFromAST, visit, type ASTNode, type DefinitionNode, type FragmentDefinitionNode, type GraphQLInputType, type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { packageFile } from '../contract/package-files.js';
import type { OperationModel } from './spec-model.js';
import type { Schema } from './schema.js';
import { withDescribedBounds } from '../contract/graphql-bounds.js';

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
/** HTTP statuses of the GraphQL surface: 200 (data or errors[], GQL-ERROR-001), 400 (not a GraphQL request), 401. */
const GRAPHQL_STATUSES = [200, 400, 401];

/**
 * Mutations the official SDKs send (specs/graphql, runpod-python 1.12.0) are not fuzzed: whether one is
 * accepted depends on the catalog (GPU types, CPU instances, pools, data centres) and on pod state, which
 * random inputs cannot aim at, so most generated requests would only test refusals. Their bad input is
 * covered by rule GQL-SDK-INPUT-001 (test/mock/graphql-sdk-bad-input.test.ts) and their answers by the
 * SDK wire test; the SDK queries (myself, gpuTypes, pod) are fuzzed like every other operation.
 */
export const UNFUZZED_GRAPHQL_FIELDS: ReadonlySet<string> = new Set([
  'updateUserSettings', 'podFindAndDeployOnDemand', 'deployCpuPod', 'podStop', 'podResume', 'podTerminate',
  'saveEndpoint', 'updateEndpointTemplate', 'saveRegistryAuth', 'updateRegistryAuth', 'deleteRegistryAuth',
]);

/** Built once per process (the SDL and the operation documents are package files nothing changes while it runs). */
let loaded: readonly OperationModel[] | undefined;

/** Every fuzzed GraphQL operation (a new array each call; the models are shared and never changed). */
export function loadGraphqlOperations(): OperationModel[] {
  return [...(loaded ??= buildGraphqlOperations())];
}

function buildGraphqlOperations(): OperationModel[] {
  const sdl = buildSchema(readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8'));
  const dir = packageFile('specs/graphql/operations');
  const definitions: DefinitionNode[] = readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .flatMap((f) => parse(readFileSync(join(dir, f), 'utf8')).definitions);
  const fragments = new Map(
    definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const operations = definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION).filter((op) => {
    const root = op.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
    return !(root?.kind === Kind.FIELD && UNFUZZED_GRAPHQL_FIELDS.has(root.name.value));
  });
  return operations.map((op) => {
    const name = op.name?.value;
    if (!name) throw new Error('every operation in specs/graphql/operations must be named');
    const rootField = op.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    const nullableVariables: string[] = [];
    for (const v of op.variableDefinitions ?? []) {
      const type = typeFromAST(sdl, v.type as never) as GraphQLInputType | undefined;
      if (!type) throw new Error(`${name}: unknown variable type`);
      properties[v.variable.name.value] = inputSchema(type, sdl);
      if (isNonNullType(type) && !v.defaultValue) required.push(v.variable.name.value);
      else nullableVariables.push(v.variable.name.value);
    }
    const document = [print(op), ...usedFragments(op, fragments).map((f) => print(f))].join('\n\n');
    return {
      surface: 'graphql' as const,
      operationId: rootField && rootField.kind === Kind.FIELD ? rootField.name.value : name,
      method: 'POST',
      path: '',
      params: [],
      queryStyles: {},
      // Variables a document does not declare are ignored by GraphQL: no "unknown property" at the top.
      body: { schema: { type: 'object', properties, required }, required: true },
      statuses: GRAPHQL_STATUSES,
      resolve: (s: Schema) => s,
      graphql: { document, operationName: name, rootField: rootField?.kind === Kind.FIELD ? rootField.name.value : name, nullableVariables },
    };
  });
}

function usedFragments(op: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const used = new Map<string, FragmentDefinitionNode>();
  const collect = (node: ASTNode): void => {
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (used.has(name)) return;
        const fragment = fragments.get(name);
        if (!fragment) throw new Error(`fragment ${name} is not defined in specs/graphql/operations`);
        used.set(name, fragment);
        collect(fragment);
      },
    });
  };
  collect(op);
  return [...used.values()];
}

/** A GraphQL input type as JSON Schema; nullable types admit null. */
export function inputSchema(type: GraphQLInputType, sdl: GraphQLSchema, description?: string | null): Schema {
  if (isNonNullType(type)) return annotate(named(type.ofType, sdl), description);
  const inner = named(type, sdl);
  const types = inner.type === undefined ? undefined : [...(Array.isArray(inner.type) ? inner.type : [inner.type]), 'null' as const];
  return annotate(types ? { ...inner, type: types } : inner, description);
}

function named(type: GraphQLInputType, sdl: GraphQLSchema): Schema {
  if (isListType(type)) {
    const items = inputSchema(type.ofType, sdl);
    // GraphQL coerces a single scalar where a list of scalars is expected into a one-item list, so such
    // a value is no wrong type; a scalar for a list of input objects still is.
    const single = isInputObjectType(getNamedType(type.ofType)) ? [] : (Array.isArray(items.type) ? items.type : items.type ? [items.type] : []).filter((t) => t !== 'null');
    return single.length > 0 ? { type: ['array', ...single], items } : { type: 'array', items };
  }
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
  if (isInputObjectType(type)) {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields())) {
      properties[field.name] = inputSchema(field.type, sdl, field.description);
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return { type: 'object', properties, required, additionalProperties: false };
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return { type: 'integer', minimum: INT_MIN, maximum: INT_MAX };
      case 'Float':
        return { type: 'number' };
      case 'Boolean':
        return { type: 'boolean' };
      case 'String':
        return { type: 'string' };
      case 'ID':
        // ID input accepts strings and integers (GraphQL spec, 3.5.5).
        return { type: ['string', 'integer'], minimum: INT_MIN, maximum: INT_MAX };
      default: {
        // A custom scalar serialised as a string states its pattern in its description.
        const pattern = /Pattern: `([^`]+)`/.exec(type.description ?? '')?.[1];
        if (!pattern) throw new Error(`custom scalar ${type.name} states no pattern; the fuzzer cannot generate it`);
        return { type: 'string', pattern };
      }
    }
  }
  throw new Error('unsupported GraphQL input type');
}

/** Descriptions carry what the SDL cannot type: write-only secrets and account-unique names. */
function annotate(schema: Schema, description?: string | null): Schema {
  if (!description) return schema;
  const out: Schema = withDescribedBounds(schema, description);
  if (/write-only/i.test(description)) out['x-secret'] = true;
  if (/\bunique\b/i.test(description)) out['x-unique'] = 'account';
  return out;
}
