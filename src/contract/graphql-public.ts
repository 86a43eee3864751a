// Which GraphQL requests the mock answers without an API key: those asking only for the catalogue, i.e.
// every field on Query is one whose SDL description carries the line `x-auth: none` (gpuTypes, listings,
// allAiApiPublicConfigs). One account field among public ones makes the whole request need a key, so an
// unauthenticated answer never carries partial data. Introspection and mutations always need a key.
import { Kind, OperationTypeNode, parse, TypeInfo, validate, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';

/** The line that marks a root field public in specs/graphql/schema.graphql. */
export const PUBLIC_MARK = /^x-auth: none\b/m;

/** Names of the Query fields marked public. */
export function publicQueryFields(schema: GraphQLSchema): ReadonlySet<string> {
  const fields = Object.values(schema.getQueryType()?.getFields() ?? {});
  return new Set(fields.filter((f) => PUBLIC_MARK.test(f.description ?? '')).map((f) => f.name));
}

/**
 * What the (valid) document asks of the public catalogue: `only` when every operation is a query selecting
 * only public Query fields, `some` when it selects a public field among others, `none` otherwise.
 */
export function publicDataAsked(schema: GraphQLSchema, document: DocumentNode, publicFields: ReadonlySet<string>): 'only' | 'some' | 'none' {
  const queryType = schema.getQueryType();
  let onlyPublic = true;
  let somePublic = false;
  const typeInfo = new TypeInfo(schema);
  visit(document, visitWithTypeInfo(typeInfo, {
    OperationDefinition(node) {
      if (node.operation !== OperationTypeNode.QUERY) onlyPublic = false;
    },
    Field(node) {
      const name = node.name.value;
      if (name === '__schema' || name === '__type') onlyPublic = false;
      else if (typeInfo.getParentType() === queryType && publicFields.has(name)) somePublic = true;
      else if (typeInfo.getParentType() === queryType && name !== '__typename') onlyPublic = false;
    },
  }));
  if (!somePublic) return 'none';
  return onlyPublic && document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION) ? 'only' : 'some';
}

/**
 * What a GraphQL request carrying no key asks, judged from its query text as the mock judges it:
 * `public` when every operation is a query of `x-auth: none` fields only (answered without a key),
 * `mixed` when a public field comes with an account field, a mutation or introspection (401, no data),
 * `account` otherwise — including text that does not parse or validate (401 before anything runs).
 */
export function unauthenticatedAsk(schema: GraphQLSchema, query: string, publicFields: ReadonlySet<string>): 'public' | 'mixed' | 'account' {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: 10_000 });
  } catch {
    return 'account';
  }
  if (validate(schema, document).length > 0) return 'account';
  const asked = publicDataAsked(schema, document, publicFields);
  return asked === 'only' ? 'public' : asked === 'some' ? 'mixed' : 'account';
}
