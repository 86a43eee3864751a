// The --state journal: changed entities are appended as one record per flush and fdatasync'ed before any
// answer that shows them is sent (barrier). Group commit: one write is in flight at a time; everything
// changed meanwhile goes into the next record, so concurrent requests share one fdatasync. When the
// appended records outgrow the last compacted file, the whole state is written to a new file that
// replaces the old one atomically (compaction), so disk use stays proportional to the state.
import { closeSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { MAX_UNSYNCED_RECORDS } from './framing.js';
import { cannot, freshRecords, StateFileError, syncDirectory, temporaryName, type Reuse } from './file.js';
import { batchRecord, Extents, type ChangeText, type Extent } from './records.js';
import type { ChangeSink } from './tracked-map.js';

/** Records waiting for their fdatasync at once (pipelining); the reader knows this bound. */
const MAX_IN_FLIGHT = MAX_UNSYNCED_RECORDS;
/**
 * Zero bytes written ahead of the records: an fdatasync of a write inside the file's size flushes data
 * only, while one that grows the file must also commit its size (measured 2.5 to 5 times slower here).
 */
const ALLOCATE_AHEAD_BYTES = 1024 * 1024;
const ZEROS = Buffer.alloc(64 * 1024);
/** Records up to this size are built in one reused buffer (written synchronously, so never shared). */
const SCRATCH_BYTES = 256 * 1024;
/** Longest a change nobody waits for stays in memory only. */
const LAZY_FLUSH_MS = 20;
/**
 * A compaction reads the file it replaces to copy unchanged entities' bytes, up to this size; a larger
 * file is compacted by serialising every entity (slower, but no buffer of that size).
 */
const MAX_REUSE_READ_BYTES = 1024 * 1024 * 1024;

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
  /** Releases the state file's lock once the journal is closed. */
  unlock?(): void;
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
  /** Zero bytes written ahead of the records (see ALLOCATE_AHEAD_BYTES). */
  allocatedBytes: number;
}

export class Journal implements ChangeSink {
  /** compactMinBytes when JournalOptions give none (tests lower it to compact often). */
  static defaultCompactMinBytes = 8 * 1024 * 1024;
  /**
   * Compaction also waits until the appended bytes reach this multiple of the compacted size
   * (amortisation). 4 instead of 2 halved the bytes compacted under the /run bench load but gained
   * only 2–6 % there, for a file up to 5× the state and a longer journal to replay after a kill.
   */
  static compactionGrowth = 2;
  private fd: number;
  /** Where the next record goes (end of the intact records). */
  private position: number;
  /** File size: zero bytes from `position` to here were allocated ahead. */
  private allocatedEnd: number;
  private dirty = new Map<string, Set<string>>();
  /** Where each entity's latest change lies in the file (compaction copies it from there). */
  private extents = new Extents();
  private readonly clearedKinds = new Set<string>();
  private dirtyIds = 0;
  /** Waiters for the record being collected. */
  private next: Deferred | undefined;
  /** Records written whose fdatasync has not returned yet, oldest first. */
  private readonly inFlight: Deferred[] = [];
  /** The compaction being written. */
  private compacting: Deferred | undefined;
  private scheduled = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private lastClock: number | undefined;
  private appendedSinceCompaction = 0;
  private compactedSize: number;
  /** See JournalOptions.compactMinBytes (may be changed while running). */
  compactMinBytes: number;
  private readonly warn: (line: string) => void;
  private readonly unlock: () => void;
  private readonly scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  private sources: JournalSources | undefined;
  /** Set once a write failed: from then on every answer is refused (the state on disk is behind memory). */
  failure: StateFileError | undefined;
  /** State-changing requests being answered (see TrackedMap). */
  mutatingRequests = 0;
  readonly stats: JournalStats = { flushes: 0, appendedBytes: 0, compactions: 0, compactedBytes: 0, allocatedBytes: 0 };

  constructor(readonly file: string, fileBytes: number, options: JournalOptions = {}) {
    this.compactMinBytes = options.compactMinBytes ?? Journal.defaultCompactMinBytes;
    this.warn = options.warn ?? ((line) => process.stderr.write(`${line}\n`));
    this.unlock = options.unlock ?? (() => {});
    this.compactedSize = fileBytes;
    try {
      this.fd = openSync(file, 'r+');
      this.allocatedEnd = fstatSync(this.fd).size;
    } catch (error) {
      throw cannot('write', file, error);
    }
    this.position = fileBytes;
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
    this.scheduleLazy();
  }

  cleared(kind: string): void {
    const ids = this.dirty.get(kind);
    if (ids) {
      this.dirtyIds -= ids.size;
      this.dirty.delete(kind);
    }
    this.clearedKinds.add(kind);
    this.scheduleLazy();
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
    return (this.inFlight.at(-1) ?? this.compacting)?.promise;
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
    clearTimeout(this.lazyTimer);
    if (!this.failure && this.appendedSinceCompaction > 0) {
      try {
        await this.compact();
      } catch (error) {
        this.warn(`[mock] ${cannot('write', this.file, error).message} (compaction at shutdown; the journal is intact)`);
      }
    }
    if (!this.failure && this.allocatedEnd > this.position) {
      // Hand back the space allocated ahead.
      try {
        ftruncateSync(this.fd, this.position);
        fdatasyncSync(this.fd);
      } catch {
        // Zeros at the end read as allocated space; nothing is lost by keeping them.
      }
    }
    closeSync(this.fd);
    this.unlock();
  }

  private pending(): boolean {
    if (this.dirtyIds > 0 || this.clearedKinds.size > 0) return true;
    return this.sources?.clockIsState === true && this.sources.clockNow() !== this.lastClock;
  }

  /**
   * A change nobody waits for yet (a job finishing in the background) is written within LAZY_FLUSH_MS,
   * or with the next answer that waits, whichever comes first: it then shares that answer's fsync
   * instead of taking one of its own.
   */
  private scheduleLazy(): void {
    if (this.lazyTimer || this.closed || !this.sources) return;
    this.lazyTimer = setTimeout(() => {
      this.lazyTimer = undefined;
      this.flush();
    }, LAZY_FLUSH_MS);
    this.lazyTimer.unref();
  }

  private schedule(): void {
    if (this.scheduled || this.closed || !this.sources) return;
    this.scheduled = true;
    // The next turn of the event loop: every change made in this turn goes into one record.
    setImmediate(() => this.flush());
  }

  /**
   * Appends the pending changes as one record and starts its fdatasync. Up to MAX_IN_FLIGHT records
   * may wait for their fdatasync at once: a request never waits for a flush that started before its
   * change was made, only for its own (group commit, pipelined).
   */
  private flush(): void {
    this.scheduled = false;
    if (this.failure || this.compacting || !this.pending() || this.inFlight.length >= MAX_IN_FLIGHT) return;
    if (this.appendedSinceCompaction > Math.max(this.compactMinBytes, Journal.compactionGrowth * this.compactedSize)) {
      // Compaction swaps the file: only once no record is in flight (their completion reschedules).
      if (this.inFlight.length === 0) void this.runCompaction();
      return;
    }
    const done = this.next ?? deferred();
    this.next = undefined;
    let record: Buffer;
    try {
      record = this.takeBatch();
    } catch (error) {
      this.fail(error, [done]);
      return;
    }
    try {
      this.write(record);
    } catch (error) {
      this.fail(error, [done]);
      return;
    }
    const bytes = record.length;
    this.inFlight.push(done);
    fdatasync(this.fd, (error) => {
      if (error) return this.fail(error, []);
      // On disk: this record and every record written before it.
      for (const flushed of this.inFlight.splice(0, this.inFlight.indexOf(done) + 1)) flushed.resolve();
      this.appendedSinceCompaction += bytes;
      this.stats.flushes++;
      this.stats.appendedBytes += bytes;
      if (this.next) this.schedule();
      else if (this.pending()) this.scheduleLazy();
    });
  }

  /** Writes a record at `position`, allocating ahead when it would grow the file. */
  private write(record: Buffer): void {
    const end = this.position + record.length;
    if (end > this.allocatedEnd) this.allocateAhead(end + ALLOCATE_AHEAD_BYTES);
    let written = 0;
    while (written < record.length) written += writeSync(this.fd, record, written, record.length - written, this.position + written);
    this.position = end;
  }

  private allocateAhead(target: number): void {
    try {
      while (this.allocatedEnd < target) {
        const zeros = writeSync(this.fd, ZEROS, 0, Math.min(ZEROS.length, target - this.allocatedEnd), this.allocatedEnd);
        this.allocatedEnd += zeros;
        this.stats.allocatedBytes += zeros;
      }
    } catch {
      // A nearly full disk: write the record without room ahead; if that fails too, it is the failure.
    }
  }

  private async runCompaction(): Promise<void> {
    const done = this.next ?? deferred();
    this.next = undefined;
    this.compacting = done;
    try {
      await this.compact();
      done.resolve();
    } catch (error) {
      this.fail(error, [done]);
    } finally {
      this.compacting = undefined;
    }
    if (this.next) this.schedule();
    else if (this.pending()) this.scheduleLazy();
  }

  /** The pending changes as one record; values are read (serialised) now. */
  private takeBatch(): Buffer {
    const sources = this.sources!;
    const changes: ChangeText[] = [];
    const puts: [kind: string, id: string, index: number][] = [];
    for (const kind of this.clearedKinds) {
      changes.push(JSON.stringify([kind]));
      this.extents.clearKind(kind);
    }
    for (const [kind, ids] of this.dirty) {
      for (const id of ids) {
        const value = sources.peek(kind, id);
        if (value === undefined) {
          changes.push(JSON.stringify([kind, id]));
          this.extents.delete(kind, id);
        } else {
          puts.push([kind, id, changes.length]);
          changes.push(JSON.stringify([kind, id, value]));
        }
      }
    }
    const clock = this.lastClock!;
    this.resetPending();
    const where: Extent[] = [];
    const record = batchRecord(clock, changes, this.position, where, this.scratch);
    for (const [kind, id, index] of puts) this.extents.set(kind, id, where[index]!);
    return record;
  }

  private resetPending(): void {
    this.dirty = new Map();
    this.clearedKinds.clear();
    this.dirtyIds = 0;
    this.lastClock = this.sources!.clockNow();
  }

  /** Writes the whole state to a new file and swaps it in; it holds every pending change too. */
  private async compact(): Promise<void> {
    const sources = this.sources!;
    const changed = this.dirty;
    this.resetPending();
    const fresh = freshRecords(sources.entries(), this.lastClock, this.reuse(changed));
    const records = fresh.records;
    let size = 0;
    for (const record of records) size += record.length;
    const tmp = temporaryName(this.file);
    try {
      const handle = await open(tmp, 'w');
      try {
        // Written as the list of records (writev), not concatenated: no second copy of a state of tens of MB.
        const { bytesWritten } = await handle.writev(records);
        if (bytesWritten !== size) throw new Error(`short write (${bytesWritten} of ${size} bytes)`);
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
    this.fd = openSync(this.file, 'r+');
    this.extents = fresh.extents;
    this.position = this.allocatedEnd = size;
    this.compactedSize = size;
    this.appendedSinceCompaction = 0;
    this.stats.compactions++;
    this.stats.compactedBytes += size;
  }

  /**
   * The bytes of an entity not changed since it was last written, read from the current file (which
   * holds its latest change at its extent); undefined for changed ones and when the file is too large.
   */
  private reuse(changed: ReadonlyMap<string, ReadonlySet<string>>): Reuse | undefined {
    if (this.position > MAX_REUSE_READ_BYTES) return undefined;
    const file = Buffer.allocUnsafe(this.position);
    for (let read = 0; read < file.length; ) {
      const n = readSync(this.fd, file, read, file.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    return (kind, id) => {
      if (changed.get(kind)?.has(id)) return undefined;
      const extent = this.extents.get(kind, id);
      return extent && file.subarray(extent.at, extent.at + extent.length);
    };
  }

  /** Every waiter (those given, those in flight, the next record's) gets the error; later answers too. */
  private fail(error: unknown, waiting: Deferred[]): void {
    if (!this.failure) {
      const reason = cannot('write', this.file, error).message;
      this.failure = new StateFileError(`${reason}; the change was not kept, and the mock refuses every request until it is restarted`);
      this.warn(`[mock] ${this.failure.message}`);
    }
    for (const w of [...waiting, ...this.inFlight.splice(0), ...(this.next ? [this.next] : [])]) w.reject(this.failure);
    this.next = undefined;
  }
}
