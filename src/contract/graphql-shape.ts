// Checks a GraphQL answer against the SDL: {data, errors} shape, then every selected field's type,
// nullability and scalar format (PortList pattern, Void null). Returns issues as "path message".
import { readFileSync } from 'node:fs';
import {
  buildSchema, getNamedType, getNullableType, isEnumType, isListType, isNonNullType, isObjectType, isScalarType,
  Kind, parse, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLOutputType, type GraphQLSchema, type SelectionSetNode,
} from 'graphql';
import { packageFile } from './package-files.js';
import { RecentMemo } from './recent-memo.js';

let schema: GraphQLSchema | undefined;
/** The SDL of specs/graphql/schema.graphql (descriptions kept: `x-auth`, bounds), built once. */
export function sdl(): GraphQLSchema {
  return (schema ??= buildSchema(readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8')));
}

const PORT_LIST = /^\d{1,5}\/(http|tcp)(,\d{1,5}\/(http|tcp))*$/;

export function checkGraphqlAnswer(query: string, body: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return ['/ answer is not a JSON object'];
  const { data, errors, ...rest } = body as { data?: unknown; errors?: unknown };
  const issues: string[] = [];
  for (const key of Object.keys(rest)) if (key !== 'extensions') issues.push(`/${key} is not a GraphQL answer member`);
  if (errors !== undefined) {
    if (!Array.isArray(errors) || errors.length === 0) issues.push('/errors must be a non-empty array');
    else errors.forEach((e, i) => {
      if (typeof (e as { message?: unknown })?.message !== 'string' || (e as { message: string }).message === '') issues.push(`/errors/${i}/message must be a non-empty string`);
    });
  }
  if (data === undefined && errors === undefined) issues.push('/ has neither data nor errors');
  if (data === undefined || data === null) return issues;
  const { document, fragments } = parsedQuery(query);
  const typeInfo = new TypeInfo(sdl());
  // Map each top-level operation's selection set to its root type, then walk data against it.
  visit(document, visitWithTypeInfo(typeInfo, {
    OperationDefinition(node) {
      const root = node.operation === 'mutation' ? sdl().getMutationType() : sdl().getQueryType();
      if (root) walkSelection(node.selectionSet, root, data, '/data', errors !== undefined, issues, fragments);
      return false;
    },
  }));
  return issues;
}

/** The most recently parsed query texts remembered (their documents are only read here, never changed). */
const PARSED_MAX = 256;
/** Longer query texts are parsed every time (a memo of them would hold too much). */
const PARSED_QUERY_MAX_CHARS = 8 * 1024;
const parsed = new RecentMemo<string, { document: DocumentNode; fragments: Fragments }>(PARSED_MAX);

/** The query's document and fragments: a client sends the same few documents again and again. */
function parsedQuery(query: string): { document: DocumentNode; fragments: Fragments } {
  const parseNow = () => {
    const document = parse(query);
    return { document, fragments: fragmentsOf(document) };
  };
  return query.length > PARSED_QUERY_MAX_CHARS ? parseNow() : parsed.get(query, parseNow);
}

type Fragments = Map<string, SelectionSetNode>;
function fragmentsOf(document: ReturnType<typeof parse>): Fragments {
  const map: Fragments = new Map();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) map.set(def.name.value, def.selectionSet);
  return map;
}

function walkSelection(
  set: SelectionSetNode, parentType: ReturnType<GraphQLSchema['getQueryType']> & object, value: unknown,
  at: string, partial: boolean, issues: string[], fragments: Fragments,
): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    issues.push(`${at} must be an object`);
    return;
  }
  const record = value as Record<string, unknown>;
  const seen = new Set<string>();
  const visitSet = (s: SelectionSetNode) => {
    for (const sel of s.selections) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (frag) visitSet(frag);
        continue;
      }
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        visitSet(sel.selectionSet);
        continue;
      }
      const name = sel.alias?.value ?? sel.name.value;
      seen.add(name);
      if (sel.name.value === '__typename') continue;
      const field = parentType.getFields()[sel.name.value];
      if (!field) continue;
      if (!(name in record)) {
        if (!partial) issues.push(`${at}/${name} is missing`);
        continue;
      }
      checkValue(field.type, record[name], `${at}/${name}`, sel.selectionSet, partial, issues, fragments);
    }
  };
  visitSet(set);
  for (const key of Object.keys(record)) if (!seen.has(key)) issues.push(`${at}/${key} was not selected`);
}

function checkValue(
  type: GraphQLOutputType, value: unknown, at: string, set: SelectionSetNode | undefined,
  partial: boolean, issues: string[], fragments: Fragments,
): void {
  if (value === null || value === undefined) {
    if (isNonNullType(type) && !partial) issues.push(`${at} must not be null`);
    return;
  }
  const inner = getNullableType(type) as GraphQLOutputType;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return void issues.push(`${at} must be a list`);
    value.forEach((v, i) => checkValue(inner.ofType as GraphQLOutputType, v, `${at}/${i}`, set, partial, issues, fragments));
    return;
  }
  const named = getNamedType(inner);
  if (isObjectType(named)) {
    if (set) walkSelection(set, named, value, at, partial, issues, fragments);
    return;
  }
  if (isEnumType(named)) {
    if (typeof value !== 'string' || !named.getValue(value)) issues.push(`${at} must be a ${named.name} value`);
    return;
  }
  if (isScalarType(named)) {
    const ok = {
      String: typeof value === 'string',
      ID: typeof value === 'string' || Number.isInteger(value),
      Int: Number.isInteger(value),
      Float: typeof value === 'number',
      Boolean: typeof value === 'boolean',
      Void: false,
      PortList: typeof value === 'string' && (value === '' || PORT_LIST.test(value)),
    }[named.name] ?? true;
    if (!ok) issues.push(`${at} must be ${named.name === 'Void' ? 'null' : `a ${named.name}`}`);
  }
}
