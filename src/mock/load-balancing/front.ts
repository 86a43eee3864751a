// Direct access to a load-balancing endpoint's workers (specs/queue-v2 x-load-balancing-endpoints.directAccess):
// `/lb/{endpointId}/{path}` or Host `{endpointId}.localhost`. Order: the path check → the owning account's
// bearer key (none or wrong: auth.missingKeyStatus 401; another account's endpoint: otherAccountStatus 404, as an absent one) → the endpoint's type →
// the payload limit → a ready worker (least busy; none within noWorkerWaitMs: noWorkerStatus) → the request
// streamed to it and its answer streamed back unchanged. No queue, no retry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_ACCOUNT } from '../account-names.js';
import { bearerKey } from '../auth.js';
import type { MockCore } from '../core.js';
import { sendError } from '../http.js';
import type { ServerParts } from '../server-parts.js';
import type { LbAddress } from './address.js';
import { loadBalancingFacts } from './facts.js';
import { isLoadBalancing } from './job-refusal.js';

/** The scope direct access needs: the one of every queue v2 operation (calling an endpoint). */
const SCOPE = 'jobs';

export function serveLoadBalanced(parts: ServerParts, req: IncomingMessage, res: ServerResponse, address: LbAddress, search: string): void | Promise<void> {
  const facts = loadBalancingFacts.directAccess;
  if (address.kind === 'bad') return refuse(req, res, address.status, address.message);
  const { endpointId } = address;
  const core = accountCore(parts, req, endpointId);
  if (typeof core === 'string') return refuse(req, res, facts.auth.missingKeyStatus, core);
  const record = core.store.endpoints.peek(endpointId) as Record<string, unknown> | undefined;
  // Another account's endpoint is answered as an unknown one: the address tells nothing about other accounts.
  if (!record) return refuse(req, res, facts.auth.otherAccountStatus, `endpoint ${endpointId} not found`);
  if (!isLoadBalancing(record)) return refuse(req, res, facts.auth.otherAccountStatus, `endpoint ${endpointId} is queue-based: it has no direct address (its jobs go to /v2/${endpointId}/run)`);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > facts.maxPayloadBytes) return refuse(req, res, facts.forwarding.payloadTooLargeStatus, `request body exceeds ${facts.maxPayloadBytes} bytes`);
  const balancer = parts.loadBalancer;
  if (!balancer) return refuse(req, res, 404, 'load-balancing endpoints are not served by this mock');
  // `lb-forward-drops-query`: the worker gets the path without its query string.
  const forwardedSearch = core.options.faults.has('lb-forward-drops-query') ? '' : search;
  return balancer.forward(core, endpointId, { req, res, path: address.path, search: forwardedSearch });
}

/** The key's account view, or the 401 message. `lb-direct-access-keyless`: no key check, the endpoint's owner answers. */
function accountCore(parts: ServerParts, req: IncomingMessage, endpointId: string): MockCore | string {
  if (parts.core.options.faults.has('lb-direct-access-keyless')) return parts.core.forAccount(parts.core.accounts.ownerOf('endpoints', endpointId) ?? DEFAULT_ACCOUNT);
  const auth = parts.keys.check(bearerKey(req), undefined);
  if (!auth.ok) return auth.message;
  if (!auth.scopes.has(SCOPE)) return `Unauthorized: API key lacks the '${SCOPE}' scope`;
  return parts.core.forAccount(auth.account);
}

function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  req.resume();
  sendError(res, status, message);
}
