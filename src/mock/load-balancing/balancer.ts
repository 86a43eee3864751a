// Every load-balancing endpoint's pool of workers, made on the first request to the endpoint. Which worker
// kind runs is the endpoint's worker (docs/workers.md): a module or function given for its name is a fetch
// handler here; a process (`exec:` / FILE.py) an HTTP server on PORT with /ping on PORT_HEALTH; none (or
// stubs, which are for queue jobs) the HTTP echo worker.
import type { MockCore } from '../core.js';
import { sendError } from '../http.js';
import { workerEnvOf } from '../simulated-workers/env.js';
import { echoFetchHandler } from './echo-worker.js';
import { loadBalancingFacts } from './facts.js';
import { FetchWorker, type FetchHandler } from './fetch-worker.js';
import { LbPool, type PoolSettings } from './pool.js';
import { ProcessWorker } from './process-worker.js';
import { RestartBackoff } from '../worker-processes/launcher.js';
import type { ForwardedRequest, LbWorker } from './worker.js';

const DEFAULTS = { workersMin: 0, workersMax: 3, requestCount: 4, idleTimeoutS: 5 };

function settingsOf(record: Record<string, unknown> | undefined): PoolSettings {
  const n = (key: string, fallback: number) => (typeof record?.[key] === 'number' ? (record[key] as number) : fallback);
  return {
    workersMin: n('workersMin', DEFAULTS.workersMin),
    workersMax: n('workersMax', DEFAULTS.workersMax),
    requestCount: n('scalerValue', DEFAULTS.requestCount),
    idleTimeoutMs: n('idleTimeout', DEFAULTS.idleTimeoutS) * 1000,
  };
}

export class LoadBalancer {
  private readonly pools = new Map<string, LbPool>();
  private spawned = 0;
  /** Process workers' crash back-off per endpoint: the queue workers' (worker-processes/launcher.ts), same figures. */
  private readonly backoffs = new Map<string, RestartBackoff>();

  constructor(private readonly report: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {}

  /** The pool of an endpoint (tests and the control API read its workers). */
  pool(endpointId: string): LbPool | undefined {
    return this.pools.get(endpointId);
  }

  /** Answers one request on a ready worker of the endpoint: at once when one is ready (no await on that path), else once one is. */
  forward(core: MockCore, endpointId: string, request: ForwardedRequest): Promise<void> {
    const pool = this.poolOf(core, endpointId);
    const ready = pool.tryAcquire();
    if (ready) return this.serveOn(core, pool, ready, request);
    return pool.acquire().then((worker) => {
      if (worker) return this.serveOn(core, pool, worker, request);
      const facts = loadBalancingFacts.directAccess;
      request.req.resume();
      sendError(request.res, facts.noWorkerStatus, `no workers available: no worker of endpoint ${endpointId} became ready within ${facts.noWorkerWaitMs / 1000} s`);
    });
  }

  private serveOn(core: MockCore, pool: LbPool, worker: LbWorker, request: ForwardedRequest): Promise<void> {
    const { res } = request;
    const facts = loadBalancingFacts.directAccess;
    // Processing bound (the mock's clock): no answer begun by then → processingTimeoutStatus; begun → cut.
    const timer = core.clock.after(facts.processingTimeoutMs, () => {
      if (res.headersSent) return void res.destroy();
      sendError(res, facts.processingTimeoutStatus, `the worker took longer than ${facts.processingTimeoutMs / 1000} s to answer`);
    });
    // serve() never rejects (worker.ts).
    return worker.serve(request).then(() => {
      core.clock.cancel(timer);
      pool.release(worker);
    });
  }

  private poolOf(core: MockCore, endpointId: string): LbPool {
    let pool = this.pools.get(endpointId);
    if (pool) return pool;
    const facts = loadBalancingFacts.directAccess;
    pool = new LbPool(
      core.clock,
      () => settingsOf(core.store.endpoints.peek(endpointId) as Record<string, unknown> | undefined),
      () => this.spawn(core, endpointId),
      facts.noWorkerWaitMs,
      (starting) => { for (const w of starting) if (w instanceof ProcessWorker) w.reportNeverReady(facts.noWorkerWaitMs); },
    );
    this.pools.set(endpointId, pool);
    return pool;
  }

  private spawn(core: MockCore, endpointId: string): LbWorker {
    const workerId = `${endpointId}-w${++this.spawned}`;
    const max = loadBalancingFacts.directAccess.maxPayloadBytes;
    const given = core.workers.workerOf(endpointId) as { kind: string; handler?: unknown; command?: string; source: string } | undefined;
    if (given?.kind === 'process' && typeof given.command === 'string') {
      let backoff = this.backoffs.get(endpointId);
      if (!backoff) this.backoffs.set(endpointId, (backoff = new RestartBackoff()));
      return new ProcessWorker({
        id: workerId, endpointId, command: given.command, env: workerEnvOf(core.store, endpointId), maxPayloadBytes: max,
        startDelayMs: backoff.waitMs(),
        report: this.report,
        onExit: (info) => backoff.exited(info),
      });
    }
    // A built-in or public stand-in is a job handler, not an HTTP one: those endpoints get the echo worker.
    const own = given?.kind === 'handler' && typeof given.handler === 'function' && !/^(builtin|public):/.test(given.source);
    const handler = own ? given.handler as FetchHandler : echoFetchHandler;
    return new FetchWorker(workerId, handler, max);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    this.pools.clear();
  }
}
