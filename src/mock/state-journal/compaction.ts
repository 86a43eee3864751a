// Compaction without a pause: the whole state is snapshotted into records (copying the bytes of
// entities unchanged since written, see records.ts) and written to a temporary file while the journal
// keeps appending to the current file. At the swap the records appended since the snapshot (the tail)
// are copied behind it, the temporary file is fdatasync'ed and renamed over the state file, and the
// directory fsynced. A crash at any point leaves the state file as it was, holding everything acknowledged.
import { closeSync, openSync, readSync } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { freshRecords, syncDirectory, temporaryName, type Reuse } from './file.js';
import type { Extents } from './records.js';

/**
 * A compaction reads the file it replaces to copy unchanged entities' bytes, up to this size; a larger
 * file is compacted by serialising every entity (slower, but no buffer of that size).
 */
const MAX_REUSE_READ_BYTES = 1024 * 1024 * 1024;

/** A change appended after the snapshot, as it moves the entity's extent. */
export type ExtentChange = ['put' | 'delete', kind: string, id: string] | ['clear', kind: string];

export interface Swapped {
  fd: number;
  /** Size of the new file (snapshot and tail). */
  size: number;
  extents: Extents;
  /** Bytes this compaction wrote (snapshot and tail). */
  written: number;
}

export class BackgroundCompaction {
  /** Changes appended to the current file after the snapshot, in order (their extents move at the swap). */
  readonly log: ExtentChange[] = [];
  /** Size of the snapshot records. */
  readonly size: number;
  private readonly records: Buffer[];
  private readonly extents: Extents;
  private readonly tmp: string;
  private handle: FileHandle | undefined;
  /** The new file replaced the state file: a failure from here on is not one the old file can absorb. */
  renamed = false;

  /**
   * Snapshots `entries` now (synchronously); `from` is where the current file's records end, so the
   * snapshot stands for everything before it.
   */
  constructor(private readonly file: string, entries: Iterable<[string, string, unknown]>, clock: number | undefined, reuse: Reuse | undefined, readonly from: number) {
    const fresh = freshRecords(entries, clock, reuse);
    this.records = fresh.records;
    this.extents = fresh.extents;
    this.size = this.records.reduce((sum, record) => sum + record.length, 0);
    this.tmp = temporaryName(file);
  }

  /** Writes the snapshot to the temporary file (the journal goes on appending meanwhile). */
  async write(): Promise<void> {
    this.handle = await open(this.tmp, 'w');
    // Written as the list of records (writev), not concatenated: no second copy of a state of tens of MB.
    const { bytesWritten } = await this.handle.writev(this.records);
    if (bytesWritten !== this.size) throw new Error(`short write (${bytesWritten} of ${this.size} bytes)`);
    this.records.length = 0;
  }

  /**
   * Copies the current file's records from `from` to `end` behind the snapshot, makes the new file
   * durable and renames it over the state file. Call with no record in flight and none written meanwhile.
   */
  async swap(currentFd: number, end: number, current: Extents): Promise<Swapped> {
    const handle = this.handle!;
    const tail = Buffer.allocUnsafe(end - this.from);
    for (let read = 0; read < tail.length; ) {
      const n = readSync(currentFd, tail, read, tail.length - read, this.from + read);
      if (n === 0) throw new Error(`the state file ended at ${this.from + read} bytes, before ${end}`);
      read += n;
    }
    for (let written = 0; written < tail.length; ) {
      written += (await handle.write(tail, written, tail.length - written, this.size + written)).bytesWritten;
    }
    await handle.datasync();
    await handle.close();
    this.handle = undefined;
    await rename(this.tmp, this.file);
    this.renamed = true;
    syncDirectory(this.file);
    return { fd: openSync(this.file, 'r+'), size: this.size + tail.length, extents: this.moved(current), written: this.size + tail.length };
  }

  /** Removes the temporary file (a failed compaction). */
  async abandon(): Promise<void> {
    await this.handle?.close().catch(() => {});
    this.handle = undefined;
    await unlink(this.tmp).catch(() => {});
  }

  /** The snapshot's extents, with the changes appended after it where the tail now puts them. */
  private moved(current: Extents): Extents {
    const shift = this.size - this.from;
    for (const change of this.log) {
      if (change[0] === 'clear') this.extents.clearKind(change[1]);
      else if (change[0] === 'delete') this.extents.delete(change[1], change[2]);
      else {
        const extent = current.get(change[1], change[2]);
        if (extent) this.extents.set(change[1], change[2], { at: extent.at + shift, length: extent.length });
      }
    }
    return this.extents;
  }
}

/**
 * The bytes of an entity not changed since it was last written, read from the current file (which
 * holds its latest change at its extent); undefined for changed ones and when the file is too large.
 */
export function reuseFromFile(fd: number, end: number, extents: Extents, changed: ReadonlyMap<string, ReadonlySet<string>>): Reuse | undefined {
  if (end > MAX_REUSE_READ_BYTES) return undefined;
  const file = Buffer.allocUnsafe(end);
  for (let read = 0; read < file.length; ) {
    const n = readSync(fd, file, read, file.length - read, read);
    if (n === 0) return undefined;
    read += n;
  }
  return (kind, id) => {
    if (changed.get(kind)?.has(id)) return undefined;
    const extent = extents.get(kind, id);
    return extent && file.subarray(extent.at, extent.at + extent.length);
  };
}

/** Closes a descriptor, ignoring a failure (the file it pointed to was replaced). */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing left to do with it.
  }
}
