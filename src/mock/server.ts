// The HTTP front: one node:http handler routing /lb/{endpointId} and Host {endpointId}.localhost (load-balancing
// endpoints' workers), /v1 (REST v1), /v2/<REST v2 collection>/… (REST v2, also
// at the alias /rest/v2), /v2/{endpointId} (queue v2), /graphql and /__control (src/contract/url-layout.ts). Order per
// request: OPTIONS (no auth: preflights carry no credentials) → auth → route (405 with Allow) → scope →
// endpoint → load-balancing refusal → rate limit → body → validation → handler. HEAD runs the GET operation; node:http sends no body.
import { livePublicEndpoint, publicEngineKey } from './simulated-workers/public-endpoints.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateRequest } from '../validation/index.js';
import { bearerKey } from './auth.js';
import { rawHeader } from '../contract/raw-headers.js';
import type { MockCore, Reply } from './core.js';
import { answerOptions } from './cors.js';
import { isDocsPath, serveDocs } from './docs-route.js';
import { allowHeaders, bodyForValidation, bodylessRejection } from './faults.js';
import { hasFault, isolationFor, listOverAccounts } from './isolation-faults.js';
import { GRAPHQL_ALLOW, handleGraphql } from './graphql/handler.js';
import { parseJsonBodyInTurns, parseQuery, readBodyThen, sendError, sendJson, sendJsonText, sendNoContent, type BodyResult, type JsonBody } from './http.js';
import { queryStylesOf } from '../contract/query-style.js';
import { queueHandlers } from './queue/handlers.js';
import { jobOperationRefusal } from './load-balancing/job-refusal.js';
import { handleWorkerProtocol, isWorkerProtocolPath } from './worker-protocol/routes.js';
import { endpointOfHost, lbAddressOfHost, lbAddressOfPath, LB_PATH_PREFIX } from './load-balancing/address.js';
import { serveLoadBalanced } from './load-balancing/front.js';
import { needsTurns, sendJsonInTurns } from './json-in-turns.js';
import { restHandlers } from './rest/handlers.js';
import { answerRetired } from './rest/retired.js';
import { handleRestV2 } from './rest-v2/front.js';
import type { ServerParts } from './server-parts.js';
import { mockRateLimitPolicy } from './spec-facts.js';
import { isKnownValidPath, rememberValidPath } from './valid-paths.js';
import type { OperationInfo, Surface } from './types.js';
import { REST_V2_ALIAS_PREFIX, surfaceOfV2Segment } from '../contract/url-layout.js';

/** What a request without a rate window releases: nothing (one function, not a closure per request). */
const NO_RELEASE = (): void => {};

const ADMITTED = { ok: true as const, release: NO_RELEASE };

/** Bodies of operations without x-max-body-bytes (REST v1): the seed states no limit; 1 MiB is ours. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A handler's failure: 500 while nothing of the answer is sent, else the connection is cut. */
function fail(res: ServerResponse, err: unknown): void {
  console.error('[mock] internal error:', err);
  if (!res.headersSent) sendError(res, 500, 'Internal server error');
  else res.destroy();
}

/** A handler's failure in a later turn lands in `fail` (the answer is the request's only result). */
function failOnRejection(pending: void | Promise<void>, res: ServerResponse): void {
  if (pending) pending.catch((err: unknown) => fail(res, err));
}

export function createRequestHandler(parts: ServerParts) {
  // One listener function for every answer ('close' fires once per answer), not a closure per request.
  const answered = () => parts.core.openRequests--;
  return (req: IncomingMessage, res: ServerResponse): void => {
    parts.core.openRequests++;
    try {
      failOnRejection(handle(parts, req, res), res);
    } catch (err) {
      fail(res, err);
    }
    // Answered in this turn (a /status read): no longer open, and no 'close' listener to add and remove.
    if (res.writableEnded) parts.core.openRequests--;
    else res.on('close', answered);
  };
}

/** A malformed %-escape stays as sent: it then names no endpoint (404 after auth), never a 500. */
function decodeOrRaw(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function handle(parts: ServerParts, req: IncomingMessage, res: ServerResponse): void | Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q + 1);
  if (parts.core.options.log) logRequest(req, res, path);
  // Never on the control API: it has no auth, so no foreign page may drive it.
  if (parts.cors !== undefined && !path.startsWith('/__control')) parts.cors.decorate(res);

  // A load-balancing endpoint's workers: by Host `{id}.localhost` (the whole path is the worker's) or /lb/{id}/….
  const lbHost = parts.lbHostSuffixes && endpointOfHost(rawHeader(req.rawHeaders, 'host'), parts.lbHostSuffixes);
  if (lbHost) return serveLoadBalanced(parts, req, res, lbAddressOfHost(lbHost, path), search);
  if (path.startsWith(LB_PATH_PREFIX) || path === '/lb') return serveLoadBalanced(parts, req, res, lbAddressOfPath(path)!, search);
  if (path === '/rest/v2' || path.startsWith('/rest/v2/')) return handleRestV2(parts, req, res, path.slice(REST_V2_ALIAS_PREFIX.length), search);
  if (path === '/v1' || path.startsWith('/v1/')) {
    if (parts.core.options.retireRestV1) return answerRetired(parts.router, req, res, path.slice(3));
    return api(parts, req, res, 'restV1', path.slice(3), search, undefined);
  }
  if (path.startsWith('/v2/')) {
    const slash = path.indexOf('/', 4);
    const segment = slash === -1 ? path.slice(4) : path.slice(4, slash);
    // As on api.runpod.io: /v2/<REST v2 collection>/… is management; anything else is an endpoint id (src/contract/url-layout.ts).
    if (surfaceOfV2Segment(segment) === 'restV2') return handleRestV2(parts, req, res, path, search);
    const endpointId = decodeOrRaw(segment);
    const relPath = slash === -1 ? '/' : path.slice(slash);
    // The worker protocol (specs/worker/): the endpoint's own workers, with its worker key.
    if (isWorkerProtocolPath(relPath)) return handleWorkerProtocol(parts.core, parts.core.workerHub, req, res, endpointId, relPath, search);
    return api(parts, req, res, 'queueV2', slash === -1 ? '/' : path.slice(slash), search, endpointId);
  }
  if (path === '/graphql' || path === '/graphql/') {
    if (req.method === 'OPTIONS') return answerOptions(req, res, GRAPHQL_ALLOW, parts.cors);
    return handleGraphql(parts.core, parts.keys, req, res, search);
  }
  // A peer the control API does not answer gets the same 404 as a mock without one.
  if (parts.control && (path === '/__control' || path.startsWith('/__control/')) && parts.controlAllowed?.(req) !== false) {
    return parts.control(req, res, path);
  }
  if (parts.core.options.docs && isDocsPath(path)) return serveDocs(req, res, path);
  req.resume();
  sendError(res, 404, `no route for ${req.method} ${path}`);
}

function api(
  parts: ServerParts, req: IncomingMessage, res: ServerResponse,
  surface: Surface, relPath: string, search: string, endpointId: string | undefined,
): void | Promise<void> {
  const { router, keys } = parts;
  if (req.method === 'OPTIONS') {
    const allow = router.allow(surface, relPath);
    if (allow !== undefined) return answerOptions(req, res, allow, parts.cors);
  }
  const key = bearerKey(req);
  // Authentication comes first so unauthenticated callers learn nothing (no 404/400 leaks).
  const auth = keys.check(key, undefined);
  if (!auth.ok) return reject(req, res, 401, auth.message);
  const scopes = auth.scopes;
  // The caller's account: its store is the only one this request sees (a foreign id is absent).
  let core = parts.core.forAccount(auth.account);
  const match = router.match(surface, req.method ?? 'GET', relPath);
  if (match === undefined) return reject(req, res, 404, `no ${surface === 'restV1' ? 'REST v1' : 'queue v2'} operation at ${req.method} ${relPath}`);
  if (match === 'method') {
    return reject(req, res, 405, `method ${req.method} not allowed at ${relPath}`, allowHeaders(core.options.faults, router.allow(surface, relPath)!));
  }
  const { op, params } = match;
  if (!scopes.has(op.requiredScope)) return reject(req, res, 401, `Unauthorized: API key lacks the '${op.requiredScope}' scope`);

  let release = NO_RELEASE;
  // Isolation faults only (isolation-faults.ts): without them this is undefined.
  const isolation = core.options.faults.size === 0 ? undefined
    : isolationFor(core, endpointId !== undefined ? { endpointId } : params, endpointId !== undefined ? 'job' : op.method === 'GET' ? 'read' : 'write');
  if (isolation?.kind === 'forbidden') return reject(req, res, 403, 'Forbidden: the API key does not grant access to this resource');
  if (isolation?.kind === 'serve-as') core = isolation.core;
  if (endpointId !== undefined) {
    if (!core.store.endpoints.has(endpointId)) {
      // A live public endpoint (x-public-endpoints) is every account's; its jobs, queue and windows are the caller's.
      // A foreign endpoint answers exactly as an absent one (specs: queue v2 x-isolation), before any rate window.
      if (!livePublicEndpoint(endpointId)) return reject(req, res, 404, `endpoint ${endpointId} not found`);
      endpointId = publicEngineKey(endpointId, core.account);
    }
    // A load-balancing endpoint has no job operations (x-load-balancing-endpoints): refused before any window.
    const refused = jobOperationRefusal(core, endpointId);
    if (refused) return reject(req, res, refused.status, refused.message);
    const admission = admit(core, op, endpointId);
    if (!admission.ok) {
      return reject(req, res, 429, `Too many requests: ${admission.reason}`, { 'retry-after': String(admission.retryAfterSeconds) });
    }
    release = admission.release;
  }
  if (op.method === 'GET' || op.method === 'DELETE') {
    // No body: answer synchronously (no microtask hop) on the hot path (GET /status).
    if (rawHeader(req.rawHeaders, 'content-length') !== undefined || rawHeader(req.rawHeaders, 'transfer-encoding') !== undefined) req.resume();
    return dispatch(core, res, surface, op, params, relPath, search, endpointId, undefined, release, req.method === 'HEAD');
  }
  return readAndDispatch(core, req, res, surface, op, params, relPath, search, endpointId, release);
}

/**
 * Reads the body, then validates and runs the handler. No promise of its own: a body that fits a turn is parsed
 * and dispatched in the turn its last chunk arrives, and a failure there is answered as any handler's (`fail`).
 */
function readAndDispatch(
  core: MockCore, req: IncomingMessage, res: ServerResponse, surface: Surface, op: OperationInfo,
  params: Record<string, string>, relPath: string, search: string, endpointId: string | undefined, release: () => void,
): void {
  const max = op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  readBodyThen(req, max, (raw) => {
    try {
      failOnRejection(afterBody(core, req, res, surface, op, params, relPath, search, endpointId, release, raw, max), res);
    } catch (err) {
      fail(res, err);
    }
  });
}

function afterBody(
  core: MockCore, req: IncomingMessage, res: ServerResponse, surface: Surface, op: OperationInfo, params: Record<string, string>,
  relPath: string, search: string, endpointId: string | undefined, release: () => void, raw: BodyResult, max: number,
): void | Promise<void> {
  if (!raw.ok) {
    release();
    if (raw.reason === 'aborted') return;
    return sendError(res, 400, `request body exceeds ${max} bytes`, [{ path: '/body', message: `must be at most ${max} bytes` }]);
  }
  let parsed: JsonBody | Promise<JsonBody>;
  try {
    parsed = parseJsonBodyInTurns(req, raw.raw);
  } catch (err) {
    release();
    throw err;
  }
  if (!(parsed instanceof Promise)) return withBody(core, res, surface, op, params, relPath, search, endpointId, release, parsed);
  return parsed.then((settled) => withBody(core, res, surface, op, params, relPath, search, endpointId, release, settled), (err: unknown) => {
    release();
    throw err;
  });
}

/** A module function rather than a closure per request (under tsx each named closure also costs a __name call). */
function withBody(
  core: MockCore, res: ServerResponse, surface: Surface, op: OperationInfo, params: Record<string, string>, relPath: string,
  search: string, endpointId: string | undefined, release: () => void, parsed: JsonBody,
): void | Promise<void> {
  if (!parsed.ok) {
    release();
    return sendError(res, 400, 'Invalid request body', [parsed.error]);
  }
  return dispatch(core, res, surface, op, params, relPath, search, endpointId, parsed.value, release, false);
}

/** Validates and runs the handler; sync when the handler is, so `release` runs exactly once either way. */
function dispatch(
  core: MockCore, res: ServerResponse, surface: Surface, op: OperationInfo, params: Record<string, string>,
  relPath: string, search: string, endpointId: string | undefined, body: unknown, release: () => void, head: boolean,
): void | Promise<void> {
  let reply: Reply | Promise<Reply>;
  try {
    const query = search === '' ? {} : parseQuery(search, queryStylesOf(surface, op.operationId));
    const faults = core.options.faults;
    // Path parameters only: valid once, valid again (faults may change what is validated, so not with faults).
    const pathOnly = search === '' && body === undefined && faults.size === 0;
    if (!pathOnly || !isKnownValidPath(op, relPath)) {
      const issues = bodylessRejection(faults, op, body) ?? validateRequest(surface, op.operationId, { body: bodyForValidation(faults, body), path: params, query });
      if (issues.length > 0) {
        release();
        return sendError(res, 400, 'Invalid request', issues);
      }
      if (pathOnly) rememberValidPath(op, relPath);
    }
    if (endpointId !== undefined) params['endpointId'] = endpointId;
    const handler = (surface === 'restV1' ? restHandlers : queueHandlers)[op.operationId];
    if (!handler) {
      release();
      return sendError(res, 500, `operation ${op.operationId} is not implemented by the mock`);
    }
    const ctx = { params, query, body, head };
    reply = op.method === 'GET' && surface === 'restV1' && Object.keys(params).length === 0 && hasFault(core, 'cross-account-list')
      ? listOverAccounts(core, (view) => handler(view, ctx))
      : handler(core, ctx);
  } catch (err) {
    release();
    throw err;
  }
  if (reply instanceof Promise) {
    return reply.then(
      (r) => finish(core, res, op, r, release),
      (err: unknown) => {
        release();
        throw err;
      },
    );
  }
  return finish(core, res, op, reply, release);
}

function finish(core: MockCore, res: ServerResponse, op: OperationInfo, reply: Reply, release: () => void): void | Promise<void> {
  // A stream holds its concurrency slot until it ends (the /openai/* limit counts open streams).
  if (reply.stream) return reply.stream(res).finally(release);
  release();
  if (op.method !== 'GET') core.touch();
  return send(res, reply);
}

function admit(core: MockCore, op: OperationInfo, endpointId: string) {
  if (!op.rateLimit || !core.rateLimiter.enabled || core.options.faults.has('no-429')) return ADMITTED;
  const perWorker = core.options.requestsPerWorkerPer10s ?? mockRateLimitPolicy.requestsPerWorkerPer10s;
  // Dynamic limit: the higher of the base limit and running workers × per-worker figure.
  const limit = Math.max(op.rateLimit.requestsPer10s, core.engine.runningWorkers(endpointId) * perWorker);
  return core.rateLimiter.admit(`${endpointId}:${op.operationId}`, limit, op.rateLimit.concurrent);
}

function reject(req: IncomingMessage, res: ServerResponse, status: number, message: string, headers?: Record<string, string>): void {
  req.resume();
  sendError(res, status, message, undefined, headers);
}

export function send(res: ServerResponse, reply: Reply): void | Promise<void> {
  if (reply.body === undefined) {
    if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
    return sendNoContent(res, reply.status);
  }
  if (reply.json !== undefined) return sendJsonText(res, reply.status, reply.json, reply.headers);
  // An answer too large to serialise in one turn (a job's 20 MB result, a long list) is written a slice per turn.
  if (needsTurns(reply.body)) return sendJsonInTurns(res, reply.status, reply.body, reply.headers);
  sendJson(res, reply.status, reply.body, reply.headers);
}

function logRequest(req: IncomingMessage, res: ServerResponse, path: string): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // Never the query string: it may carry api_key.
    process.stderr.write(`[mock] ${req.method} ${path} ${res.statusCode} ${ms.toFixed(1)}ms\n`);
  });
}
