// POST /graphql: auth (?api_key= or Bearer, scope `graphql`), then parse → validate → execute.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, GraphQLError, parse, validate, type DocumentNode } from 'graphql';
import { bearerKey, type KeyRing } from '../auth.js';
import type { MockCore } from '../core.js';
import { parseJsonBody, readBody, sendJson } from '../http.js';
import { buildExecutableSchema } from './schema.js';

const schema = buildExecutableSchema();
const MAX_BODY_BYTES = 1024 * 1024;

function errors(res: ServerResponse, status: number, messages: readonly { message: string }[], extra?: Record<string, string>) {
  sendJson(res, status, { errors: messages.map((m) => ({ message: m.message })) }, extra);
}

/** Every string the caller sent (variables and literals): candidates for secret values. */
function sentStrings(query: string, variables: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(variables);
  for (const match of query.matchAll(/"((?:[^"\\]|\\.)*)"/g)) found.push(match[1]!);
  return found.filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
}

/**
 * graphql-js echoes invalid input values in its messages ("got invalid value {value: …}"); a secret
 * value must never come back, so caller-supplied strings are redacted from every error message.
 */
function redact(messages: readonly { message: string }[], sent: string[]): { message: string }[] {
  return messages.map(({ message }) => {
    let text = message.replace(/got invalid value .*?;/s, 'got invalid value;');
    for (const value of sent) text = text.split(value).join('[redacted]');
    return { message: text };
  });
}

export async function handleGraphql(core: MockCore, keys: KeyRing, req: IncomingMessage, res: ServerResponse, search: string): Promise<void> {
  const key = new URLSearchParams(search).get('api_key') ?? bearerKey(req);
  const auth = keys.check(key ?? undefined, 'graphql');
  if (!auth.ok) {
    req.resume();
    return errors(res, 401, [{ message: auth.message }]);
  }
  if (req.method !== 'POST') {
    req.resume();
    return errors(res, 405, [{ message: 'GraphQL requests must be POST' }], { allow: 'POST' });
  }
  const raw = await readBody(req, MAX_BODY_BYTES);
  if (!raw.ok) return raw.reason === 'aborted' ? undefined : errors(res, 400, [{ message: `request body exceeds ${MAX_BODY_BYTES} bytes` }]);
  const parsed = parseJsonBody(req, raw.raw);
  if (!parsed.ok) return errors(res, 400, [{ message: `${parsed.error.path}: ${parsed.error.message}` }]);
  const body = parsed.value as { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
  if (!body || typeof body.query !== 'string') return errors(res, 400, [{ message: 'body must be {query: string, variables?: object}' }]);
  if (body.variables !== undefined && body.variables !== null && (typeof body.variables !== 'object' || Array.isArray(body.variables))) {
    return errors(res, 400, [{ message: 'variables must be an object' }]);
  }
  // A failing GraphQL operation (syntax, validation or execution) answers 200 with errors[], as the
  // real service does; only a request that is not a GraphQL request at all gets 400.
  const sent = sentStrings(body.query, body.variables);
  let document: DocumentNode;
  try {
    document = parse(body.query);
  } catch (error) {
    return errors(res, 200, redact([error as GraphQLError], sent));
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return errors(res, 200, redact(invalid, sent));
  const result = await execute({
    schema,
    document,
    contextValue: core,
    variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
  });
  sendJson(res, 200, result.errors ? { ...result, errors: redact(result.errors, sent) } : result);
}
