// The jobs of one endpoint: FIFO queue, status counters (for /health), scaling demand, worker pool.
import type { Clock } from '../clock.js';
import { recordUsage, type UsageSegment } from '../state/usage.js';
import type { Job, JobStatus } from '../types.js';
import { WorkerPool, type EndpointConfig } from './workers.js';

export class EndpointJobs {
  readonly jobs = new Map<string, Job>();
  readonly pool: WorkerPool;
  private queue: Job[] = [];
  private head = 0;
  private readonly counts: Record<JobStatus, number> = {
    IN_QUEUE: 0, IN_PROGRESS: 0, COMPLETED: 0, FAILED: 0, CANCELLED: 0, TIMED_OUT: 0,
  };
  /** Queued jobs that may trigger scaling (not lowPriority). */
  scalingDemand = 0;
  dispatchPending = false;
  /** Worker time spent on jobs, kept after the jobs themselves expire (billing). */
  billedMs = 0;
  /** When that time was spent (REST v2 billing buckets); not persisted, only the total is. */
  readonly usage: UsageSegment[] = [];
  /** Sum of the stored jobs' retries (/health `retried`). */
  retried = 0;

  constructor(
    readonly endpointId: string,
    private readonly clock: Clock,
    config: () => EndpointConfig,
    isGpuAvailable: (gpuTypeId: string) => boolean,
  ) {
    this.pool = new WorkerPool(clock, config, isGpuAvailable);
  }

  /** Stores a job (any status) in the counters. */
  add(job: Job): void {
    this.jobs.set(job.id, job);
    this.counts[job.status]++;
    this.retried += job.retries;
  }

  remove(job: Job): void {
    if (job.status === 'IN_QUEUE' && !job.policy?.lowPriority) this.scalingDemand--;
    this.counts[job.status]--;
    this.retried -= job.retries;
    this.jobs.delete(job.id);
  }

  enqueue(job: Job): void {
    this.queue.push(job);
    if (!job.policy?.lowPriority) this.scalingDemand++;
  }

  setStatus(job: Job, status: JobStatus): void {
    if (job.status === 'IN_QUEUE' && status !== 'IN_QUEUE' && !job.policy?.lowPriority) this.scalingDemand--;
    this.counts[job.status]--;
    this.counts[status]++;
    job.status = status;
  }

  /** Oldest job still waiting (cancelled, purged or expired entries are skipped). */
  nextQueued(): Job | undefined {
    while (this.head < this.queue.length) {
      const job = this.queue[this.head++]!;
      if (job.status === 'IN_QUEUE' && this.jobs.get(job.id) === job) return job;
    }
    this.queue = [];
    this.head = 0;
    return undefined;
  }

  /** Queued jobs, oldest first, and forgets the queue (purge). */
  takeQueued(): Job[] {
    const waiting = this.queue.slice(this.head).filter((job) => job.status === 'IN_QUEUE' && this.jobs.get(job.id) === job);
    this.queue = [];
    this.head = 0;
    return waiting;
  }

  health() {
    const running = this.pool.running;
    let initializing = 0;
    for (const worker of this.pool.workers) if (worker.state === 'initializing') initializing++;
    const idle = this.pool.workers.length - running - initializing;
    return {
      jobs: {
        completed: this.counts.COMPLETED,
        failed: this.counts.FAILED + this.counts.TIMED_OUT,
        inProgress: this.counts.IN_PROGRESS,
        inQueue: this.counts.IN_QUEUE,
        retried: this.retried,
      },
      workers: { idle, initializing, ready: idle, running, throttled: this.pool.lifecycle?.throttled() ?? 0, unhealthy: 0 },
    };
  }

  /** Bills a finished stretch of worker time. */
  bill(from: number, to: number): void {
    this.billedMs += to - from;
    recordUsage(this.usage, from, to);
  }

  /** Billed segments, running jobs included up to now. */
  usageNow(): UsageSegment[] {
    const now = this.clock.now();
    const open: UsageSegment[] = [];
    for (const worker of this.pool.workers) {
      const job = worker.jobId ? this.jobs.get(worker.jobId) : undefined;
      if (job?.startedAt !== undefined) open.push({ from: job.startedAt, to: now, ms: now - job.startedAt });
    }
    return [...this.usage, ...open];
  }

  /** Worker time used so far, running jobs included (billing). */
  executionMs(): number {
    let total = this.billedMs;
    const now = this.clock.now();
    for (const worker of this.pool.workers) {
      const job = worker.jobId ? this.jobs.get(worker.jobId) : undefined;
      if (job?.startedAt !== undefined) total += now - job.startedAt;
    }
    return total;
  }
}
