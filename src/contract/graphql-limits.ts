// The GraphQL operation limits, read from the description of the `schema` definition in
// specs/graphql/schema.graphql (one line per limit: "- depth: at most 12 …"), so the SDL is their single
// source: the mock, the validating proxy, the conformance checks and the docs page all read them here.
import { readFileSync } from 'node:fs';
import { Kind, parse, type SchemaDefinitionNode } from 'graphql';
import { packageFile } from './package-files.js';

/** The limits an operation is measured against, in the order they are checked. */
export const GRAPHQL_LIMIT_NAMES = ['tokens', 'depth', 'aliases', 'rootFields', 'directives', 'cost', 'records'] as const;
export type GraphqlLimitName = (typeof GRAPHQL_LIMIT_NAMES)[number];
/** The limits measured on the document alone, before anything runs (`records` is counted while lists resolve). */
export const STATIC_GRAPHQL_LIMIT_NAMES = ['tokens', 'depth', 'aliases', 'rootFields', 'directives', 'cost'] as const;
export type StaticGraphqlLimitName = (typeof STATIC_GRAPHQL_LIMIT_NAMES)[number];

/** The rule of each limit (specs/rules.yaml). */
export const GRAPHQL_LIMIT_RULE: Readonly<Record<GraphqlLimitName, string>> = {
  tokens: 'GRAPHQL-COST-001',
  depth: 'GRAPHQL-COST-002',
  aliases: 'GRAPHQL-COST-003',
  rootFields: 'GRAPHQL-COST-004',
  directives: 'GRAPHQL-COST-005',
  cost: 'GRAPHQL-COST-006',
  records: 'GRAPHQL-COST-008',
};

export interface GraphqlLimit {
  name: GraphqlLimitName;
  max: number;
  /** The SDL's words after "at most N" (what is counted, how). */
  what: string;
}

export type GraphqlLimits = Readonly<Record<GraphqlLimitName, number>>;

const LIMIT_LINE = /^- (\w+): at most (\d+) (.+)$/;

/** Limits stated in an SDL's schema description; throws when one is missing or stated twice. */
export function limitsFromSdl(sdl: string): readonly GraphqlLimit[] {
  // The schema definition's description, from the parsed document: building and validating the whole schema
  // (as buildSchema does) for it cost every process that starts a mock ~0.1 s of CPU. The SDL's validity is
  // the schema builders' concern (the mock's executable schema, the docs page).
  const definition = parse(sdl, { noLocation: true }).definitions.find((node): node is SchemaDefinitionNode => node.kind === Kind.SCHEMA_DEFINITION);
  return limitsFromDescription(definition?.description?.value ?? '');
}

/** Limits stated in a schema description (the lines "- NAME: at most N …"). */
export function limitsFromDescription(description: string): readonly GraphqlLimit[] {
  const found = new Map<string, GraphqlLimit>();
  for (const line of description.split('\n')) {
    const match = LIMIT_LINE.exec(line.trim());
    if (!match) continue;
    const [, name, max, what] = match as unknown as [string, string, string, string];
    if (!(GRAPHQL_LIMIT_NAMES as readonly string[]).includes(name)) throw new Error(`schema description states an unknown GraphQL limit "${name}"`);
    if (found.has(name)) throw new Error(`schema description states the GraphQL limit "${name}" twice`);
    found.set(name, { name: name as GraphqlLimitName, max: Number(max), what });
  }
  return GRAPHQL_LIMIT_NAMES.map((name) => {
    const limit = found.get(name);
    if (!limit) throw new Error(`schema description does not state the GraphQL limit "${name}"`);
    return limit;
  });
}

let stated: readonly GraphqlLimit[] | undefined;

/** The limits of specs/graphql/schema.graphql, with their wording. */
export function statedGraphqlLimits(): readonly GraphqlLimit[] {
  return (stated ??= limitsFromSdl(readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8')));
}

/** The limits of specs/graphql/schema.graphql as name → maximum. */
export function graphqlLimits(): GraphqlLimits {
  return Object.fromEntries(statedGraphqlLimits().map((l) => [l.name, l.max])) as GraphqlLimits;
}
