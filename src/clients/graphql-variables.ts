/**
 * Client-side check of GraphQL variables against the SDL (`specs/graphql/schema.graphql`) with graphql-js
 * input coercion, so a missing `name` or a string `containerDiskInGb` fails locally with JSON paths.
 * The schema is read and built once, lazily (Node only: it is read from the package's specs/ folder).
 */
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { ValidationIssue } from './errors.js';

export type VariablesValidator = (document: string, variables: Record<string, unknown> | undefined) => Promise<ValidationIssue[]>;

let schemaPromise: Promise<{ graphql: typeof import('graphql'); schema: GraphQLSchema }> | undefined;
const operationCache = new Map<string, OperationDefinitionNode | undefined>();

async function loadSchema() {
  schemaPromise ??= (async () => {
    const [graphql, fs, files] = await Promise.all([import('graphql'), import('node:fs/promises'), import('../contract/package-files.js')]);
    const sdl = await fs.readFile(files.packageFile('specs/graphql/schema.graphql'), 'utf8');
    return { graphql, schema: graphql.buildSchema(sdl) };
  })();
  return schemaPromise;
}

/** `$input.env[0].key` style path of a graphql-js coercion error → JSON pointer `/variables/input/env/0/key`. */
function pointer(variableName: string | undefined, path: ReadonlyArray<string | number> | undefined): string {
  const parts = ['variables', ...(variableName ? [variableName] : []), ...(path ?? []).map(String)];
  return `/${parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

export const validateGraphqlVariables: VariablesValidator = async (document, variables) => {
  const { graphql, schema } = await loadSchema();
  let operation = operationCache.get(document);
  if (!operationCache.has(document)) {
    const parsed = graphql.parse(document);
    operation = parsed.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === graphql.Kind.OPERATION_DEFINITION);
    operationCache.set(document, operation);
  }
  if (!operation) return [];
  const issues: ValidationIssue[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = graphql.typeFromAST(schema, definition.type as never);
    if (!type || !graphql.isInputType(type)) continue;
    const value = variables?.[name];
    if (value === undefined) {
      if (graphql.isNonNullType(type) && !definition.defaultValue) issues.push({ path: pointer(name, []), message: 'is required' });
      continue;
    }
    graphql.coerceInputValue(value, type, (path, _invalid, error) => {
      issues.push({ path: pointer(name, path), message: error.message });
    });
  }
  return issues;
};
