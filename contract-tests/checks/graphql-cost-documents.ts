// GraphQL documents at and one past each operation limit (specs/graphql/schema.graphql, schema
// description), each breaking only the limit it is built for: the GRAPHQL-COST-* checks, the mock's
// tests and the neighbour bench share them. All read `myself` or introspection, so any target with a
// valid key can serve the ones at the limit.
import type { StaticGraphqlLimitName } from '../../src/contract/graphql-limits.js';

const repeat = (count: number, item: (i: number) => string): string => Array.from({ length: count }, (_, i) => item(i)).join(' ');

/**
 * `{ myself { t0: __typename … } }` of exactly `tokens` tokens: 5 for the frame, 3 per aliased
 * `__typename` (aliases of __typename are not counted as aliases), 1 per plain one for the remainder.
 * Costs 2 + one point per leaf, so a third of the tokens in points.
 */
export function documentOfTokens(tokens: number): string {
  const body = tokens - 5;
  const aliased = Math.floor(body / 3);
  return `{ myself { ${repeat(aliased, (i) => `t${i}: __typename`)} ${repeat(body - 3 * aliased, () => '__typename')} } }`;
}

/** `{ __type(name: "Query") { fields { type { ofType { … { name } } } } } }`, `depth` levels deep (min 4). */
export function documentOfDepth(depth: number): string {
  const ofTypes = depth - 4;
  return `{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(ofTypes)}name${' }'.repeat(ofTypes)} } } } }`;
}

/** `{ myself { a0: id a1: id … } }` with `aliases` aliased fields. */
export function documentOfAliases(aliases: number): string {
  return `{ myself { ${repeat(aliases, (i) => `a${i}: id`)} } }`;
}

/** `{ r0: __typename r1: __typename … }`: `fields` fields at the root (no alias counted). */
export function documentOfRootFields(fields: number): string {
  return `{ ${repeat(fields, (i) => `r${i}: __typename`)} }`;
}

/** `{ myself { id @include(if: true) … } }` with `directives` directives, one per (merged) field. */
export function documentOfDirectives(directives: number): string {
  return `{ myself { ${repeat(directives, () => 'id @include(if: true)')} } }`;
}

/**
 * `{ myself { ...F ...F … c0: __typename … } } fragment F on User { id }` of exactly `points` points
 * (min 2): 2 for myself, 4 per spread (1, plus 2 for F's selection set and 1 for its leaf, counted at
 * every spread), 1 per aliased leaf for the remainder. Spreads keep it well within the token limit, and
 * a repeated spread is compared once by graphql-js (a field repeated 2000 times would exhaust its
 * OverlappingFieldsCanBeMerged budget instead).
 */
export function documentOfCost(points: number): string {
  const spreads = Math.floor((points - 2) / 4);
  const leaves = points - 2 - 4 * spreads;
  return `{ myself { ${repeat(spreads, () => '...F')} ${repeat(leaves, (i) => `c${i}: __typename`)} } } fragment F on User { id }`;
}

export const DOCUMENT_AT: Readonly<Record<StaticGraphqlLimitName, (n: number) => string>> = {
  tokens: documentOfTokens,
  depth: documentOfDepth,
  aliases: documentOfAliases,
  rootFields: documentOfRootFields,
  directives: documentOfDirectives,
  cost: documentOfCost,
};

/** `mutation { s0: saveTemplate(input: {name: …}) { id } … }`: one saveTemplate per name. */
export function saveTemplatesMutation(names: readonly string[]): string {
  return `mutation { ${names.map((name, i) => `s${i}: saveTemplate(input: {name: ${JSON.stringify(name)}, imageName: "repo/limits:1", containerDiskInGb: 10, volumeInGb: 0}) { id }`).join(' ')} }`;
}

/** One saveTemplate of exactly `tokens` tokens, its selection padded with aliased `__typename`. */
export function saveTemplateOfTokens(name: string, tokens: number): string {
  const head = `mutation { saveTemplate(input: {name: ${JSON.stringify(name)}, imageName: "repo/limits:1", containerDiskInGb: 10, volumeInGb: 0}) { id `;
  const frameTokens = 25; // mutation { saveTemplate ( input : { name : "…" imageName : "…" containerDiskInGb : 10 volumeInGb : 0 } ) { id } }
  const body = tokens - frameTokens;
  const aliased = Math.floor(body / 3);
  return `${head}${repeat(aliased, (i) => `t${i}: __typename`)} ${repeat(body - 3 * aliased, () => '__typename')} } }`;
}
