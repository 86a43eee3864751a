// The workers of one load-balancing endpoint: requests go straight to the least busy ready worker (no queue,
// no retry); a request finding none waits for one to become ready, at most noWorkerWaitMs on the mock's clock,
// then is answered noWorkerStatus. Workers scale by request count (REQUEST_COUNT: one worker per
// `requestCount` requests in flight or waiting) between workersMin and workersMax; a worker idle for the
// endpoint's idleTimeout is stopped (never below workersMin).
import type { Clock, TimerHandle } from '../clock.js';
import type { LbWorker, LbWorkerState } from './worker.js';

export interface PoolSettings {
  workersMin: number;
  workersMax: number;
  /** Requests per worker before another starts. */
  requestCount: number;
  idleTimeoutMs: number;
}

interface Waiter {
  resolve(worker: LbWorker | undefined): void;
  timer: TimerHandle;
}

export class LbPool {
  private readonly workers: LbWorker[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly idleTimers = new Map<LbWorker, TimerHandle>();
  private closed = false;
  /** The request being placed by acquire(), counted as demand while the pool scales for it. */
  private arriving = 0;
  /** Requests being answered by the pool's workers (the sum of their inFlight). */
  private inFlight = 0;

  constructor(
    private readonly clock: Clock,
    private readonly settings: () => PoolSettings,
    private readonly spawn: (index: number) => LbWorker,
    private readonly noWorkerWaitMs: number,
    /** A request gave up waiting: the pool's starting workers are reported (process-worker.ts: once each). */
    private readonly onNoWorker: (starting: readonly LbWorker[]) => void = () => {},
  ) {}

  get size(): number {
    return this.workers.length;
  }

  /** Every worker and its load (control API, tests). */
  view(): { id: string; state: LbWorkerState; inFlight: number; url?: string }[] {
    return this.workers.map((w) => ({ id: w.id, state: w.state, inFlight: w.inFlight, ...(w.url ? { url: w.url } : {}) }));
  }

  /** A ready worker with this request counted on it, now (no promise: the warm path of every request); undefined when none is ready. */
  tryAcquire(): LbWorker | undefined {
    if (this.closed) return undefined;
    // Scale for this request first, so a worker that starts ready (a fetch handler) can take it.
    this.arriving++;
    this.scale();
    this.arriving--;
    const ready = this.leastBusy();
    if (ready) this.take(ready);
    return ready;
  }

  /** A ready worker with this request counted on it; undefined when none became ready in time. */
  acquire(): Promise<LbWorker | undefined> {
    const ready = this.tryAcquire();
    if (ready || this.closed) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: this.clock.after(this.noWorkerWaitMs, () => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          this.onNoWorker(this.workers.filter((w) => w.state !== 'ready'));
          resolve(undefined);
        }),
      };
      this.waiters.push(waiter);
      this.scale();
    });
  }

  release(worker: LbWorker): void {
    worker.inFlight--;
    this.inFlight--;
    if (worker.inFlight === 0 && worker.state === 'ready') this.armIdle(worker);
    // Less demand never starts a worker: a release matters to waiting requests, or ends a worker that left the pool.
    if (this.waiters.length > 0 || worker.state !== 'ready') this.scale();
  }

  /** Workers to run for the demand now: one per requestCount requests, within min and max. */
  private wanted(): number {
    const s = this.settings();
    const demand = this.inFlight + this.waiters.length + this.arriving;
    return Math.max(s.workersMin, Math.min(s.workersMax, Math.ceil(demand / Math.max(1, s.requestCount))));
  }

  /** Starts workers up to what the demand wants (a stopped or unhealthy one is replaced). */
  scale(): void {
    if (this.closed) return;
    for (let i = this.workers.length - 1; i >= 0; i--) {
      const w = this.workers[i]!;
      if ((w.state === 'stopped' || w.state === 'unhealthy') && w.inFlight === 0) {
        this.workers.splice(i, 1);
        this.clock.cancel(this.idleTimers.get(w));
        this.idleTimers.delete(w);
        if (w.state === 'unhealthy') void w.stop();
      }
    }
    for (let n = this.wanted(); this.workers.length < n;) {
      const worker = this.spawn(this.workers.length);
      worker.onState = (state) => this.changed(worker, state);
      this.workers.push(worker);
      if (worker.state === 'ready') this.changed(worker, 'ready');
    }
  }

  private changed(worker: LbWorker, state: LbWorkerState): void {
    if (state === 'ready') {
      while (this.waiters.length > 0 && worker.state === 'ready') {
        const waiter = this.waiters.shift()!;
        this.clock.cancel(waiter.timer);
        const chosen = this.leastBusy() ?? worker;
        this.take(chosen);
        waiter.resolve(chosen);
      }
      if (worker.inFlight === 0) this.armIdle(worker);
    } else if (state === 'unhealthy' || state === 'stopped') {
      // Leaves the routing pool; a replacement starts if the demand wants one.
      queueMicrotask(() => this.scale());
    }
  }

  private leastBusy(): LbWorker | undefined {
    let best: LbWorker | undefined;
    for (const w of this.workers) if (w.state === 'ready' && (best === undefined || w.inFlight < best.inFlight)) best = w;
    return best;
  }

  private take(worker: LbWorker): void {
    worker.inFlight++;
    this.inFlight++;
    const idle = this.idleTimers.get(worker);
    if (idle === undefined) return;
    this.clock.cancel(idle);
    this.idleTimers.delete(worker);
  }

  private armIdle(worker: LbWorker): void {
    this.clock.cancel(this.idleTimers.get(worker));
    this.idleTimers.set(worker, this.clock.after(this.settings().idleTimeoutMs, () => {
      this.idleTimers.delete(worker);
      if (worker.inFlight > 0 || this.workers.length <= this.settings().workersMin) return;
      this.workers.splice(this.workers.indexOf(worker), 1);
      void worker.stop();
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) {
      this.clock.cancel(waiter.timer);
      waiter.resolve(undefined);
    }
    for (const timer of this.idleTimers.values()) this.clock.cancel(timer);
    this.idleTimers.clear();
    await Promise.all(this.workers.splice(0).map((w) => w.stop()));
  }
}
