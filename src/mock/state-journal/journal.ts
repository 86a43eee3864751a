// The --state journal: changed entities are appended as one record per flush and fdatasync'ed before any
// answer that shows them is sent (barrier). Group commit: one write is in flight at a time; everything
// changed meanwhile goes into the next record, so concurrent requests share one fdatasync. When the
// appended records outgrow the last compacted file, the whole state is written to a new file that
// replaces the old one atomically (compaction), so disk use stays proportional to the state.
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { frame } from './framing.js';
import { cannot, freshRecords, StateFileError, syncDirectory, temporaryName, type BatchRecord, type Change } from './file.js';
import type { ChangeSink } from './tracked-map.js';

const fdatasyncAsync = promisify(fdatasync);

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
  /** Compaction once appended bytes exceed max(this, 2 × the last compacted size). Default 8 MiB. */
  compactMinBytes?: number;
  /** One line about a failure (stderr by default). */
  warn?(line: string): void;
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
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
}

export class Journal implements ChangeSink {
  private fd: number;
  private readonly dirty = new Map<string, Set<string>>();
  private readonly clearedKinds = new Set<string>();
  private dirtyIds = 0;
  /** Waiters for the record being collected. */
  private next: Deferred | undefined;
  /** The record being written. */
  private writing: Deferred | undefined;
  private scheduled = false;
  private draining = false;
  private closed = false;
  private lastClock: number | undefined;
  private appendedSinceCompaction = 0;
  private compactedSize: number;
  /** See JournalOptions.compactMinBytes (may be changed while running). */
  compactMinBytes: number;
  private readonly warn: (line: string) => void;
  private sources: JournalSources | undefined;
  /** Set once a write failed: from then on every answer is refused (the state on disk is behind memory). */
  failure: StateFileError | undefined;
  /** State-changing requests being answered (see TrackedMap). */
  mutatingRequests = 0;
  readonly stats: JournalStats = { flushes: 0, appendedBytes: 0, compactions: 0, compactedBytes: 0 };

  constructor(readonly file: string, fileBytes: number, options: JournalOptions = {}) {
    this.compactMinBytes = options.compactMinBytes ?? 8 * 1024 * 1024;
    this.warn = options.warn ?? ((line) => process.stderr.write(`${line}\n`));
    this.compactedSize = fileBytes;
    try {
      this.fd = openSync(file, 'a');
    } catch (error) {
      throw cannot('write', file, error);
    }
  }

  /** Starts journaling; `clock` is the clock value the file already holds. */
  attach(sources: JournalSources, clock: number | undefined): void {
    this.sources = sources;
    this.lastClock = clock ?? sources.clockNow();
  }

  get readsMayChange(): boolean {
    return this.mutatingRequests > 0;
  }

  changed(kind: string, id: string): void {
    let ids = this.dirty.get(kind);
    if (!ids) this.dirty.set(kind, (ids = new Set()));
    if (!ids.has(id)) {
      ids.add(id);
      this.dirtyIds++;
    }
    this.schedule();
  }

  cleared(kind: string): void {
    const ids = this.dirty.get(kind);
    if (ids) {
      this.dirtyIds -= ids.size;
      this.dirty.delete(kind);
    }
    this.clearedKinds.add(kind);
    this.schedule();
  }

  /**
   * What an answer must wait for: undefined when everything it can show is on disk already, else a
   * promise resolved once it is (rejected with the StateFileError if it cannot be).
   */
  barrier(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending()) {
      this.next ??= deferred();
      this.schedule();
      return this.next.promise;
    }
    return this.writing?.promise;
  }

  /** Writes what is pending, compacts if anything was appended since opening, closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    while (!this.failure) {
      const wait = this.barrier();
      if (!wait) break;
      await wait.catch(() => {});
    }
    this.closed = true;
    if (!this.failure && this.appendedSinceCompaction > 0) {
      try {
        await this.compact();
      } catch (error) {
        this.warn(`[mock] ${cannot('write', this.file, error).message} (compaction at shutdown; the journal is intact)`);
      }
    }
    closeSync(this.fd);
  }

  private pending(): boolean {
    if (this.dirtyIds > 0 || this.clearedKinds.size > 0) return true;
    return this.sources?.clockIsState === true && this.sources.clockNow() !== this.lastClock;
  }

  private schedule(): void {
    if (this.scheduled || this.draining || this.closed || !this.sources) return;
    this.scheduled = true;
    // The next turn of the event loop: every change made in this turn goes into one record.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    if (this.draining || this.closed) return;
    this.draining = true;
    try {
      while (!this.failure && this.pending()) {
        const done = this.next ?? deferred();
        this.next = undefined;
        this.writing = done;
        try {
          if (this.appendedSinceCompaction > Math.max(this.compactMinBytes, 2 * this.compactedSize)) await this.compact();
          else await this.append(this.takeBatch());
          done.resolve();
        } catch (error) {
          this.fail(error);
          done.reject(this.failure!);
        } finally {
          this.writing = undefined;
        }
      }
    } finally {
      this.draining = false;
    }
    if (this.failure && this.next) {
      this.next.reject(this.failure);
      this.next = undefined;
    }
  }

  /** The pending changes as one record; values are read (serialised) now. */
  private takeBatch(): Buffer {
    const sources = this.sources!;
    const changes: Change[] = [];
    for (const kind of this.clearedKinds) changes.push([kind]);
    for (const [kind, ids] of this.dirty) {
      for (const id of ids) {
        const value = sources.peek(kind, id);
        changes.push(value === undefined ? [kind, id] : [kind, id, value]);
      }
    }
    this.resetPending();
    return frame({ c: this.lastClock!, ch: changes } satisfies BatchRecord);
  }

  private resetPending(): void {
    this.dirty.clear();
    this.clearedKinds.clear();
    this.dirtyIds = 0;
    this.lastClock = this.sources!.clockNow();
  }

  private async append(record: Buffer): Promise<void> {
    let done = 0;
    while (done < record.length) done += writeSync(this.fd, record, done);
    await fdatasyncAsync(this.fd);
    this.appendedSinceCompaction += record.length;
    this.stats.flushes++;
    this.stats.appendedBytes += record.length;
  }

  /** Writes the whole state to a new file and swaps it in; it holds every pending change too. */
  private async compact(): Promise<void> {
    const sources = this.sources!;
    this.resetPending();
    const data = Buffer.concat(freshRecords(sources.entries(), this.lastClock));
    const tmp = temporaryName(this.file);
    try {
      const handle = await open(tmp, 'w');
      try {
        await handle.writeFile(data);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.file);
      syncDirectory(this.file);
    } catch (error) {
      await unlink(tmp).catch(() => {});
      throw error;
    }
    closeSync(this.fd);
    this.fd = openSync(this.file, 'a');
    this.compactedSize = data.length;
    this.appendedSinceCompaction = 0;
    this.stats.compactions++;
    this.stats.compactedBytes += data.length;
  }

  private fail(error: unknown): void {
    const reason = cannot('write', this.file, error).message;
    this.failure = new StateFileError(`${reason}; the change was not kept, and the mock refuses every request until it is restarted`);
    this.warn(`[mock] ${this.failure.message}`);
  }
}
