// Measures a GraphQL document against the stated operation limits (src/contract/graphql-limits.ts)
// before anything else looks at it: the token count while parsing (graphql-js `maxTokens`, so a 1 MB
// alias bomb stops after `tokens` tokens), then depth, aliases, directives and cost with GraphQL Armor's
// validation rules, and root fields with a rule of our own (Armor has none). Nothing here resolves a
// field: the mock refuses before validating or executing, the validating proxy flags an answer that
// served a document this check refuses.
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError, Kind, parse, validate,
  type ASTVisitor, type DocumentNode, type GraphQLSchema, type SelectionSetNode, type ValidationContext, type ValidationRule,
} from 'graphql';
import { GRAPHQL_LIMIT_NAMES, graphqlLimits, type GraphqlLimitName, type GraphqlLimits } from '../contract/graphql-limits.js';
import { RecentMemo } from '../contract/recent-memo.js';

/** One limit an operation went past: which, its maximum, and what was measured. */
export interface GraphqlLimitBreach {
  limit: GraphqlLimitName;
  max: number;
  /** The measured value; for tokens a lower bound (parsing stops at the limit), written "more than N". */
  found: string;
  message: string;
}

export type GraphqlLimitCheck =
  | { ok: true; document: DocumentNode }
  | { ok: false; breach: GraphqlLimitBreach }
  /** Not a GraphQL document at all (a syntax error within the token limit). */
  | { ok: false; syntaxError: GraphQLError };

export function breachOf(limit: GraphqlLimitName, max: number, found: string): GraphqlLimitBreach {
  return {
    limit, max, found,
    message: `${limit === 'records' ? 'Operation refused while listing' : 'Operation refused before execution'}: GraphQL limit "${limit}" is at most ${max}, found ${found}.`,
  };
}

const TOKEN_ABORT = /contains more tha[nt] \d+ tokens/;

/** Parses with the token limit; the document, a tokens breach, or the syntax error. */
export function parseWithinTokenLimit(source: string, limits: GraphqlLimits = graphqlLimits()): GraphqlLimitCheck {
  try {
    return { ok: true, document: parse(source, { maxTokens: limits.tokens }) };
  } catch (error) {
    if (error instanceof GraphQLError && TOKEN_ABORT.test(error.message)) {
      return { ok: false, breach: breachOf('tokens', limits.tokens, `more than ${limits.tokens}`) };
    }
    return { ok: false, syntaxError: error as GraphQLError };
  }
}

/** Counts the fields at each operation's root, through fragments (each alias is a field). */
function rootFieldCount(selectionSet: SelectionSetNode, context: ValidationContext, seen: Set<string>): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += rootFieldCount(selection.selectionSet, context, seen);
    else {
      // A spread repeated at the root adds its fields again; a cycle is cut (NoFragmentCycles refuses it later).
      const fragment = context.getFragment(selection.name.value);
      if (!fragment || seen.has(fragment.name.value)) continue;
      seen.add(fragment.name.value);
      count += rootFieldCount(fragment.selectionSet, context, seen);
      seen.delete(fragment.name.value);
    }
  }
  return count;
}

function maxRootFieldsRule(max: number, report: (limit: GraphqlLimitName, found: string) => void): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const count = rootFieldCount(operation.selectionSet, context, new Set());
      if (count > max) report('rootFields', String(count));
      return false;
    },
  });
}

const ARMOR_FOUND = /found (\d+(?:\.\d+)?)\.?$/;

/** GraphQL Armor rules, told to report instead of throw; `found` read from their exposed message. */
function armorRules(limits: GraphqlLimits, report: (limit: GraphqlLimitName, found: string) => void): ValidationRule[] {
  const onReject = (limit: GraphqlLimitName) => [(_context: unknown, error: GraphQLError) => report(limit, ARMOR_FOUND.exec(error.message)?.[1] ?? '?')];
  const common = { exposeLimits: true, propagateOnRejection: false } as const;
  return [
    // Introspection counts like any other selection: __type { ofType { ofType … } } nests without end.
    maxDepthRule({ ...common, n: limits.depth, ignoreIntrospection: false, flattenFragments: true, onReject: onReject('depth') }),
    maxAliasesRule({ ...common, n: limits.aliases, onReject: onReject('aliases') }),
    maxDirectivesRule({ ...common, n: limits.directives, onReject: onReject('directives') }),
    costLimitRule({ ...common, maxCost: limits.cost, depthCostFactor: 1, ignoreIntrospection: false, flattenFragments: true, onReject: onReject('cost') }),
  ] as ValidationRule[];
}

/** The first limit (in GRAPHQL_LIMIT_NAMES order) a parsed document goes past, if any. */
export function documentLimitBreach(schema: GraphQLSchema, document: DocumentNode, limits: GraphqlLimits = graphqlLimits()): GraphqlLimitBreach | undefined {
  const found = new Map<GraphqlLimitName, string>();
  const report = (limit: GraphqlLimitName, value: string) => { if (!found.has(limit)) found.set(limit, value); };
  validate(schema, document, [...armorRules(limits, report), maxRootFieldsRule(limits.rootFields, report)]);
  for (const limit of ['depth', 'aliases', 'rootFields', 'directives', 'cost'] as const) {
    const value = found.get(limit);
    if (value !== undefined) return breachOf(limit, limits[limit], value);
  }
  return undefined;
}

/** The most recently measured documents remembered per schema and limits (a measurement is a validation pass). */
export const MEASURED_MAX = 256;
/** Longer documents are measured every time (a memo of them would hold too much). */
export const MEASURED_SOURCE_MAX_CHARS = 8 * 1024;
/** Sets of limits remembered per schema (the stated ones; a test may measure against others). */
const MEASURED_LIMIT_SETS_MAX = 8;
/** The first breach of each recently measured document text, or null (within every limit); per schema and limits. */
const measured = new WeakMap<GraphQLSchema, RecentMemo<string, RecentMemo<string, GraphqlLimitBreach | null>>>();

/**
 * Parse with the token limit, then measure depth, aliases, root fields, directives and cost. The measurement
 * depends on the schema, the limits and the text alone, and clients send the same few documents again and
 * again: it is remembered per text (the parse is not, so every caller gets a document of its own).
 */
export function checkGraphqlLimits(schema: GraphQLSchema, source: string, limits: GraphqlLimits = graphqlLimits()): GraphqlLimitCheck {
  const parsed = parseWithinTokenLimit(source, limits);
  if (!parsed.ok) return parsed;
  if (source.length > MEASURED_SOURCE_MAX_CHARS) return withBreach(parsed, documentLimitBreach(schema, parsed.document, limits));
  let bySchema = measured.get(schema);
  if (!bySchema) measured.set(schema, (bySchema = new RecentMemo(MEASURED_LIMIT_SETS_MAX)));
  // By the limits' values (graphqlLimits() answers a new object each call); a few sets of limits at most.
  const limitsKey = GRAPHQL_LIMIT_NAMES.map((name) => limits[name]).join(',');
  const memo = bySchema.get(limitsKey, () => new RecentMemo<string, GraphqlLimitBreach | null>(MEASURED_MAX));
  const breach = memo.get(source, () => documentLimitBreach(schema, parsed.document, limits) ?? null);
  return withBreach(parsed, breach ?? undefined);
}

function withBreach(parsed: { ok: true; document: DocumentNode }, breach: GraphqlLimitBreach | undefined): GraphqlLimitCheck {
  return breach ? { ok: false, breach } : parsed;
}
