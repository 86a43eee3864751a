// One worker of a load-balancing endpoint, whatever runs it: an in-process fetch handler (fetch-worker.ts)
// or an HTTP server process (process-worker.ts). The pool (pool.ts) routes to it by these fields only.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** RunPod's worker health: GET /ping on PORT_HEALTH → 200 ready, 204 initialising, anything else unhealthy. */
export type LbWorkerState = 'initializing' | 'ready' | 'unhealthy' | 'stopped';

export interface ForwardedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** Path after the endpoint (`/generate`), and the query string without `?` ('' when none). */
  path: string;
  search: string;
}

export interface LbWorker {
  readonly id: string;
  readonly state: LbWorkerState;
  /** A process worker's own address (http://127.0.0.1:PORT); none for an in-process one. */
  readonly url?: string | undefined;
  /** Requests it is answering now (least busy ready worker first). */
  inFlight: number;
  /** Called whenever `state` changes (the pool wakes waiting requests on `ready`). */
  onState?: (state: LbWorkerState) => void;
  /** Answers one request; resolves once `res` is finished or given up. Never rejects. */
  serve(request: ForwardedRequest): Promise<void>;
  stop(): Promise<void>;
}
