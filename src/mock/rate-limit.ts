// Per endpoint, per operation rate windows and concurrency limits (figures come from the specs'
// x-rate-limit via the generated operations table). Windows follow the mock clock.
import type { Clock } from './clock.js';

interface Counter {
  windowStart: number;
  count: number;
  inflight: number;
}

export type Admission = { ok: true; release: () => void } | { ok: false; retryAfterSeconds: number; reason: string };

const NOOP = () => {};

export class RateLimiter {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
    /** 0 switches limits off; otherwise every limit is multiplied by it. */
    private readonly factor: number,
  ) {}

  /**
   * Admits one request under `key` when the window count stays within `limit` and in-flight requests
   * within `concurrent` (null = no concurrent limit). The caller must call `release()` when done.
   */
  /** False when limits are off (--rate-limits off): nothing is counted and every request is admitted. */
  get enabled(): boolean {
    return this.factor !== 0;
  }

  admit(key: string, limit: number, concurrent: number | null): Admission {
    if (this.factor === 0) return { ok: true, release: NOOP };
    const counter = this.currentWindow(key);
    const effectiveLimit = Math.max(1, Math.floor(limit * this.factor));
    if (counter.count >= effectiveLimit) {
      const waitMs = counter.windowStart + this.windowMs - this.clock.now();
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), reason: `rate limit of ${effectiveLimit} requests per ${this.windowMs / 1000} s exceeded` };
    }
    if (concurrent !== null) {
      const effectiveConcurrent = Math.max(1, Math.floor(concurrent * this.factor));
      if (counter.inflight >= effectiveConcurrent) {
        return { ok: false, retryAfterSeconds: 1, reason: `concurrency limit of ${effectiveConcurrent} requests exceeded` };
      }
    }
    counter.count++;
    counter.inflight++;
    const c = counter;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (!released) {
          released = true;
          c.inflight--;
        }
      },
    };
  }

  /**
   * Counts `count` requests toward `key`'s current window as if they had been admitted (control API:
   * a test reaches a limit without sending thousands of requests). Returns the window's count.
   */
  /** `key`'s counter, reset when the clock has entered a new window since it last counted. */
  private currentWindow(key: string) {
    const now = this.clock.now();
    const windowStart = now - (now % this.windowMs);
    let counter = this.counters.get(key);
    if (!counter) this.counters.set(key, (counter = { windowStart, count: 0, inflight: 0 }));
    if (counter.windowStart !== windowStart) {
      counter.windowStart = windowStart;
      counter.count = 0;
    }
    return counter;
  }

  consume(key: string, count: number): number {
    const counter = this.currentWindow(key);
    counter.count += count;
    return counter.count;
  }

  /**
   * Counts `count` requests toward `key`'s window and keeps them in flight for `holdMs` of the clock (control
   * API: a concurrency limit of hundreds is reached without holding hundreds of connections open). Returns
   * the window's count and the requests in flight.
   */
  hold(key: string, count: number, holdMs: number): { used: number; inflight: number } {
    const counter = this.currentWindow(key);
    counter.count += count;
    counter.inflight += count;
    this.clock.after(holdMs, () => {
      counter.inflight -= count;
    });
    return { used: counter.count, inflight: counter.inflight };
  }

  forget(prefix: string): void {
    for (const key of this.counters.keys()) if (key.startsWith(prefix)) this.counters.delete(key);
  }

  clear(): void {
    this.counters.clear();
  }
}
