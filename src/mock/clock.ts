// Virtual or real clock with one timer queue. Every mock timer (ttl, execution timeout, retention,
// webhook retries, idle scale-down) goes through here so a virtual clock moves them all together.

export type ClockMode = 'real' | 'virtual';

export interface TimerHandle {
  readonly at: number;
  cancelled: boolean;
}

interface Timer extends TimerHandle {
  readonly seq: number;
  readonly run: (arg: unknown) => void;
  /** Passed to `run`: a caller with many timers keeps one function, not a closure per timer. */
  readonly arg: unknown;
}

export interface Clock {
  readonly mode: ClockMode;
  now(): number;
  /** Runs `run` once the clock reaches `at` (epoch ms); with `arg`, as `run(arg)`. */
  at(at: number, run: () => void): TimerHandle;
  at<T>(at: number, run: (arg: T) => void, arg: T): TimerHandle;
  after(ms: number, run: () => void): TimerHandle;
  cancel(handle: TimerHandle | undefined): void;
  /** Virtual mode only: moves time forward by `ms`, firing due timers in order. */
  advance(ms: number): number;
  /** Virtual mode only: jumps to an absolute time (never backwards). */
  set(now: number): void;
  pendingTimers(): number;
  /** When the next live timer is due (epoch ms); undefined when none is pending. */
  nextTimerAt(): number | undefined;
  stop(): void;
}

/** Binary min-heap ordered by (at, seq) so equal times fire in scheduling order. */
class TimerHeap {
  private readonly items: Timer[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Timer | undefined {
    return this.items[0];
  }
  push(timer: Timer): void {
    const items = this.items;
    items.push(timer);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }
  /** Drops cancelled timers and restores the heap order (bounded memory for cancelled timers). */
  compact(): void {
    const kept = this.items.filter((t) => !t.cancelled);
    this.items.length = 0;
    for (const t of kept) this.push(t);
  }
  pop(): Timer | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && less(items[l]!, items[m]!)) m = l;
        if (r < items.length && less(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
}

function less(a: Timer, b: Timer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export function createClock(mode: ClockMode, start = Date.now()): Clock {
  const heap = new TimerHeap();
  let seq = 0;
  let virtualNow = start;
  let wake: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  let stopped = false;
  let live = 0;
  let flushScheduled = false;
  let cancelledInHeap = 0;

  /** Virtual mode: timers due at the current instant run right after the current task, without moving time. */
  function scheduleFlush(): void {
    if (flushScheduled || stopped) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      if (!stopped) fireDue(virtualNow);
    });
  }

  const now = mode === 'virtual' ? () => virtualNow : () => Date.now();

  function fireDue(limit: number): void {
    for (;;) {
      const top = heap.peek();
      if (!top || top.at > limit) return;
      heap.pop();
      if (top.cancelled) {
        cancelledInHeap--;
        continue;
      }
      top.cancelled = true;
      live--;
      if (mode === 'virtual' && top.at > virtualNow) virtualNow = top.at;
      try {
        top.run(top.arg);
      } catch (error) {
        // A failing timer must not stop the others; surface it without crashing the server.
        console.error('[mock] timer failed:', error);
      }
    }
  }

  function dropCancelledTop(): void {
    while (heap.peek()?.cancelled) {
      heap.pop();
      cancelledInHeap--;
    }
  }

  function armRealTimer(): void {
    if (mode !== 'real' || stopped) return;
    dropCancelledTop();
    const top = heap.peek();
    const next = top ? top.at : Infinity;
    if (next === wakeAt) return;
    if (wake) clearTimeout(wake);
    wake = undefined;
    wakeAt = next;
    if (next === Infinity) return;
    const delay = Math.min(Math.max(0, next - Date.now()), 2 ** 31 - 1);
    wake = setTimeout(() => {
      wake = undefined;
      wakeAt = Infinity;
      fireDue(Date.now());
      armRealTimer();
    }, delay);
    wake.unref();
  }

  const clock: Clock = {
    mode,
    now,
    at(at: number, run: (arg: never) => void, arg?: unknown) {
      const timer: Timer = { at, run: run as (arg: unknown) => void, arg, seq: seq++, cancelled: false };
      heap.push(timer);
      live++;
      if (mode === 'real' && at < wakeAt) armRealTimer();
      else if (mode === 'virtual' && at <= virtualNow) scheduleFlush();
      return timer;
    },
    after(ms, run) {
      return clock.at(now() + ms, run);
    },
    cancel(handle) {
      if (handle && !handle.cancelled) {
        handle.cancelled = true;
        live--;
        cancelledInHeap++;
        if (cancelledInHeap > 1024 && cancelledInHeap * 2 >= heap.size) {
          heap.compact();
          cancelledInHeap = 0;
        }
      }
    },
    advance(ms) {
      if (mode !== 'virtual') throw new Error('advance() needs the virtual clock');
      if (!Number.isFinite(ms) || ms < 0) throw new Error('ms must be a non-negative number');
      const target = virtualNow + ms;
      fireDue(target);
      virtualNow = target;
      return virtualNow;
    },
    set(target) {
      if (mode !== 'virtual') throw new Error('set() needs the virtual clock');
      if (target > virtualNow) clock.advance(target - virtualNow);
    },
    pendingTimers: () => live,
    nextTimerAt() {
      dropCancelledTop();
      return heap.peek()?.at;
    },
    stop() {
      stopped = true;
      if (wake) clearTimeout(wake);
    },
  };
  return clock;
}
