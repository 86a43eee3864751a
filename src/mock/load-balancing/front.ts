// Direct access to a load-balancing endpoint's workers (specs/queue-v2 x-load-balancing-endpoints.directAccess):
// `/lb/{endpointId}/{path}` or Host `{endpointId}.localhost`. Order: the path check → the owning account's
// bearer key (none or wrong: 401; another account's endpoint: 404 as an absent one) → the endpoint's type →
// the payload limit → a ready worker (least busy; none within noWorkerWaitMs: noWorkerStatus) → the request
// streamed to it and its answer streamed back unchanged. No queue, no retry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerKey } from '../auth.js';
import { sendError } from '../http.js';
import type { ServerParts } from '../server-parts.js';
import type { LbAddress } from './address.js';
import { loadBalancingFacts } from './facts.js';
import { isLoadBalancing } from './job-refusal.js';

/** The scope direct access needs: the one of every queue v2 operation (calling an endpoint). */
const SCOPE = 'jobs';

export function serveLoadBalanced(parts: ServerParts, req: IncomingMessage, res: ServerResponse, address: LbAddress, search: string): void | Promise<void> {
  if (address.kind === 'bad') return refuse(req, res, address.status, address.message);
  const auth = parts.keys.check(bearerKey(req), undefined);
  if (!auth.ok) return refuse(req, res, 401, auth.message);
  if (!auth.scopes.has(SCOPE)) return refuse(req, res, 401, `Unauthorized: API key lacks the '${SCOPE}' scope`);
  const core = parts.core.forAccount(auth.account);
  const { endpointId } = address;
  const record = core.store.endpoints.peek(endpointId) as Record<string, unknown> | undefined;
  if (!record) return refuse(req, res, 404, `endpoint ${endpointId} not found`);
  if (!isLoadBalancing(record)) return refuse(req, res, 404, `endpoint ${endpointId} is queue-based: it has no direct address (its jobs go to /v2/${endpointId}/run)`);
  const facts = loadBalancingFacts.directAccess;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > facts.maxPayloadBytes) return refuse(req, res, 413, `request body exceeds ${facts.maxPayloadBytes} bytes`);
  const balancer = parts.loadBalancer;
  if (!balancer) return refuse(req, res, 404, 'load-balancing endpoints are not served by this mock');
  return balancer.forward(core, endpointId, { req, res, path: address.path, search });
}

function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  req.resume();
  sendError(res, status, message);
}
