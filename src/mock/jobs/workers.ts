// Worker pool of one endpoint: workersMin always present, scale-up on queue pressure up to workersMax
// (each worker on the first available GPU type of gpuTypeIds), idle scale-down after idleTimeout.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { WORKERS_CEILING } from '../state/input-bounds.js';
import type { Worker } from '../types.js';

const DEFAULT_WORKERS_MAX = 3;
const DEFAULT_IDLE_TIMEOUT_S = 5;

export interface EndpointConfig {
  gpuTypeIds?: string[];
  computeType?: string;
  workersMin?: number;
  workersMax?: number;
  /** Seconds. */
  idleTimeout?: number;
  executionTimeoutMs?: number;
  /** Current release (state/releases.ts); workers of an older one are replaced as they fall idle. */
  releaseVersion?: number;
}

/** What happens to an endpoint's workers beyond the record (worker processes: started, stopped). */
export interface WorkerLifecycle {
  /** A worker record was added by scaling: start its process. */
  spawned(worker: Worker): void;
  removed(worker: Worker): void;
  /** Whether new workers may start now (false while a failing worker process backs off). */
  canSpawn(): boolean;
  /** Workers that cannot start now (/health `throttled`). */
  throttled(): number;
}

export class WorkerPool {
  readonly workers: Worker[] = [];
  /** Worker processes' lifecycle; none for simulated workers. */
  lifecycle: WorkerLifecycle | undefined;
  /** Which worker runs each job (a worker process may run several at once). */
  private readonly holders = new Map<string, Worker>();

  constructor(
    private readonly clock: Clock,
    private readonly config: () => EndpointConfig,
    private readonly isGpuAvailable: (gpuTypeId: string) => boolean,
  ) {}

  get running(): number {
    let running = 0;
    for (const w of this.workers) if (w.state === 'running') running++;
    return running;
  }

  /** Keeps workersMin workers and adds workers for `demand` queued jobs (never above workersMax). */
  scale(demand: number): void {
    const config = this.config();
    // Never more workers than the spec allows, whatever a restored state file says (memory per worker).
    const min = Math.min(config.workersMin ?? 0, WORKERS_CEILING);
    const max = Math.min(Math.max(min, config.workersMax ?? DEFAULT_WORKERS_MAX), WORKERS_CEILING);
    this.retireStale(config, (w) => w.state === 'idle');
    while (this.workers.length < min && this.spawn(config));
    let idle = this.workers.length - this.running;
    while (demand > idle && this.workers.length < max && this.spawn(config)) idle++;
  }

  occupy(worker: Worker, jobId: string): void {
    worker.state = 'running';
    worker.jobId ??= jobId;
    this.holders.set(jobId, worker);
    this.clock.cancel(worker.idleTimer);
    worker.idleTimer = undefined;
  }

  /** Jobs the worker runs now. */
  jobsOf(worker: Worker): string[] {
    const ids: string[] = [];
    for (const [jobId, holder] of this.holders) if (holder === worker) ids.push(jobId);
    return ids;
  }

  /** Frees the worker running `jobId`; returns it (undefined when no worker runs that job). */
  release(jobId: string): Worker | undefined {
    const worker = this.holders.get(jobId);
    if (!worker) return undefined;
    this.holders.delete(jobId);
    if (worker.jobId === jobId) worker.jobId = this.jobsOf(worker)[0];
    if (worker.jobId !== undefined) return worker;
    worker.state = 'idle';
    worker.jobId = undefined;
    worker.idleSince = this.clock.now();
    // A worker of an older release stops after its job (rollout); the next dispatch replaces it.
    if (this.retireStale(this.config(), (w) => w === worker) > 0) return worker;
    this.armIdleScaleDown(worker);
    return worker;
  }

  /** A worker process became ready for work (its first job-take). */
  ready(worker: Worker): void {
    if (worker.state !== 'initializing') return;
    worker.state = 'idle';
    worker.idleSince = this.clock.now();
    this.armIdleScaleDown(worker);
  }

  /** Adds a worker that joined on its own (attach mode); it counts like a spawned one. */
  adopt(worker: Worker): void {
    // It runs whatever the endpoint runs now: not an older release to retire at once.
    worker.release = this.config().releaseVersion ?? 0;
    this.workers.push(worker);
    this.armIdleScaleDown(worker);
  }

  /** Removes a worker (its process exited or was replaced); its jobs are the caller's to end first. */
  remove(worker: Worker): void {
    const index = this.workers.indexOf(worker);
    if (index < 0) return;
    this.clock.cancel(worker.idleTimer);
    this.workers.splice(index, 1);
    for (const jobId of this.jobsOf(worker)) this.holders.delete(jobId);
    this.lifecycle?.removed(worker);
  }

  clear(): void {
    for (const worker of [...this.workers]) this.remove(worker);
    this.holders.clear();
  }

  /** Adds a worker on the first available GPU type in priority order; none when no type has capacity. */
  private spawn(config: EndpointConfig): Worker | undefined {
    if (this.lifecycle && !this.lifecycle.canSpawn()) return undefined;
    const now = this.clock.now();
    const worker: Worker = { id: workerId(), state: this.lifecycle ? 'initializing' : 'idle', idleSince: now, createdAt: now, release: config.releaseVersion ?? 0 };
    if (config.computeType !== 'CPU' && config.gpuTypeIds && config.gpuTypeIds.length > 0) {
      const gpu = config.gpuTypeIds.find((id) => this.isGpuAvailable(id));
      if (!gpu) return undefined;
      worker.gpuTypeId = gpu;
    }
    this.workers.push(worker);
    if (this.lifecycle) this.lifecycle.spawned(worker);
    else this.armIdleScaleDown(worker);
    return worker;
  }

  /** Removes the workers matching `which` that run an older release than the endpoint's; returns how many. */
  private retireStale(config: EndpointConfig, which: (w: Worker) => boolean): number {
    const current = config.releaseVersion ?? 0;
    let removed = 0;
    for (let i = this.workers.length - 1; i >= 0; i--) {
      const worker = this.workers[i]!;
      if (worker.release >= current || !which(worker)) continue;
      this.remove(worker);
      removed++;
    }
    return removed;
  }

  private armIdleScaleDown(worker: Worker): void {
    const idleMs = (this.config().idleTimeout ?? DEFAULT_IDLE_TIMEOUT_S) * 1000;
    const since = worker.idleSince;
    this.clock.cancel(worker.idleTimer);
    worker.idleTimer = this.clock.at(since + idleMs, () => {
      worker.idleTimer = undefined;
      if (worker.state !== 'idle' || worker.idleSince !== since) return;
      if (this.workers.length <= Math.min(this.config().workersMin ?? 0, WORKERS_CEILING)) return;
      this.remove(worker);
    });
  }
}

export function workerId(): string {
  return randomUUID().replace(/-/g, '').slice(0, 14);
}
