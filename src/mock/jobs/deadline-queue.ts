// Deadlines that come mostly in the order they are set (a job's ttl counted from its submission, its result
// retention from its end), kept as a FIFO with one clock timer instead of a timer per job: under a /run flood a
// timer, its handle and a map entry per stored job were a fifth of the job's heap and of its GC work.
import type { Clock, TimerHandle } from '../clock.js';

/** Stale entries (their item's deadline no longer matters) are dropped in bulk past this many. */
const STALE_BEFORE_COMPACTING = 1024;

export class DeadlineQueue<T> {
  private items: (T | undefined)[] = [];
  /** Each item's deadline (epoch ms); a plain array of numbers holds them unboxed, no object per entry. */
  private ats: number[] = [];
  private head = 0;
  private timer: TimerHandle | undefined;
  private stale = 0;

  constructor(
    private readonly clock: Clock,
    /** Called once the clock reaches `at`; it decides whether `item`'s deadline still holds. */
    private readonly due: (item: T, at: number) => void,
    /** Whether an entry still matters: the others are dropped when `forget()` says enough have gone stale. */
    private readonly isLive: (item: T, at: number) => boolean = () => true,
  ) {}

  /** An earlier deadline than the last one queued (a custom ttl, a clock set back) gets a clock timer of its own. */
  add(item: T, at: number): void {
    if (this.head < this.ats.length && at < this.ats[this.ats.length - 1]!) {
      this.clock.at(at, () => this.due(item, at));
      return;
    }
    this.items.push(item);
    this.ats.push(at);
    if (!this.timer) this.arm();
  }

  /** One queued item's deadline stopped mattering (it ended or was deleted): stale entries go in bulk, so memory stays bounded. */
  forget(): void {
    if (++this.stale > STALE_BEFORE_COMPACTING && this.stale * 2 > this.items.length - this.head) this.compact();
  }

  get size(): number {
    return this.items.length - this.head;
  }

  clear(): void {
    this.clock.cancel(this.timer);
    this.timer = undefined;
    this.items = [];
    this.ats = [];
    this.head = 0;
    this.stale = 0;
  }

  private compact(): void {
    const items: (T | undefined)[] = [];
    const ats: number[] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i]!;
      if (this.isLive(item, this.ats[i]!)) {
        items.push(item);
        ats.push(this.ats[i]!);
      }
    }
    this.items = items;
    this.ats = ats;
    this.head = 0;
    this.stale = 0;
    // The head may have changed: the timer follows it.
    this.clock.cancel(this.timer);
    this.arm();
  }

  private arm(): void {
    if (this.head === this.items.length) {
      this.items = [];
      this.ats = [];
      this.head = 0;
      this.timer = undefined;
      return;
    }
    this.timer = this.clock.at(this.ats[this.head]!, this.fire);
  }

  private readonly fire = (): void => {
    // An item's `due` may add, forget or compact (which arms a timer of its own); this one has fired.
    this.timer = undefined;
    const now = this.clock.now();
    while (this.head < this.items.length && this.ats[this.head]! <= now) {
      const item = this.items[this.head]!;
      const at = this.ats[this.head]!;
      this.items[this.head++] = undefined;
      this.due(item, at);
    }
    if (this.head > STALE_BEFORE_COMPACTING && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.ats = this.ats.slice(this.head);
      this.head = 0;
    }
    if (!this.timer) this.arm();
  };
}
