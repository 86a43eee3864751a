// Attach mode: GET /__control/endpoints/{id}/worker-env answers a worker's environment as `KEY=value` lines, so a
// worker image runs against the mock (`docker run --network host --env-file …`). Each call names a fresh worker.
import type { ServerResponse } from 'node:http';
import type { MockCore } from '../core.js';
import { sendError } from '../http.js';
import { workerId } from '../jobs/workers.js';
import { declaredWorkerEnv } from '../simulated-workers/env.js';
import { envFileLines } from './env.js';
import { isLoadBalancing } from '../load-balancing/job-refusal.js';

export function answerWorkerEnv(core: MockCore, endpointId: string, res: ServerResponse): void {
  const store = core.accounts.storeOf('endpoints', endpointId);
  const record = store?.endpoints.peek(endpointId);
  if (!store || !record) return sendError(res, 404, `endpoint ${endpointId} not found`);
  if (isLoadBalancing(record)) return sendError(res, 400, 'a load-balancing endpoint has no queue workers: its workers are HTTP servers (docs/workers.md)');
  // Secret values never leave the mock: references stay as declared (pass them to the container yourself).
  const env = core.workerHub.envFor(endpointId, workerId(), undefined, declaredWorkerEnv(store, endpointId));
  const text = '# worker environment of endpoint ' + endpointId + ' (compute-contract mock, attach mode; docs/workers.md)\n' +
    '# {{ RUNPOD_SECRET_… }} references are not resolved here: secret values never leave the mock.\n' + envFileLines(env);
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}
