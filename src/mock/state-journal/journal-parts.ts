// The journal's interfaces to the mock (what it reads, its options and figures) and its one promise helper.

/** What the journal reads when it writes. */
export interface JournalSources {
  /** Current value of an entity; undefined when it no longer exists. */
  peek(kind: string, id: string): unknown;
  /** Every stored entity (a compacted file). */
  entries(): Iterable<[string, string, unknown]>;
  clockNow(): number;
  /** A virtual clock is state: moving it alone is a change to keep. */
  readonly clockIsState: boolean;
}

export interface JournalOptions {
  /** Compaction once the file's dead bytes exceed max(this, the live bytes). Default 8 MiB. */
  compactMinBytes?: number;
  /** One line about a failure (stderr by default). */
  warn?(line: string): void;
  /** Releases the state file's lock once the journal is closed. */
  unlock?(): void;
}

export interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  // A batch nobody waits for must not become an unhandled rejection.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

export interface JournalStats {
  /** Records appended (one per flush). */
  flushes: number;
  /** Bytes appended, and written by compactions. */
  appendedBytes: number;
  compactions: number;
  compactedBytes: number;
  /** Zero bytes written ahead of the records (room-ahead.ts). */
  allocatedBytes: number;
}
