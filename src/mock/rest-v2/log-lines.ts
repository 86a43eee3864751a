// One simulated log (of a pod or a serverless worker) on the mock clock: system lines at lifecycle
// events and at the scheduled steps of a boot, then one container line per simulated second while
// the container runs. Lines are produced lazily, only up to the time asked for, and each source keeps
// at most LOG_RETENTION_LINES: a long unobserved run costs no more than that bound.
//
// Every line gets a timestamp strictly greater than the line before it (both sources together), so
// the timestamp is a unique, increasing event id: resuming "after id X" repeats and skips nothing.

/** Lines kept per source (container, system): the spec's largest `tail`. */
export const LOG_RETENTION_LINES = 5000;
/** One container line per simulated second. */
export const CONTAINER_LINE_INTERVAL_MS = 1000;

export type LogSourceName = 'container' | 'system';

export interface LogLine {
  ts: number;
  source: LogSourceName;
  line: string;
}

/** Which lines to read: after an event id (exclusive), from an instant (inclusive), or the last N. */
export type LogCursor = { after: number } | { since: number } | { tail: number };

/**
 * Bounded, time-ordered lines of one source; old lines fall off the front. Container lines are kept as
 * their number (text made on read), so a full ring of them is two packed number arrays (~80 KiB).
 */
class LineRing<T extends string | number> {
  private readonly ts: number[] = [];
  private readonly items: T[] = [];
  private head = 0;

  constructor(private readonly render: (item: T) => string) {}

  get size(): number {
    return this.ts.length - this.head;
  }

  push(ts: number, item: T): void {
    this.ts.push(ts);
    this.items.push(item);
    if (this.size > LOG_RETENTION_LINES) this.head++;
    // Compact once the dropped prefix is as long as the kept part: amortised O(1) per line.
    if (this.head >= LOG_RETENTION_LINES) {
      this.ts.splice(0, this.head);
      this.items.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Index (into the kept lines) of the first line with ts ≥ at (binary search). */
  firstAtOrAfter(at: number): number {
    let lo = this.head;
    let hi = this.ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ts[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  slice(from: number, source: LogSourceName, upTo: number): LogLine[] {
    const out: LogLine[] = [];
    for (let i = this.head + Math.max(0, from); i < this.ts.length && this.ts[i]! <= upTo; i++) {
      out.push({ ts: this.ts[i]!, source, line: this.render(this.items[i]!) });
    }
    return out;
  }
}

/** A scheduled system line, relative to the start of its period. */
export interface BootStep {
  afterMs: number;
  text: string;
}

interface Period {
  /** Absolute times of the boot steps still to write. */
  steps: { at: number; text: string }[];
  /** Container lines start one interval after this instant. */
  runningAt: number;
  /** Next container line number (1-based, counted from runningAt). */
  nextLine: number;
}

export class SimulatedLog {
  /** Simulated lines are kept as their number; a worker process's own output as its text. */
  private readonly container: LineRing<number | string>;
  private readonly system = new LineRing<string>((text) => text);
  private period: Period | undefined;
  /** Timestamp of the newest line of either source. */
  lastTs = Number.NEGATIVE_INFINITY;
  /** Open streams waiting for new lines (SSE follow). */
  readonly listeners = new Set<() => void>();

  constructor(containerLine: (n: number) => string) {
    this.container = new LineRing<number | string>((item) => (typeof item === 'string' ? item : containerLine(item)));
  }

  /** The next timestamp at or after `at`: whole milliseconds (the event id is an ISO timestamp), above the last line's. */
  private stamp(at: number): number {
    this.lastTs = Math.max(Math.floor(at), this.lastTs + 1);
    return this.lastTs;
  }

  private appendSystem(at: number, text: string): void {
    this.system.push(this.stamp(at), text);
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Writes the lines due up to `now`: boot steps, then container lines (at most the retention bound). */
  advance(now: number): void {
    const p = this.period;
    if (!p) return;
    while (p.steps.length > 0 && p.steps[0]!.at <= now) {
      const step = p.steps.shift()!;
      this.appendSystem(step.at, step.text);
    }
    const last = Math.floor((now - p.runningAt) / CONTAINER_LINE_INTERVAL_MS);
    if (last < p.nextLine) return;
    // Lines older than the retention bound would be dropped at once: skip them, keep their numbers.
    for (let n = Math.max(p.nextLine, last - LOG_RETENTION_LINES + 1); n <= last; n++) {
      this.container.push(this.stamp(p.runningAt + n * CONTAINER_LINE_INTERVAL_MS), n);
    }
    p.nextLine = last + 1;
  }

  /** When the next line falls due without any event (undefined: none until an event). */
  nextDueAt(): number | undefined {
    const p = this.period;
    if (!p) return undefined;
    return p.steps[0]?.at ?? p.runningAt + p.nextLine * CONTAINER_LINE_INTERVAL_MS;
  }

  /** A (re)start at `at`: ends a running period, writes `text`, schedules `steps`, runs after `bootMs`. */
  begin(at: number, text: string, steps: readonly BootStep[], bootMs: number): void {
    this.advance(at);
    this.appendSystem(at, text);
    this.period = { steps: steps.map((s) => ({ at: at + s.afterMs, text: s.text })), runningAt: at + bootMs, nextLine: 1 };
    this.notify();
  }

  /** The container stops (or the pod goes away) at `at`. */
  end(at: number, text: string): void {
    this.advance(at);
    this.period = undefined;
    this.appendSystem(at, text);
    this.notify();
  }

  /** A line a worker process wrote (stdout or stderr): a container line with its own text. */
  output(at: number, text: string): void {
    this.container.push(this.stamp(at), text);
    this.notify();
  }

  /** A system line that changes nothing else (e.g. settings updated). */
  note(at: number, text: string): void {
    this.advance(at);
    this.appendSystem(at, text);
    this.notify();
  }

  /** Lines of `source` (both when undefined) at the cursor, oldest first, none later than `upTo`. */
  read(source: LogSourceName | undefined, cursor: LogCursor, upTo = Number.POSITIVE_INFINITY): LogLine[] {
    const sources: LogSourceName[] = source ? [source] : ['system', 'container'];
    const parts = sources.map((s) => {
      const ring: LineRing<string> | LineRing<number | string> = s === 'system' ? this.system : this.container;
      const from = 'after' in cursor ? ring.firstAtOrAfter(cursor.after + 1) : 'since' in cursor ? ring.firstAtOrAfter(cursor.since) : 0;
      const lines = ring.slice(from, s, upTo);
      return 'tail' in cursor ? lines.slice(Math.max(0, lines.length - cursor.tail)) : lines;
    });
    const merged = parts.length === 1 ? parts[0]! : mergeByTs(parts[0]!, parts[1]!);
    return 'tail' in cursor ? merged.slice(Math.max(0, merged.length - cursor.tail)) : merged;
  }
}

function mergeByTs(a: LogLine[], b: LogLine[]): LogLine[] {
  const out: LogLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.ts < b[j]!.ts)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
