// The --state journal: changed entities are appended as one record per flush and fdatasync'ed before any
// answer that shows them is sent (barrier). Group commit: everything changed while records wait for
// their fdatasync goes into the next record, so concurrent requests share one fdatasync. When the
// appended records outgrow the last compacted file, the whole state is written to a new file that
// replaces the old one atomically (compaction.ts, in the background), so disk use stays proportional
// to the state.
import { closeSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { BackgroundCompaction, closeQuietly, reuseFromFile, type Swapped } from './compaction.js';
import { MAX_UNSYNCED_RECORDS } from './framing.js';
import { deferred, type Deferred, type JournalOptions, type JournalSources, type JournalStats } from './journal-parts.js';
import { IDLE_MS, idleRoomFor, RoomAhead } from './room-ahead.js';
import { cannot, StateFileError } from './file.js';
import { batchRecord, Extents, type ChangeText, type Extent } from './records.js';
import type { ChangeSink } from './tracked-map.js';
import { jsonWithRememberedTexts } from '../json-text-cache.js';

/** Records waiting for their fdatasync at once (pipelining); the reader knows this bound. */
const MAX_IN_FLIGHT = MAX_UNSYNCED_RECORDS;
/** Records up to this size are built in one reused buffer (written synchronously, so never shared). */
const SCRATCH_BYTES = 256 * 1024;
/** Longest a change nobody waits for stays in memory only. */
const LAZY_FLUSH_MS = 20;

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
  private dirty = new Map<string, Set<string>>();
  /** Where each entity's latest change lies in the file (compaction copies it from there). */
  private extents = new Extents();
  private readonly clearedKinds = new Set<string>();
  private dirtyIds = 0;
  /** Waiters for the record being collected. */
  private next: Deferred | undefined;
  /** Records written whose fdatasync has not returned yet, oldest first. */
  private readonly inFlight: Deferred[] = [];
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
      this.room = new RoomAhead(fstatSync(this.fd).size, this.stats);
    } catch (error) {
      throw cannot('write', file, error);
    }
    this.position = fileBytes;
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
    return this.inFlight.at(-1)?.promise;
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
    if (this.failure || this.swapping || !this.pending() || this.inFlight.length >= MAX_IN_FLIGHT) return;
    const done = this.next ?? deferred();
    this.next = undefined;
    let bytes: number;
    try {
      const record = this.takeBatch();
      this.write(record);
      bytes = record.length;
    } catch (error) {
      this.fail(error, [done]);
      return;
    }
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
      else this.scheduleIdle();
    });
    // After the record's fdatasync is dispatched: the snapshot is built while the disk works on it.
    if (!this.compaction && this.compactionDue()) this.startCompaction();
  }

  /** Writes a record at `position`, allocating ahead when it would grow the file. */
  private write(record: Buffer): void {
    const end = this.position + record.length;
    this.room.ensure(this.fd, end);
    let written = 0;
    while (written < record.length) written += writeSync(this.fd, record, written, record.length - written, this.position + written);
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
    const idle = !this.failure && !this.swapping && !this.compaction && this.inFlight.length === 0 && !this.pending();
    const before = this.room.end;
    if (idle && this.room.grow(this.fd, target)) {
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
    this.compactionDone = this.completeCompaction(compaction);
  }

  /** The whole state as it is now, pending changes included (they are appended as usual too). */
  private snapshot(): BackgroundCompaction {
    const sources = this.sources!;
    return new BackgroundCompaction(this.file, sources.entries(), sources.clockNow(), reuseFromFile(this.fd, this.position, this.extents, this.dirty), this.position);
  }

  private async completeCompaction(compaction: BackgroundCompaction): Promise<void> {
    try {
      await compaction.write();
      // The swap copies the records appended meanwhile: none may be written or waiting for its fsync then.
      this.swapping = true;
      while (this.inFlight.length > 0 && !this.failure) await this.inFlight.at(-1)!.promise.catch(() => {});
      if (this.failure) throw this.failure;
      this.swapIn(compaction, await compaction.swap(this.fd, this.position, this.extents));
    } catch (error) {
      await compaction.abandon();
      this.fail(error, []);
    } finally {
      this.compaction = undefined;
      this.compactionDone = undefined;
      this.swapping = false;
    }
    if (this.next) this.schedule();
    else if (this.pending()) this.scheduleLazy();
  }

  private swapIn(compaction: BackgroundCompaction, swapped: Swapped): void {
    closeQuietly(this.fd);
    this.fd = swapped.fd;
    this.extents = swapped.extents;
    this.position = swapped.size;
    this.room = new RoomAhead(swapped.size, this.stats);
    this.compactedSize = compaction.size;
    this.extentsComplete = true;
    this.appendedSinceCompaction = swapped.size - compaction.size;
    this.stats.compactions++;
    this.stats.compactedBytes += swapped.written;
  }

  /** The pending changes as one record; values are read (serialised) now. */
  private takeBatch(): Buffer {
    const sources = this.sources!;
    const changes: ChangeText[] = [];
    const puts: [kind: string, id: string, index: number][] = [];
    const log = this.compaction?.log;
    for (const kind of this.clearedKinds) {
      changes.push(JSON.stringify([kind]));
      this.extents.clearKind(kind);
      log?.push(['clear', kind]);
    }
    for (const [kind, ids] of this.dirty) {
      for (const id of ids) {
        const value = sources.peek(kind, id);
        if (value === undefined) {
          changes.push(JSON.stringify([kind, id]));
          this.extents.delete(kind, id);
          log?.push(['delete', kind, id]);
        } else {
          puts.push([kind, id, changes.length]);
          // A large job input or output already written out in slices is copied from its text (json-text-cache.ts).
          changes.push(`[${JSON.stringify(kind)},${JSON.stringify(id)},${jsonWithRememberedTexts(value)}]`);
        }
      }
    }
    this.resetPending();
    const clock = this.lastClock!;
    const where: Extent[] = [];
    const record = batchRecord(clock, changes, this.position, where, this.scratch);
    for (const [kind, id, index] of puts) {
      this.extents.set(kind, id, where[index]!);
      log?.push(['put', kind, id]);
    }
    return record;
  }

  private resetPending(): void {
    this.dirty = new Map();
    this.clearedKinds.clear();
    this.dirtyIds = 0;
    this.lastClock = this.sources!.clockNow();
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
