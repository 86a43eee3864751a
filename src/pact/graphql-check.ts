// GraphQL half of the pact ↔ spec check. The interaction's query must be valid against the SDL,
// its variables must coerce to the declared types, and its response data must be something the
// schema can produce: the query is executed with the pact's own data as root value, so non-null
// violations, scalar mismatches and unselected fields all surface. Fields a pact leaves out are
// fine when nullable (a pact asserts a subset of the answer).
import { readFileSync } from 'node:fs';
import { buildSchema, execute, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { SpecIssue } from './spec-issue.js';
import { packageFile } from '../contract/package-files.js';

let cached: GraphQLSchema | undefined;
function sdl(): GraphQLSchema {
  return (cached ??= buildSchema(readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8')));
}

/** HTTP statuses a GraphQL answer may have: 200 with data/errors; the others with errors[] only. */
const ERROR_STATUSES = new Set([400, 401, 405, 429, 500]);

export interface GraphqlExchange {
  status: number;
  body: unknown;
  requestBody: unknown;
}

export function checkGraphqlExchange({ status, body, requestBody }: GraphqlExchange): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const request = (requestBody ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof request.query !== 'string') return [{ path: '/request/body/query', message: 'must be a GraphQL document string' }];
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    return [{ path: '/request/body/query', message: (error as Error).message }];
  }
  for (const error of validate(sdl(), document)) issues.push({ path: '/request/body/query', message: error.message });
  if (issues.length > 0) return issues;

  const answer = body as { data?: unknown; errors?: unknown } | undefined;
  if (status !== 200) {
    if (!ERROR_STATUSES.has(status)) issues.push({ path: '/response/status', message: `${status} is not a GraphQL answer status (200, ${[...ERROR_STATUSES].join(', ')})` });
    if (!Array.isArray(answer?.errors) || answer.errors.length === 0 || answer.errors.some((e) => typeof (e as { message?: unknown })?.message !== 'string')) {
      issues.push({ path: '/response/body/errors', message: `a ${status} answer must carry errors[] with a message each` });
    }
    return issues;
  }
  if (answer?.data === undefined && answer?.errors === undefined) return [{ path: '/response/body', message: 'must have data or errors' }];
  if (answer.data === undefined || answer.data === null) return issues;

  const result = execute({
    schema: sdl(),
    document,
    rootValue: answer.data,
    variableValues: (request.variables ?? {}) as Record<string, unknown>,
    operationName: typeof request.operationName === 'string' ? request.operationName : undefined,
    // Read each field under its response key (aliases included), not its schema name.
    fieldResolver: (source, _args, _context, info) => (source as Record<string, unknown> | null)?.[info.path.key as string],
  }) as Awaited<ReturnType<typeof execute>>;
  for (const error of result.errors ?? []) {
    const where = error.path ? `/response/body/data/${error.path.join('/')}` : '/request/body/variables';
    issues.push({ path: where, message: error.message });
  }
  compareData(answer.data, result.data, '/response/body/data', issues);
  return issues;
}

/** Every value the pact shows must come out of execution unchanged (same type, selected). */
function compareData(pact: unknown, produced: unknown, at: string, issues: SpecIssue[]): void {
  if (pact === null || typeof pact !== 'object') {
    if (produced !== undefined && produced !== null && !Object.is(pact, produced)) {
      issues.push({ path: at, message: `${JSON.stringify(pact)} is not a value of the field's type (serialises as ${JSON.stringify(produced)})` });
    }
    return;
  }
  if (produced === null || produced === undefined) return; // already reported as an execution error
  if (Array.isArray(pact)) {
    pact.forEach((item, i) => compareData(item, (produced as unknown[])[i], `${at}/${i}`, issues));
    return;
  }
  const out = produced as Record<string, unknown>;
  for (const [key, value] of Object.entries(pact)) {
    if (!(key in out)) issues.push({ path: `${at}/${key}`, message: 'is not selected by the query' });
    else compareData(value, out[key], `${at}/${key}`, issues);
  }
}
