// The --state journal: changed entities are appended as one record per flush and fdatasync'ed before any
// answer that shows them is sent (barrier). Group commit: everything changed while records wait for
// their fdatasync goes into the next record, so concurrent requests share one fdatasync. When the
// appended records outgrow the last compacted file, the whole state is written to a new file that
// replaces the old one atomically (compaction.ts, in the background), so disk use stays proportional
// to the state.
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync } from 'node:fs';
import { journalFs } from './fs-ops.js';
import { BackgroundCompaction, closeQuietly, reuseFromFile, type Swapped } from './compaction.js';
import { MAX_UNSYNCED_RECORDS } from './framing.js';
import { deferred, type Deferred, type JournalOptions, type JournalSources, type JournalStats } from './journal-parts.js';
import { IDLE_MS, idleRoomFor, RoomAhead } from './room-ahead.js';
import { cannot, StateFileError } from './file.js';
import { Extents } from './records.js';
import { changeBatch } from './batch.js';
import type { ChangeSink } from './tracked-map.js';
import { cutBackAndUndo, undoChanges, unkeptChange, unsyncedChanges, type Revert } from './unkept.js';
import { PendingChanges } from './pending-changes.js';

/** Records waiting for their fdatasync at once (pipelining); the reader knows this bound. */
const MAX_IN_FLIGHT = MAX_UNSYNCED_RECORDS;
/** Records up to this size are built in one reused buffer (written synchronously, so never shared). */
const SCRATCH_BYTES = 256 * 1024;
/** Longest a change nobody waits for stays in memory only. */
const LAZY_FLUSH_MS = 20;
/** After a refused write, changes nobody waits for are retried this long after (doubling up to the max). */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** A record written and not yet known to be on disk: who waits for it, where it ends, what it changed. */
interface UnsyncedRecord {
  done: Deferred;
  end: number;
  ids: ReadonlyMap<string, ReadonlySet<string>>;
  clears: ReadonlySet<string>;
}

export type { JournalOptions, JournalSources, JournalStats };

export class Journal implements ChangeSink {
  /** compactMinBytes when JournalOptions give none (tests lower it to compact often). */
  static defaultCompactMinBytes = 8 * 1024 * 1024;
  /**
   * Compaction waits until the file's dead bytes (values since overwritten or deleted) exceed this
   * multiple of its live bytes: the file stays below (1 + this) × the state, plus compactMinBytes, and
   * a growing state without overwrites is never rewritten for nothing (it was, every 2× growth, before).
   */
  static deadBytesPerLiveByte = 1;
  /** Until the first compaction, restored entities have no known extent: compact by growth instead. */
  static compactionGrowth = 2;
  private fd: number;
  /** Where the next record goes (end of the intact records). */
  private position: number;
  /** Zero bytes from `position` to the file's size, written ahead of the records. */
  private room: RoomAhead;
  private idleTimer: NodeJS.Timeout | undefined;
  /** When the last record was written (room is prepared once the journal has been idle a moment). */
  private lastWriteAt = 0;
  private pending = new PendingChanges();
  /** Where each entity's latest change lies in the file (compaction copies it from there). */
  private extents = new Extents();
  /** Waiters for the record being collected. */
  private next: Deferred | undefined;
  /** Records written whose fdatasync has not returned yet, oldest first. */
  private readonly inFlight: UnsyncedRecord[] = [];
  /** End of the records known to be on disk: a refused change cuts the file back to it. */
  private durable: number;
  /** Bumped when unsynced records are refused: their fdatasync callbacks then change nothing. */
  private generation = 0;
  /** Undoing refused changes: the changes that makes are not changes to write. */
  private undoing = false;
  /** Since the last refused write, the wait before changes nobody waits for are tried again (0: none failed). */
  private retryMs = 0;
  private refusedSinceKept = 0;
  /** The compaction's snapshot holds a change later refused: it must not replace the file. */
  private compactionPoisoned = false;
  /** A failed compaction is not tried again before this (performance.now()). */
  private compactionRetryAt = 0;
  /** The compaction being written (the journal goes on appending meanwhile), and its end. */
  private compaction: BackgroundCompaction | undefined;
  private compactionDone: Promise<void> | undefined;
  /** Set while a compaction swaps the file in: no record may be written then. */
  private swapping = false;
  private scheduled = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private lastClock: number | undefined;
  private appendedSinceCompaction = 0;
  private compactedSize: number;
  /** Every stored entity has a known extent (false from a restart until the first compaction). */
  private extentsComplete = false;
  /** See JournalOptions.compactMinBytes (may be changed while running). */
  compactMinBytes: number;
  private readonly warn: (line: string) => void;
  private readonly unlock: () => void;
  private readonly scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  private sources: JournalSources | undefined;
  /**
   * Set only when a refused change could not be undone (the file could not be cut back or read): from then
   * on every answer is refused, as memory may be ahead of the disk.
   */
  failure: StateFileError | undefined;
  /** How a refused change is undone in the mock's memory (persistence.ts); without it, refusing is permanent. */
  revert: Revert | undefined;
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
      this.room = new RoomAhead(fstatSync(this.fd).size, this.stats);
    } catch (error) {
      throw cannot('write', file, error);
    }
    this.position = fileBytes;
    this.durable = fileBytes;
  }

  /**
   * Starts journaling; `clock` is the clock value the file already holds, `restored` whether it held
   * entities (their extents are unknown until the first compaction).
   */
  attach(sources: JournalSources, clock: number | undefined, restored = true): void {
    this.sources = sources;
    this.extentsComplete = !restored;
    this.lastClock = clock ?? sources.clockNow();
  }

  get readsMayChange(): boolean {
    return this.mutatingRequests > 0;
  }

  changed(kind: string, id: string): void {
    if (this.undoing) return;
    this.pending.changed(kind, id);
    this.scheduleLazy();
  }

  cleared(kind: string): void {
    if (this.undoing) return;
    this.pending.cleared(kind);
    this.scheduleLazy();
  }

  /**
   * What an answer must wait for: undefined when everything it can show is on disk already, else a
   * promise resolved once it is (rejected with the StateFileError if it cannot be).
   */
  barrier(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.hasPending()) {
      this.next ??= deferred();
      this.schedule();
      return this.next.promise;
    }
    return this.inFlight.at(-1)?.done.promise;
  }

  /** Writes what is pending, compacts if anything was appended since opening, closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    while (!this.failure) {
      const wait = this.barrier();
      if (!wait) break;
      // A write refused now stays refused: what could not be written is not waited for again.
      if (!(await wait.then(() => true, () => false))) break;
    }
    this.closed = true;
    clearTimeout(this.lazyTimer);
    await this.compactionDone;
    if (!this.failure && this.appendedSinceCompaction > 0) {
      const compaction = this.snapshot();
      try {
        await compaction.write();
        this.swapIn(compaction, await compaction.swap(this.fd, this.position, this.extents));
      } catch (error) {
        await compaction.abandon();
        this.warn(`[mock] ${cannot('write', this.file, error).message} (compaction at shutdown; the journal is intact)`);
      }
    }
    clearTimeout(this.idleTimer);
    if (!this.failure && this.room.end > this.position) {
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

  private hasPending(): boolean {
    if (this.pending.any) return true;
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
    }, this.retryMs || LAZY_FLUSH_MS);
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
    if (this.failure || this.swapping || !this.hasPending() || this.inFlight.length >= MAX_IN_FLIGHT) return;
    const done = this.next ?? deferred();
    this.next = undefined;
    let bytes: number;
    const { ids, clears } = this.pending;
    try {
      const record = this.takeBatch();
      this.write(record);
      bytes = record.length;
    } catch (error) {
      this.refuseUnsynced(error, { done, end: this.position, ids, clears });
      return;
    }
    const unsynced: UnsyncedRecord = { done, end: this.position, ids, clears };
    this.inFlight.push(unsynced);
    const generation = this.generation;
    journalFs.fdatasync(this.fd, (error) => {
      if (generation !== this.generation) return;
      if (error) return this.refuseUnsynced(error);
      // On disk: this record and every record written before it.
      for (const flushed of this.inFlight.splice(0, this.inFlight.indexOf(unsynced) + 1)) flushed.done.resolve();
      this.durable = unsynced.end;
      if (this.retryMs > 0) this.writesResumed();
      this.appendedSinceCompaction += bytes;
      this.stats.flushes++;
      this.stats.appendedBytes += bytes;
      if (this.next) this.schedule();
      else if (this.hasPending()) this.scheduleLazy();
      else this.scheduleIdle();
    });
    // After the record's fdatasync is dispatched: the snapshot is built while the disk works on it.
    if (!this.compaction && performance.now() >= this.compactionRetryAt && this.compactionDue()) this.startCompaction();
  }

  /** Writes a record at `position`, allocating ahead when it would grow the file. */
  private write(record: Buffer): void {
    const end = this.position + record.length;
    this.room.ensure(this.fd, end);
    let written = 0;
    while (written < record.length) written += journalFs.writeSync(this.fd, record, written, record.length - written, this.position + written);
    this.position = end;
    this.lastWriteAt = performance.now();
  }

  /** Once nothing has been written for IDLE_MS, prepares room ahead (room-ahead.ts). */
  private scheduleIdle(): void {
    if (this.idleTimer || this.closed) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      const quietFor = performance.now() - this.lastWriteAt;
      if (quietFor < IDLE_MS) return this.scheduleIdle();
      this.prepareRoom(this.position + idleRoomFor(this.extents.liveBytes), false);
    }, IDLE_MS);
    this.idleTimer.unref();
  }

  /** One step of room per turn of the event loop, for as long as the journal stays idle. */
  private prepareRoom(target: number, grew: boolean): void {
    // Closing writes, truncates and closes the file itself.
    if (this.closed) return;
    const idle = !this.failure && !this.swapping && !this.compaction && this.inFlight.length === 0 && !this.hasPending();
    const before = this.room.end;
    if (idle && this.retryMs === 0 && this.room.grow(this.fd, target)) {
      setImmediate(() => this.prepareRoom(target, true)).unref();
      return;
    }
    if (grew || this.room.end > before) this.room.settle(this.fd);
  }

  /**
   * Once dead bytes (the file beyond its live entities' extents) exceed max(compactMinBytes, the live
   * bytes × deadBytesPerLiveByte); by growth while restored entities' extents are unknown.
   */
  private compactionDue(): boolean {
    if (!this.extentsComplete) return this.appendedSinceCompaction > Math.max(this.compactMinBytes, Journal.compactionGrowth * this.compactedSize);
    const dead = this.position - this.extents.liveBytes;
    return dead > Math.max(this.compactMinBytes, Journal.deadBytesPerLiveByte * this.extents.liveBytes);
  }

  /** Snapshots the state and writes it to a new file in the background (see compaction.ts). */
  private startCompaction(): void {
    let compaction: BackgroundCompaction;
    try {
      compaction = this.snapshot();
    } catch (error) {
      this.fail(error, []);
      return;
    }
    this.compaction = compaction;
    this.compactionPoisoned = false;
    this.compactionDone = this.completeCompaction(compaction);
  }

  /** The whole state as it is now, pending changes included (they are appended as usual too). */
  private snapshot(): BackgroundCompaction {
    const sources = this.sources!;
    return new BackgroundCompaction(this.file, sources.entries(), sources.clockNow(), reuseFromFile(this.fd, this.position, this.extents, this.pending.ids), this.position);
  }

  private async completeCompaction(compaction: BackgroundCompaction): Promise<void> {
    try {
      await compaction.write();
      // The swap copies the records appended meanwhile: none may be written or waiting for its fsync then.
      this.swapping = true;
      while (this.inFlight.length > 0 && !this.failure) await this.inFlight.at(-1)!.done.promise.catch(() => {});
      if (this.failure) throw this.failure;
      if (this.compactionPoisoned) throw new Error('a change in its snapshot was refused meanwhile');
      this.swapIn(compaction, await compaction.swap(this.fd, this.position, this.extents));
    } catch (error) {
      await compaction.abandon();
      // Before the rename the state file is untouched and the journal goes on; after it, the file is not the one appended to.
      if (compaction.renamed) this.fail(error, []);
      else if (!this.failure) {
        if (!this.compactionPoisoned) this.warn(`[mock] ${cannot('write', this.file, error).message} (compaction; the journal is intact and goes on, compaction is tried again later)`);
        this.compactionRetryAt = performance.now() + RETRY_MAX_MS;
      }
    } finally {
      this.compaction = undefined;
      this.compactionDone = undefined;
      this.swapping = false;
    }
    if (this.next) this.schedule();
    else if (this.hasPending()) this.scheduleLazy();
  }

  private swapIn(compaction: BackgroundCompaction, swapped: Swapped): void {
    closeQuietly(this.fd);
    this.fd = swapped.fd;
    this.extents = swapped.extents;
    this.position = swapped.size;
    this.durable = swapped.size;
    this.room = new RoomAhead(swapped.size, this.stats);
    this.compactedSize = compaction.size;
    this.extentsComplete = true;
    this.appendedSinceCompaction = swapped.size - compaction.size;
    this.stats.compactions++;
    this.stats.compactedBytes += swapped.written;
  }

  /** The pending changes as one record; values are read (serialised) now. */
  private takeBatch(): Buffer {
    const record = changeBatch({
      peek: (kind, id) => this.sources!.peek(kind, id), dirty: this.pending.ids, clears: this.pending.clears, extents: this.extents, log: this.compaction?.log,
      clock: this.sources!.clockNow(), at: this.position, scratch: this.scratch,
    });
    this.resetPending();
    return record;
  }

  private resetPending(): void {
    this.pending.take();
    this.lastClock = this.sources!.clockNow();
  }

  /**
   * A record could not be written or made durable: every record not yet on disk (`failing`, those in
   * flight) and the changes not yet written are refused and undone (unkept.ts), the file is cut back to
   * its durable records, and the journal goes on. Only when that itself fails does refusing become permanent.
   */
  private refuseUnsynced(error: unknown, failing?: UnsyncedRecord): void {
    this.generation++;
    const records = [...this.inFlight.splice(0), ...(failing ? [failing] : [])];
    const refusal = unkeptChange(this.file, error);
    const { ids, clears } = unsyncedChanges([...records, this.pending.take()]);
    const waiting = [...records.map((record) => record.done), ...(this.next ? [this.next] : [])];
    this.next = undefined;
    if (this.compaction) this.compactionPoisoned = true;
    if (!this.revert || !this.sources) return this.fail(error, waiting);
    let left: ReturnType<typeof undoChanges>;
    this.undoing = true;
    try {
      left = cutBackAndUndo(this.fd, this.durable, this.file, this.revert, ids, clears);
    } catch (undoError) {
      this.warn(`[mock] ${refusal.message}`);
      return this.fail(undoError, waiting);
    } finally {
      this.undoing = false;
    }
    this.position = this.durable;
    this.room = new RoomAhead(this.durable, this.stats);
    // Their bytes were cut off: these entities are serialised again by the next compaction.
    for (const [kind, kindIds] of ids) for (const id of kindIds) this.extents.delete(kind, id);
    for (const kind of clears) this.extents.clearKind(kind);
    if (this.refusedSinceKept++ === 0) this.warn(`[mock] ${refusal.message}`);
    for (const w of waiting) w.reject(refusal);
    // What cannot be undone (webhook deliveries, builds) is written again later; nobody waits for it.
    this.retryMs = Math.min(RETRY_MAX_MS, Math.max(RETRY_FIRST_MS, this.retryMs * 2));
    for (const kind of left.clears) this.cleared(kind);
    for (const [kind, kindIds] of left.ids) for (const id of kindIds) this.changed(kind, id);
  }

  /** The first record kept after refused ones: one line says writes go on. */
  private writesResumed(): void {
    this.warn(`[mock] state file ${this.file} is written again; ${this.refusedSinceKept} write${this.refusedSinceKept === 1 ? ' was' : 's were'} refused meanwhile and not kept`);
    this.retryMs = 0;
    this.refusedSinceKept = 0;
  }

  /** Refusing for good: every waiter gets the error, and every later answer too (memory may be ahead of the disk). */
  private fail(error: unknown, waiting: Deferred[]): void {
    if (!this.failure) {
      const reason = cannot('write', this.file, error).message;
      this.failure = new StateFileError(`${reason}; the change was not kept, and the mock refuses every request until it is restarted`);
      this.warn(`[mock] ${this.failure.message}`);
    }
    for (const w of [...waiting, ...this.inFlight.splice(0).map((record) => record.done), ...(this.next ? [this.next] : [])]) w.reject(this.failure);
    this.next = undefined;
  }
}
