// Judging off the forwarding path: the proxy hands each finished exchange to this queue and judges it
// on a later turn of the event loop (setImmediate, after pending I/O), so the answer's bytes — corked until
// the end of the current tick — leave before any judging runs. The queue is bounded in exchanges and in
// captured bytes; past either bound the pending exchanges are judged at once (deferral stops, no judgement is dropped).

/** Exchanges waiting to be judged at most. */
export const MAX_PENDING_EXCHANGES = 1024;
/** Captured body bytes held by waiting exchanges at most (each exchange keeps up to 1 MiB per body). */
export const MAX_PENDING_BYTES = 64 * 1024 * 1024;

export class JudgeQueue<T> {
  private items: T[] = [];
  private bytes = 0;
  private scheduled = false;

  constructor(
    private readonly judge: (item: T) => void,
    private readonly bytesOf: (item: T) => number,
  ) {}

  get pending(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    this.bytes += this.bytesOf(item);
    if (this.items.length >= MAX_PENDING_EXCHANGES || this.bytes >= MAX_PENDING_BYTES) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  /** Judges every waiting exchange now, in arrival order (before a report is read, and on close). */
  flush(): void {
    while (this.items.length > 0) {
      const items = this.items;
      this.items = [];
      this.bytes = 0;
      for (const item of items) this.judge(item);
    }
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    this.flush();
  };
}
