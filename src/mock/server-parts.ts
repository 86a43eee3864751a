// What the request handler and the surfaces' fronts share: the mock's core, its routes, keys and CORS.
// Apart from server.ts so a surface front (rest-v2/front.ts) imports the shape and not the server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyRing } from './auth.js';
import type { MockCore } from './core.js';
import type { Cors } from './cors.js';
import type { LoadBalancer } from './load-balancing/balancer.js';
import type { Router } from './router.js';

export interface ServerParts {
  core: MockCore;
  router: Router;
  keys: KeyRing;
  control?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;
  /** Whether the control API answers this request's peer (control-access.ts); others get the plain 404. */
  controlAllowed?: (req: IncomingMessage) => boolean;
  /** CORS headers for the public surfaces; undefined = CORS off (no Access-Control-* header at all). */
  cors?: Cors;
  /** Direct access to load-balancing endpoints' workers (load-balancing/front.ts). */
  loadBalancer?: LoadBalancer;
  /** Host names under which `{endpointId}.<name>` addresses an endpoint's workers (load-balancing/address.ts). */
  lbHostSuffixes?: readonly string[];
}
