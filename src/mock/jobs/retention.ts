// Result retention as a FIFO per submission kind: every job of a kind keeps its result for the same
// period and finishes in clock order, so expiries are already sorted. One clock timer per queue
// (instead of one per job) keeps memory per stored job small.
import type { Clock, TimerHandle } from '../clock.js';
import type { Job } from '../types.js';

export class RetentionQueue {
  private entries: { job: Job; at: number }[] = [];
  private head = 0;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    /** Deletes the job if it is still the stored, terminal job whose expiry is `at`. */
    private readonly expire: (job: Job, at: number) => void,
  ) {}

  /** `at` must not be earlier than any expiry added before (true for one retention period per kind). */
  add(job: Job, at: number): void {
    this.entries.push({ job, at });
    if (!this.timer) this.arm();
  }

  clear(): void {
    this.clock.cancel(this.timer);
    this.timer = undefined;
    this.entries = [];
    this.head = 0;
  }

  private arm(): void {
    const next = this.entries[this.head];
    if (!next) {
      this.entries = [];
      this.head = 0;
      this.timer = undefined;
      return;
    }
    this.timer = this.clock.at(next.at, () => this.fire());
  }

  private fire(): void {
    const now = this.clock.now();
    while (this.head < this.entries.length && this.entries[this.head]!.at <= now) {
      const { job, at } = this.entries[this.head]!;
      this.entries[this.head++] = undefined as never;
      this.expire(job, at);
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    this.arm();
  }
}
