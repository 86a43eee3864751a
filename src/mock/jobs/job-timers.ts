// The deadlines a stored job may hold: its ttl (from submission), its run (completion or executionTimeout) and,
// once ended, its result retention.
import type { Clock, TimerHandle } from '../clock.js';
import { TERMINAL_STATUSES, type Job } from '../types.js';
import { DeadlineQueue } from './deadline-queue.js';

export const DEFAULT_TTL_MS = 86_400_000;

/** When a job's ttl ends: counted from its original submission, so a /retry does not move it. */
export const ttlDeadline = (job: Job): number => job.submittedAt + (job.policy?.ttl ?? DEFAULT_TTL_MS);

/**
 * Whether a stored job's ttl entry still counts: it is queued or running, or it may be requeued by /retry (FAILED,
 * TIMED_OUT), which keeps the ttl of its original submission.
 */
export function ttlCounts(job: Job): boolean {
  return !TERMINAL_STATUSES.has(job.status) || job.status === 'FAILED' || job.status === 'TIMED_OUT';
}

export interface DeadlineHooks {
  /** A job's ttl ended (called for every job armed then: the engine judges whether it still counts). */
  ttlEnded(job: Job): void;
  /** Whether the job is still stored: a ttl entry counts while the job is stored and `ttlCounts`. */
  isStored(job: Job): boolean;
  /** The result retention `at` a job was given ended (it may have been given another since). */
  retentionEnded(job: Job, at: number): void;
}

export class JobTimers {
  /** Run timers, of running jobs only (a few per worker). */
  private readonly runs = new Map<string, TimerHandle>();
  /** Ttls in submission order: one clock timer for all of them, no object per queued job. */
  private readonly ttls: DeadlineQueue<Job>;
  /** Result retention per submission kind: one period per kind, so expiries come in the order jobs end. */
  private readonly retention: Record<Job['kind'], DeadlineQueue<Job>>;

  constructor(private readonly clock: Clock, hooks: DeadlineHooks) {
    this.ttls = new DeadlineQueue(clock, hooks.ttlEnded, (job) => hooks.isStored(job) && ttlCounts(job));
    this.retention = { run: new DeadlineQueue(clock, hooks.retentionEnded), runsync: new DeadlineQueue(clock, hooks.retentionEnded) };
  }

  /** The job keeps its result until `at` (epoch ms), then `retentionEnded` is called. */
  armRetention(job: Job, at: number): void {
    this.retention[job.kind].add(job, at);
  }

  /** Arms the job's ttl (a queued or requeued job); it fires at `ttlDeadline(job)` unless the job ended first. */
  armTtl(job: Job): void {
    this.ttls.add(job, ttlDeadline(job));
  }

  /** A job whose ttl was armed ended or was deleted: its ttl no longer counts. */
  forgetTtl(): void {
    this.ttls.forget();
  }

  /** Ttl entries held, ended jobs' included until they are dropped in bulk (the memory bound's test). */
  get ttlEntries(): number {
    return this.ttls.size;
  }

  /** Sets the job's run timer (one at a time: a previous one is cancelled). */
  setRun(jobId: string, at: number, fire: () => void): void {
    this.clock.cancel(this.runs.get(jobId));
    this.runs.set(jobId, this.clock.at(at, fire));
  }

  cancelRun(jobId: string): void {
    this.clock.cancel(this.runs.get(jobId));
    this.runs.delete(jobId);
  }

  /** Forgets every ttl and retention (the engine was cleared). */
  clearDeadlines(): void {
    this.ttls.clear();
    this.retention.run.clear();
    this.retention.runsync.clear();
  }
}
