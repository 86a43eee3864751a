// The two timers a stored job may hold: its ttl (from submission) and its run (completion or executionTimeout).
import type { Clock, TimerHandle } from '../clock.js';
import type { Job } from '../types.js';

export const DEFAULT_TTL_MS = 86_400_000;

interface Timers {
  ttl?: TimerHandle;
  run?: TimerHandle;
}

export class JobTimers {
  private readonly timers = new Map<string, Timers>();

  /** `onExpire` is one function for every job's ttl (a closure per stored job would keep ~100 bytes each). */
  constructor(private readonly clock: Clock, private readonly onExpire: (job: Job) => void) {}

  /** Arms (or re-arms) the job's ttl, counted from its original submission. */
  armTtl(job: Job): void {
    const timers = this.of(job.id);
    this.clock.cancel(timers.ttl);
    timers.ttl = this.clock.at(job.submittedAt + (job.policy?.ttl ?? DEFAULT_TTL_MS), this.onExpire, job);
  }

  /** Sets the job's run timer (one at a time: a previous one is cancelled). */
  setRun(jobId: string, at: number, fire: () => void): void {
    const timers = this.of(jobId);
    this.clock.cancel(timers.run);
    timers.run = this.clock.at(at, fire);
  }

  cancelRun(jobId: string): void {
    const timers = this.timers.get(jobId);
    if (!timers) return;
    this.clock.cancel(timers.run);
    timers.run = undefined;
  }

  /** Cancels and forgets both timers (the job ended or was deleted). */
  clear(jobId: string): void {
    const timers = this.timers.get(jobId);
    if (!timers) return;
    this.clock.cancel(timers.ttl);
    this.clock.cancel(timers.run);
    this.timers.delete(jobId);
  }

  private of(jobId: string): Timers {
    let timers = this.timers.get(jobId);
    if (!timers) this.timers.set(jobId, (timers = {}));
    return timers;
  }
}
