// Per-caller REST v2 quota windows (minute, hour, day; figures from the spec's x-rate-limit-windows).
// Every authenticated request counts in every window; past any one → 429 with Retry-After. The
// RateLimit / RateLimit-Policy fields (IETF draft, structured-field lists) report all windows.
import { restV2RateLimitWindows } from '../../../generated/operations.js';
import type { Clock } from '../clock.js';

export interface QuotaWindow {
  name: string;
  limit: number;
  seconds: number;
}

export type QuotaAdmission =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; headers: Record<string, string>; retryAfterSeconds: number; window: string };

/** Callers tracked at most; beyond it the least recently seen is forgotten (memory stays bounded). */
export const MAX_TRACKED_CALLERS = 10_000;

export class QuotaWindows {
  private readonly counts = new Map<string, { starts: number[]; used: number[] }>();
  private readonly windows: QuotaWindow[];
  private readonly policy: string;

  /** `factor` scales every limit; 0 exempts everyone (no limit, no RateLimit fields). */
  constructor(private readonly clock: Clock, private readonly factor: number, windows: readonly QuotaWindow[] = restV2RateLimitWindows) {
    this.windows = windows.map((w) => ({ ...w, limit: Math.max(1, Math.floor(w.limit * factor)) }));
    this.policy = this.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', ');
  }

  get exempt(): boolean {
    return this.factor === 0;
  }

  admit(caller: string): QuotaAdmission {
    if (this.exempt) return { ok: true, headers: {} };
    const now = this.clock.now();
    let entry = this.counts.get(caller);
    if (entry) this.counts.delete(caller); // re-insert: Map order = recency
    else entry = { starts: this.windows.map(() => -1), used: this.windows.map(() => 0) };
    this.counts.set(caller, entry);
    if (this.counts.size > MAX_TRACKED_CALLERS) this.counts.delete(this.counts.keys().next().value!);

    const resets: number[] = [];
    let exceeded: { index: number; retry: number } | undefined;
    this.windows.forEach((w, i) => {
      const ms = w.seconds * 1000;
      const start = now - (now % ms);
      if (entry.starts[i] !== start) {
        entry.starts[i] = start;
        entry.used[i] = 0;
      }
      const reset = Math.max(1, Math.ceil((start + ms - now) / 1000));
      resets.push(reset);
      if (entry.used[i]! >= w.limit && (!exceeded || reset > exceeded.retry)) exceeded = { index: i, retry: reset };
    });
    if (!exceeded) entry.used.forEach((_, i) => entry.used[i]!++);
    const remaining = this.windows.map((w, i) => `"${w.name}";r=${Math.max(0, w.limit - entry.used[i]!)};t=${resets[i]}`).join(', ');
    const headers = { ratelimit: remaining, 'ratelimit-policy': this.policy };
    if (!exceeded) return { ok: true, headers };
    return { ok: false, headers, retryAfterSeconds: exceeded.retry, window: this.windows[exceeded.index]!.name };
  }

  clear(): void {
    this.counts.clear();
  }
}
