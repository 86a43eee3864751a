// Held requests (/runsync, /status-sync ?wait=) waiting for a job: released when the job ends or is
// deleted, or with its current state when the wait runs out on the mock clock.
import type { Clock } from '../clock.js';
import { TERMINAL_STATUSES, type Job } from '../types.js';

type Waiter = (job: Job | undefined) => void;

export class JobWaiters {
  private readonly waiters = new Map<string, Set<Waiter>>();

  constructor(
    private readonly clock: Clock,
    private readonly current: (jobId: string) => Job | undefined,
  ) {}

  /** Resolves with the job once terminal (or deleted → undefined), or with its current state after `ms`. */
  waitFor(job: Job, ms: number): Promise<Job | undefined> {
    if (TERMINAL_STATUSES.has(job.status)) return Promise.resolve(job);
    return new Promise((resolve) => {
      let set = this.waiters.get(job.id);
      if (!set) this.waiters.set(job.id, (set = new Set()));
      const waiter: Waiter = (final) => {
        this.clock.cancel(timer);
        resolve(final);
      };
      set.add(waiter);
      const timer = this.clock.after(ms, () => {
        set!.delete(waiter);
        resolve(this.current(job.id));
      });
    });
  }

  /** Releases every request waiting for the job with its final record (undefined: deleted). */
  notify(job: Job, value: Job | undefined): void {
    const set = this.waiters.get(job.id);
    if (!set) return;
    this.waiters.delete(job.id);
    for (const waiter of set) waiter(value);
  }
}
