// A Map that reports its changes to the --state journal, so persistence is recorded where state lives
// (one place) rather than in every handler: set/delete/clear of any surface, including operations added
// later, are journaled without the handler knowing. Changes made in place on a stored record are
// reported with touch(id); as a safety net, a record read with get() while a state-changing request is
// in flight is journaled too (readsMayChange), so an in-place edit after get() in a handler is not lost.

/** Where changes go (the journal); absent when the mock runs without --state. */
export interface ChangeSink {
  /** The entity `id` of `kind` changed; its value is read when the batch is written. */
  changed(kind: string, id: string): void;
  /** Every entity of `kind` was removed. */
  cleared(kind: string): void;
  /** True while a state-changing request is being answered. */
  readonly readsMayChange: boolean;
}

/** Which account owns each id (src/mock/accounts.ts): kept by every map of an account's store. */
export interface OwnerDirectory {
  owners: Map<string, string>;
  account: string;
}

export class TrackedMap<V> extends Map<string, V> {
  sink: ChangeSink | undefined;

  constructor(
    readonly kind: string,
    /** Journal records read by get() during state-changing requests (see the file comment). */
    private readonly trackReads: boolean,
    private readonly directory?: OwnerDirectory,
  ) {
    super();
  }

  override set(key: string, value: V): this {
    super.set(key, value);
    this.directory?.owners.set(key, this.directory.account);
    this.sink?.changed(this.kind, key);
    return this;
  }

  override delete(key: string): boolean {
    const had = super.delete(key);
    if (had) {
      if (this.directory && this.directory.owners.get(key) === this.directory.account) this.directory.owners.delete(key);
      this.sink?.changed(this.kind, key);
    }
    return had;
  }

  override clear(): void {
    if (this.directory) for (const key of this.keys()) if (this.directory.owners.get(key) === this.directory.account) this.directory.owners.delete(key);
    super.clear();
    this.sink?.cleared(this.kind);
  }

  override get(key: string): V | undefined {
    const value = super.get(key);
    if (value !== undefined && this.trackReads && this.sink?.readsMayChange) this.sink.changed(this.kind, key);
    return value;
  }

  /** Reads without counting as a possible change (the journal reading what to write). */
  peek(key: string): V | undefined {
    return super.get(key);
  }

  /** The stored record `key` was changed in place. */
  touch(key: string): void {
    this.sink?.changed(this.kind, key);
  }
}
