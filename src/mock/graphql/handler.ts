// POST /graphql: auth (?api_key= or Bearer, scope `graphql`), then parse within the operation limits
// (limits.ts) → validate → execute.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, type DocumentNode } from 'graphql';
import { bearerKey, type KeyRing } from '../auth.js';
import type { MockCore } from '../core.js';
import { parseJsonBodyInTurns, readBody, sendJson } from '../http.js';
import { graphqlMessage } from '../faults.js';
import { buildExecutableSchema } from './schema.js';
import { publicDataAsked, publicQueryFields } from '../../contract/graphql-public.js';
import { gateGraphqlOperation, sendAnswer, splitLongLists } from './limits.js';
import { redactSecrets, secretStrings } from './secret-values.js';
import { validationErrors } from './validation-memo.js';

const schema = splitLongLists(buildExecutableSchema());
const publicFields = publicQueryFields(schema);

/** Whether a request without a key is answered: only public data asked (fault graphql-public-leaks-account: any public field among others). */
function answersWithoutKey(core: MockCore, document: DocumentNode): boolean {
  const asked = publicDataAsked(schema, document, publicFields);
  return asked === 'only' || (asked === 'some' && core.options.faults.has('graphql-public-leaks-account'));
}
const MAX_BODY_BYTES = 1024 * 1024;
/** The `Allow` value of /graphql (RFC 9110): POST, and OPTIONS answered by the server. */
export const GRAPHQL_ALLOW = 'POST, OPTIONS';

function errors(res: ServerResponse, status: number, messages: readonly { message: string }[], extra?: Record<string, string>) {
  sendJson(res, status, { errors: messages.map((m) => ({ message: m.message })) }, extra);
}

/** graphql-js echoes invalid input values ("got invalid value {value: …}"): secret values never come back. */
function redact(core: MockCore, messages: readonly { message: string }[], secrets: readonly string[]): { message: string }[] {
  return messages.map(({ message }) => ({ message: graphqlMessage(core.options.faults, redactSecrets(message, secrets)) }));
}

export async function handleGraphql(core: MockCore, keys: KeyRing, req: IncomingMessage, res: ServerResponse, search: string): Promise<void> {
  const key = new URLSearchParams(search).get('api_key') ?? bearerKey(req);
  const auth = keys.check(key ?? undefined, 'graphql');
  // Without any key the public catalogue may still answer (contract/graphql-public.ts); a wrong key never.
  const publicOnly = !auth.ok;
  const unauthorized = () => errors(res, 401, [{ message: auth.ok ? '' : auth.message }]);
  if (!auth.ok && (key || req.method !== 'POST')) {
    req.resume();
    return unauthorized();
  }
  if (req.method !== 'POST') {
    req.resume();
    return errors(res, 405, [{ message: 'GraphQL requests must be POST' }], { allow: GRAPHQL_ALLOW });
  }
  const raw = await readBody(req, MAX_BODY_BYTES);
  if (!raw.ok) return raw.reason === 'aborted' ? undefined : errors(res, 400, [{ message: `request body exceeds ${MAX_BODY_BYTES} bytes` }]);
  const parsed = await parseJsonBodyInTurns(req, raw.raw);
  if (!parsed.ok) return errors(res, 400, [{ message: `${parsed.error.path}: ${parsed.error.message}` }]);
  const body = parsed.value as { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
  if (!body || typeof body.query !== 'string') return errors(res, 400, [{ message: 'body must be {query: string, variables?: object}' }]);
  if (body.variables !== undefined && body.variables !== null && (typeof body.variables !== 'object' || Array.isArray(body.variables))) {
    return errors(res, 400, [{ message: 'variables must be an object' }]);
  }
  // A failing GraphQL operation (syntax, validation or execution) answers 200 with errors[], as the
  // real service does; only a request that is not a GraphQL request at all gets 400.
  // Operation limits first (tokens while parsing, then depth, aliases, …): over one, nothing runs.
  const gate = gateGraphqlOperation(core.options.faults, schema, body.query);
  if (gate.kind !== 'run' && publicOnly) return unauthorized();
  if (gate.kind === 'refuse') return errors(res, 200, [{ message: gate.message }]);
  if (gate.kind === 'syntax') return errors(res, 200, redact(core, [gate.error], secretStrings(body.query, body.variables, undefined, key)));
  const document = gate.document;
  const invalid = validationErrors(schema, body.query, document);
  if (publicOnly && (invalid.length > 0 || !answersWithoutKey(core, document))) return unauthorized();
  if (invalid.length > 0) return errors(res, 200, redact(core, invalid, secretStrings(body.query, body.variables, document, key)));
  const result = await execute({
    schema,
    document,
    // The caller's account: resolvers see only its store (a foreign id is an unknown id). Without a key
    // only public fields run (answersWithoutKey), which read no account.
    contextValue: auth.ok ? core.forAccount(auth.account) : core,
    variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
  });
  const refusal = gate.refusalAfter(result);
  if (refusal) return errors(res, 200, [refusal]);
  if (!result.errors) return sendAnswer(res, document, result);
  return sendAnswer(res, document, { ...result, errors: redact(core, result.errors, secretStrings(body.query, body.variables, document, key)) });
}
