// REST v2 request pipeline (mock base …/v2 as on api.runpod.io, alias …/rest/v2): OPTIONS → auth (401) → quota windows (429, and
// RateLimit fields on every authenticated answer) → route (404, 405 + Allow) → scope (403) → body
// (400 malformed) → validation (path 404, query 400, body 422) → handler. Every error is problem+json.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { queryStylesOf } from '../../contract/query-style.js';
import { validateRequest } from '../../validation/index.js';
import { bearerKey } from '../auth.js';
import { answerOptions } from '../cors.js';
import { parseJsonBodyInTurns, parseQuery, readBody, sendJson } from '../http.js';
import type { FaultName } from '../options.js';
import type { ServerParts } from '../server-parts.js';
import { hasFault, isolationFor, listOverAccounts, quotaCaller } from '../isolation-faults.js';
import type { MockCore } from '../core.js';
import { needsTurns, sendJsonInTurns } from '../json-in-turns.js';
import { restV2Handlers } from './handlers.js';
import { secretIssuesIgnored } from './secrets.js';
import { errorLines, problem, PROBLEM_CONTENT_TYPE } from './problem.js';
import type { V2Reply } from './types.js';

/** Largest REST v2 request body unless the operation states one (x-max-body-bytes: createSecret, updateSecret); 1 MiB like REST v1, assumed. */
export const REST_V2_MAX_BODY_BYTES = 1024 * 1024;

/** `relPath` starts with /v2 (the spec's paths), e.g. `/v2/pods/abc`. */
export function handleRestV2(parts: ServerParts, req: IncomingMessage, res: ServerResponse, relPath: string, search: string): void | Promise<void> {
  const { router, keys } = parts;
  const method = req.method ?? 'GET';
  if (method === 'OPTIONS') {
    const allow = router.allow('restV2', relPath);
    if (allow !== undefined) return answerOptions(req, res, allow, parts.cors);
  }
  const key = bearerKey(req);
  const auth = keys.check(key, undefined);
  if (!auth.ok) return refuse(req, res, problem(401, auth.message), parts.core.options.faults);
  // The caller's account: its store is the only one this request sees (a foreign id is absent).
  let core = parts.core.forAccount(auth.account);
  // Windows per account (REST v2 "per-user windows"): one account's burst never throttles another.
  const quota = core.restV2Quota.admit(quotaCaller(core, auth.account));
  const limitHeaders = quota.headers;
  if (!quota.ok && !core.options.faults.has('no-429')) {
    const retry: Record<string, string> = core.options.faults.has('rest-v2-429-without-retry-after') ? {} : { 'retry-after': String(quota.retryAfterSeconds) };
    return refuse(req, res, problem(429, `rate limit exceeded for the ${quota.window} window`, undefined, { ...limitHeaders, ...retry }), core.options.faults);
  }
  const match = router.match('restV2', method, relPath);
  if (match === undefined) return refuse(req, res, problem(404, `no REST v2 operation at ${method} ${relPath}`, undefined, limitHeaders), core.options.faults);
  if (match === 'method') {
    return refuse(req, res, problem(405, `method ${method} not allowed at ${relPath}`, undefined, { ...limitHeaders, allow: router.allow('restV2', relPath)! }), core.options.faults);
  }
  const { op, params } = match;
  if (!auth.scopes.has(op.requiredScope)) {
    return refuse(req, res, problem(403, `API key lacks the '${op.requiredScope}' scope`, undefined, limitHeaders), core.options.faults);
  }
  // Isolation faults only (isolation-faults.ts): without them this is undefined.
  const isolation = isolationFor(core, params, op.method === 'GET' ? 'read' : 'write');
  if (isolation?.kind === 'forbidden') return refuse(req, res, problem(403, 'the API key does not grant access to this resource', undefined, limitHeaders), core.options.faults);
  if (isolation?.kind === 'serve-as') core = isolation.core;
  const lastEventId = req.headers['last-event-id'];
  const context = { params, search, head: method === 'HEAD', limitHeaders, lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined };
  if (op.method === 'GET' || op.method === 'DELETE') {
    req.resume();
    return dispatch(core, res, op.operationId, context, undefined);
  }
  return readAndDispatch(core, req, res, op.operationId, { ...context, invalidBodyStatus: op.invalidBodyStatus ?? 422 }, op.maxBodyBytes ?? REST_V2_MAX_BODY_BYTES);
}

interface DispatchContext {
  params: Record<string, string>;
  search: string;
  head: boolean;
  limitHeaders: Record<string, string>;
  lastEventId: string | undefined;
  /** Status of a body breaking the schema: 422, or the operation's x-invalid-body-status. */
  invalidBodyStatus?: number;
}

async function readAndDispatch(core: MockCore, req: IncomingMessage, res: ServerResponse, operationId: string, context: DispatchContext, maxBytes: number): Promise<void> {
  const raw = await readBody(req, maxBytes);
  if (!raw.ok) {
    if (raw.reason === 'aborted') return;
    return send(res, problem(400, `request body exceeds ${maxBytes} bytes`, [`/body: must be at most ${maxBytes} bytes`]), context.limitHeaders, core.options.faults);
  }
  const parsed = await parseJsonBodyInTurns(req, raw.raw);
  if (!parsed.ok) return send(res, problem(400, 'request body is not JSON', errorLines([parsed.error])), context.limitHeaders, core.options.faults);
  return dispatch(core, res, operationId, context, parsed.value);
}

async function dispatch(core: MockCore, res: ServerResponse, operationId: string, context: DispatchContext, body: unknown): Promise<void> {
  // Lists as the spec declares them (catalogue filters: comma-separated, style form, explode false).
  const query = parseQuery(context.search, core.options.faults.has('rest-v2-comma-list-refused') ? undefined : queryStylesOf('restV2', operationId));
  let issues = validateRequest('restV2', operationId, { body, path: context.params, query });
  // Fault rest-v2-reset-accepted: let {"action":"reset"} past the PodAction enum so podAction accepts it.
  if (operationId === 'podAction' && (body as { action?: unknown } | undefined)?.action === 'reset' && core.options.faults.has('rest-v2-reset-accepted')) {
    issues = issues.filter((i) => !i.path.startsWith('/body/action'));
  }
  issues = secretIssuesIgnored(core, operationId, issues);
  // Fault sandbox-both-sources-accepted: let templateId beside imageName past the schema's oneOf (the handler takes the image).
  if (operationId === 'createSandbox' && core.options.faults.has('sandbox-both-sources-accepted')) issues = issues.filter((i) => !/oneOf|give exactly one/.test(i.message));
  // Fault rest-v2-undocumented-refusal: templates refuse env keys that are not UPPER_SNAKE_CASE, a rule no spec states.
  if ((operationId === 'createTemplate' || operationId === 'updateTemplate') && core.options.faults.has('rest-v2-undocumented-refusal') && issues.length === 0) {
    const env = (body as { env?: Record<string, unknown> } | undefined)?.env;
    const bad = env && typeof env === 'object' ? Object.keys(env).find((k) => !/^[A-Z_][A-Z0-9_]*$/.test(k)) : undefined;
    if (bad !== undefined) return send(res, problem(422, 'env keys must be UPPER_SNAKE_CASE', [`/body/env: key '${bad}' is not UPPER_SNAKE_CASE`]), context.limitHeaders, core.options.faults);
  }
  if (issues.length > 0) {
    const where = (prefix: string) => issues.filter((i) => i.path.startsWith(prefix));
    const inPath = where('/path');
    const inQuery = where('/query');
    const reply = inPath.length > 0
      ? problem(404, `no resource with this id: ${inPath[0]!.message}`, errorLines(inPath))
      : inQuery.length > 0
        ? problem(400, 'invalid query parameters', errorLines(inQuery))
        : problem(context.invalidBodyStatus ?? 422, 'request validation failed', errorLines(issues));
    return send(res, reply, context.limitHeaders, core.options.faults);
  }
  const handler = restV2Handlers[operationId];
  if (!handler) return send(res, problem(500, `operation ${operationId} is not implemented by the mock`), context.limitHeaders, core.options.faults);
  const ctx = { params: context.params, query, body, head: context.head, ...(context.lastEventId !== undefined ? { lastEventId: context.lastEventId } : {}) };
  const reply = res.req.method === 'GET' && Object.keys(context.params).length === 0 && hasFault(core, 'cross-account-list')
    ? await listOverAccounts(core, (view) => handler(view, ctx))
    : await handler(core, ctx);
  if (res.req.method !== 'GET' && res.req.method !== 'HEAD') core.touch();
  return send(res, reply, context.limitHeaders, core.options.faults);
}

function refuse(req: IncomingMessage, res: ServerResponse, reply: V2Reply, faults: ReadonlySet<FaultName>): void {
  req.resume();
  send(res, reply, {}, faults);
}

function send(res: ServerResponse, reply: V2Reply, limitHeaders: Record<string, string>, faults: ReadonlySet<FaultName>): void | Promise<void> {
  const headers = { ...limitHeaders, ...reply.headers };
  if (reply.stream) {
    res.writeHead(reply.status, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (res.req.method === 'HEAD') return void res.end();
    return reply.stream(res);
  }
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    return void res.end();
  }
  let { body, contentType } = reply;
  // Fault: errors in the REST v1 shape ({message}, application/json) instead of problem details.
  if (contentType === PROBLEM_CONTENT_TYPE && faults.has('rest-v2-error-not-problem')) {
    body = { message: (body as { detail: string }).detail };
    contentType = 'application/json';
  }
  const all = contentType ? { ...headers, 'content-type': contentType } : headers;
  // An answer too large to serialise in one turn (a wide billing window) is written a slice per turn.
  if (needsTurns(body)) return sendJsonInTurns(res, reply.status, body, all);
  sendJson(res, reply.status, body, all);
}
