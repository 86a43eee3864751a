// Opening the --state file: read and check every record, drop a torn last record (one warning line),
// refuse anything else that is damaged or foreign (StateFileError, exit code 2), and write a fresh
// file atomically (temporary file, fdatasync, rename, fsync of the directory).
import { closeSync, fdatasyncSync, fsyncSync, ftruncateSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CorruptRecord, frame, scanRecords } from './framing.js';
import { batchRecord, Extents, type ChangeText, type Extent } from './records.js';

export const FORMAT = 'compute-contract-state';
export const FORMAT_VERSION = 2;
/** Entities per record of a compacted file (keeps every record far below MAX_RECORD_BYTES). */
const ENTITIES_PER_RECORD = 2_000;

/** A --state file that cannot be used; the CLI exits with `exitCode` and prints the message. */
export class StateFileError extends Error {
  readonly exitCode = 2;
}

/** One change: put (value), delete (no value), or clear a whole kind (kind only). */
export type Change = [kind: string, id: string, value: unknown] | [kind: string, id: string] | [kind: string];
export interface BatchRecord {
  /** Mock clock when written (a restarted virtual clock resumes here). */
  c: number;
  ch: Change[];
}
export interface HeaderRecord {
  format: string;
  version: number;
}

/** Every stored entity by kind and id, and the clock of the last record. */
export interface Image {
  kinds: Map<string, Map<string, unknown>>;
  clock?: number;
}

export interface Loaded {
  image: Image;
  /** File size after any torn tail was cut off: where appending continues. */
  bytes: number;
  /** The file was just created (did not exist, or was empty). */
  created: boolean;
}

export interface LoadOptions {
  warn(line: string): void;
  /** Turns a file of an older, still readable format (a JSON document) into an image. */
  convertLegacy?(document: unknown): Image | undefined;
}

export function loadStateFile(file: string, options: LoadOptions): Loaded {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new StateFileError(`state file ${file} is not a regular file`);
    size = st.size;
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw cannot('read', file, error);
    size = -1;
  }
  if (size <= 0) {
    // Nothing was ever acknowledged from a missing or empty file: start empty, in a file of our format.
    const image: Image = { kinds: new Map() };
    return { image, bytes: writeFresh(file, [], undefined), created: true };
  }
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (error) {
    throw cannot('read', file, error);
  }
  if (buf[0] === 0x7b /* { */) return loadLegacy(file, buf, options);
  let scan;
  try {
    scan = scanRecords(buf);
  } catch (error) {
    if (error instanceof CorruptRecord) {
      throw new StateFileError(`state file ${file} is damaged (${error.message}); it was left untouched — restore it from a backup or start with another file`);
    }
    throw error;
  }
  const [header, ...batches] = scan.records as [HeaderRecord | undefined, ...BatchRecord[]];
  checkHeader(file, header, scan.torn !== undefined);
  const image = applyBatches(file, batches);
  removeStaleTemporaries(file);
  if (scan.torn) {
    options.warn(`${file}: dropped a torn tail at byte offset ${scan.torn.offset} (${scan.torn.reason}); nothing in it was acknowledged`);
    cutTornTail(file, scan.validBytes);
  }
  return { image, bytes: scan.validBytes, created: false };
}

function checkHeader(file: string, header: HeaderRecord | undefined, torn: boolean): void {
  if (header === undefined && torn) throw new StateFileError(`state file ${file} has no intact header record; it was left untouched`);
  if (!header || typeof header !== 'object' || header.format !== FORMAT) {
    throw new StateFileError(`${file} is not a compute-contract state file; it was left untouched`);
  }
  if (header.version !== FORMAT_VERSION) {
    throw new StateFileError(
      `state file ${file} has format version ${String(header.version)}; this version of compute-contract reads version ${FORMAT_VERSION}. It was left untouched — use the compute-contract version that wrote it, or another file`,
    );
  }
}

function applyBatches(file: string, batches: BatchRecord[]): Image {
  const image: Image = { kinds: new Map() };
  const kind = (name: string) => {
    let map = image.kinds.get(name);
    if (!map) image.kinds.set(name, (map = new Map()));
    return map;
  };
  for (const [i, batch] of batches.entries()) {
    if (!batch || typeof batch !== 'object' || !Array.isArray(batch.ch)) {
      throw new StateFileError(`state file ${file}: record ${i + 1} is not a change batch; it was left untouched`);
    }
    if (typeof batch.c === 'number') image.clock = batch.c;
    for (const change of batch.ch) {
      if (change.length === 1) kind(change[0]).clear();
      else if (change.length === 2) kind(change[0]).delete(change[1]);
      else kind(change[0]).set(change[1], change[2]);
    }
  }
  return image;
}

/**
 * What the first `end` bytes of the open state file hold (the records known to be on disk): undoing
 * changes whose record could not be written reads their last kept values here (unkept.ts).
 */
export function readImageUpTo(fd: number, end: number, file: string): Image {
  const buf = Buffer.allocUnsafe(end);
  for (let read = 0; read < end; ) {
    const n = readSync(fd, buf, read, end - read, read);
    if (n === 0) throw new StateFileError(`state file ${file} ended at ${read} bytes, before ${end}`);
    read += n;
  }
  const [, ...batches] = scanRecords(buf).records as [HeaderRecord, ...BatchRecord[]];
  return applyBatches(file, batches);
}

function loadLegacy(file: string, buf: Buffer, options: LoadOptions): Loaded {
  let document: unknown;
  try {
    document = JSON.parse(buf.toString('utf8'));
  } catch (error) {
    throw new StateFileError(`state file ${file} is damaged (${(error as Error).message}); it was left untouched`);
  }
  const image = options.convertLegacy?.(document);
  if (!image) {
    const version = (document as { version?: unknown } | null)?.version;
    throw new StateFileError(`state file ${file} has format version ${String(version)}; this version of compute-contract reads version ${FORMAT_VERSION} (and converts version 1). It was left untouched`);
  }
  const entries: [string, string, unknown][] = [];
  for (const [kind, map] of image.kinds) for (const [id, value] of map) entries.push([kind, id, value]);
  options.warn(`${file}: converted from state format 1 to format ${FORMAT_VERSION}`);
  return { image, bytes: writeFresh(file, entries, image.clock), created: false };
}

/** An unchanged entity's bytes in the file being replaced (undefined: serialise its value). */
export type Reuse = (kind: string, id: string) => Uint8Array | undefined;

/**
 * The records of a complete file holding `entries`: header, then batches of puts; `extents` says where
 * each entity's change lies in that file.
 */
export function freshRecords(entries: Iterable<[string, string, unknown]>, clock: number | undefined, reuse?: Reuse): { records: Buffer[]; extents: Extents } {
  const records = [frame({ format: FORMAT, version: FORMAT_VERSION } satisfies HeaderRecord)];
  const extents = new Extents();
  let size = records[0]!.length;
  let keys: [string, string][] = [];
  let changes: ChangeText[] = [];
  const flush = () => {
    const where: Extent[] = [];
    const record = batchRecord(clock, changes, size, where);
    keys.forEach(([kind, id], i) => extents.set(kind, id, where[i]!));
    records.push(record);
    size += record.length;
    keys = [];
    changes = [];
  };
  for (const [kind, id, value] of entries) {
    keys.push([kind, id]);
    changes.push(reuse?.(kind, id) ?? JSON.stringify([kind, id, value]));
    if (changes.length >= ENTITIES_PER_RECORD) flush();
  }
  if (changes.length > 0 || clock !== undefined) flush();
  return { records, extents };
}

/** Replaces `file` atomically with a file holding `entries`; returns its size. */
export function writeFresh(file: string, entries: Iterable<[string, string, unknown]>, clock: number | undefined): number {
  const data = Buffer.concat(freshRecords(entries, clock).records);
  const tmp = temporaryName(file);
  try {
    const fd = openSync(tmp, 'w');
    try {
      let done = 0;
      while (done < data.length) done += writeSync(fd, data, done);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    syncDirectory(file);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // Never created, or already renamed.
    }
    throw cannot('write', file, error);
  }
  return data.length;
}

export function temporaryName(file: string): string {
  return `${file}.${process.pid}.tmp`;
}

/** Temporary files of compactions a killed process never finished (they were never renamed: not state). */
function removeStaleTemporaries(file: string): void {
  const name = basename(file);
  try {
    for (const entry of readdirSync(dirname(file))) {
      if (entry.startsWith(`${name}.`) && /^\d+\.tmp$/.test(entry.slice(name.length + 1))) unlinkSync(join(dirname(file), entry));
    }
  } catch {
    // Litter at worst; the state file itself is intact.
  }
}

/** A rename is durable only once the directory entry is. */
export function syncDirectory(file: string): void {
  const fd = openSync(dirname(file), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function cutTornTail(file: string, validBytes: number): void {
  try {
    const fd = openSync(file, 'r+');
    try {
      ftruncateSync(fd, validBytes);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw cannot('write', file, error);
  }
}

/** A clear error naming the file and the system's reason (EROFS, ENOSPC, EACCES …). */
export function cannot(what: 'read' | 'write', file: string, error: unknown): StateFileError {
  if (error instanceof StateFileError) return error;
  const e = error as NodeJS.ErrnoException;
  return new StateFileError(`cannot ${what} state file ${file}: ${e.message ?? String(error)}`);
}
