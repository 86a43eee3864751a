// Control API for simulated workers: stubs set by endpoint name, and a clock advance that lets handler code
// run between timers (a handler awaiting context.sleep() resumes at each virtual instant it asked for).
import type { ServerResponse } from 'node:http';
import type { MockCore } from '../core.js';
import { sendError, sendJson } from '../http.js';
import { parseStubRules } from './stubs.js';
import { MAX_WORKERS, MAX_WORKER_NAME_LENGTH } from './types.js';

const PREFIX = '/__control/workers';
/** Timer instants one advance may step through while handlers run (bounded work per request). */
const MAX_ADVANCE_STEPS = 100_000;

export const isWorkerControlPath = (path: string): boolean => path === PREFIX || path.startsWith(`${PREFIX}/`);

/** GET /__control/workers · PUT /__control/workers/{name} {rules} · DELETE /__control/workers/{name}. */
export function handleWorkerControl(core: MockCore, method: string, path: string, body: Record<string, unknown>, res: ServerResponse): void {
  const rest = path.slice(PREFIX.length).replace(/^\/|\/$/g, '');
  if (rest === '') {
    if (method !== 'GET') return sendError(res, 405, `method ${method} not allowed at ${PREFIX}`);
    return sendJson(res, 200, { workers: core.workers.list() });
  }
  let name: string;
  try {
    name = decodeURIComponent(rest);
  } catch {
    return sendError(res, 400, 'Invalid control request', [{ path: '/path/name', message: 'must be a percent-encoded endpoint name' }]);
  }
  if (name.length > MAX_WORKER_NAME_LENGTH) return sendError(res, 400, 'Invalid control request', [{ path: '/path/name', message: `must be at most ${MAX_WORKER_NAME_LENGTH} characters` }]);
  if (method === 'DELETE') {
    const removed = core.workers.removeStubs(name);
    return removed ? sendJson(res, 200, { workers: core.workers.list() }) : sendError(res, 404, `no control stubs for endpoint name ${name}`);
  }
  if (method !== 'PUT') return sendError(res, 405, `method ${method} not allowed at ${path}`);
  const rules = parseStubRules(body);
  if (typeof rules === 'string') return sendError(res, 400, 'Invalid stubs', [{ path: '/body', message: rules }]);
  if (core.workers.size >= MAX_WORKERS && !core.workers.list().some((w) => w.name === name)) {
    return sendError(res, 400, `at most ${MAX_WORKERS} workers may be defined`);
  }
  core.workers.setStubs(name, rules);
  sendJson(res, 200, { workers: core.workers.list() });
}

/**
 * Moves the virtual clock `ms` forward. While handler code runs, it steps from timer to timer and lets the
 * handlers' continuations run in between, so the timers they set on the way fire within the same advance.
 */
export async function advanceWithWorkers(core: MockCore, ms: number): Promise<void> {
  const clock = core.clock;
  const target = clock.now() + ms;
  const handlersRan = core.workers.liveRuns > 0;
  for (let step = 0; step < MAX_ADVANCE_STEPS && core.workers.liveRuns > 0; step++) {
    const next = clock.nextTimerAt();
    if (next === undefined || next > target) break;
    clock.advance(Math.max(0, next - clock.now()));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  clock.advance(Math.max(0, target - clock.now()));
  // Outcomes of handlers that settled on the last step are recorded before the answer.
  if (handlersRan) await new Promise<void>((resolve) => setImmediate(resolve));
}
