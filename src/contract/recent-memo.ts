// A memo of the most recently used keys, bounded by count (the least recently used is dropped first): the
// shape of the per-text memos on the GraphQL hot paths (validation, operation limits, the answer check), where
// clients send the same few documents again and again. Callers bound what they key by (text length).

export class RecentMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value remembered for `key`, else `make()`'s, remembered; either way now the most recently used. */
  get(key: K, make: () => V): V {
    let value = this.entries.get(key);
    if (value !== undefined || this.entries.has(key)) {
      this.entries.delete(key); // set again below: the most recently used come last
    } else {
      value = make();
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as K);
    }
    this.entries.set(key, value as V);
    return value as V;
  }
}
