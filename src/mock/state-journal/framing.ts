// Record framing of the --state file. Every record is one line:
//   "LLLLLLLL CCCCCCCC " + payload + "\n"
// L = payload length in bytes, C = crc32 of the payload (both 8 hex digits), payload = JSON without
// newlines. The length finds the record's end without trusting the payload; the checksum proves the
// bytes are the ones written. One flush appends exactly one record and at most MAX_UNSYNCED_RECORDS
// wait for their fsync at once, so a crash can only tear the last ones — which is what tells a torn
// tail (dropped) from corruption (refused).
import { crc32 } from 'node:zlib';

export const HEADER_BYTES = 18;
/** Largest payload a record may carry (a JS string cannot be much larger anyway). */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const NEWLINE = 0x0a;
/** Records the journal may have written whose fdatasync has not returned (the journal keeps to it). */
export const MAX_UNSYNCED_RECORDS = 2;

export function frame(payload: unknown): Buffer {
  const json = JSON.stringify(payload);
  const length = Buffer.byteLength(json);
  const out = Buffer.allocUnsafe(HEADER_BYTES + length + 1);
  out.write(json, HEADER_BYTES, length, 'utf8');
  return seal(out, length);
}

/**
 * Completes a record whose payload (`length` bytes) was written into `out` at HEADER_BYTES: writes the
 * header (length and checksum) and the final newline. `out` is exactly HEADER_BYTES + length + 1 long.
 */
export function seal(out: Buffer, length: number): Buffer {
  if (length > MAX_RECORD_BYTES) throw new Error(`state record of ${length} bytes exceeds the maximum of ${MAX_RECORD_BYTES}`);
  out.write(`${hex8(length)} ${hex8(crc32(out.subarray(HEADER_BYTES, HEADER_BYTES + length)))} `, 0, 'latin1');
  out[HEADER_BYTES + length] = NEWLINE;
  return out;
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

export interface Scan {
  records: unknown[];
  /** Byte length of the intact records (where the next record goes). */
  validBytes: number;
  /** A torn last record: where it starts and why it is not intact. */
  torn?: { offset: number; reason: string };
}

/** Raised for damage that a crash cannot explain (anything but a torn last record). */
export class CorruptRecord extends Error {
  constructor(readonly offset: number, readonly reason: string) {
    super(`corrupt record at byte offset ${offset}: ${reason}`);
  }
}

/**
 * Reads every record; a damaged last record is reported as torn, any other damage throws CorruptRecord.
 * Zero bytes at the end are space the journal allocated ahead (a record never ends in a zero byte).
 */
export function scanRecords(file: Buffer): Scan {
  const buf = file.subarray(0, endOfRecords(file));
  const records: unknown[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const damage = recordDamage(buf, offset);
    if (typeof damage === 'string') {
      // A crash leaves at most MAX_UNSYNCED_RECORDS records unsynced, so damage followed by more
      // record boundaries (newlines) than that cannot be a crash's doing.
      if (boundariesAfter(buf, offset) < MAX_UNSYNCED_RECORDS) return { records, validBytes: offset, torn: { offset, reason: damage } };
      throw new CorruptRecord(offset, damage);
    }
    records.push(damage.value);
    offset = damage.next;
  }
  return { records, validBytes: offset };
}

const ZERO_CHUNK = Buffer.alloc(64 * 1024);

/** Where the bytes before the zero bytes at the end of `file` (room allocated ahead, up to 64 MiB) end. */
function endOfRecords(file: Buffer): number {
  let end = file.length;
  // Whole chunks compared natively: a byte-by-byte loop took 50–65 ms over 64 MiB of room.
  while (end > 0) {
    const from = Math.max(0, end - ZERO_CHUNK.length);
    if (!file.subarray(from, end).equals(ZERO_CHUNK.subarray(0, end - from))) break;
    end = from;
  }
  while (end > 0 && file[end - 1] === 0) end--;
  return end;
}

/** Newlines from `offset` up to, not including, the last byte (counting stops at MAX_UNSYNCED_RECORDS). */
function boundariesAfter(buf: Buffer, offset: number): number {
  let count = 0;
  for (let i = buf.indexOf(NEWLINE, offset); i !== -1 && i < buf.length - 1 && count < MAX_UNSYNCED_RECORDS; i = buf.indexOf(NEWLINE, i + 1)) count++;
  return count;
}

/** The record at `offset`, or why it is not intact. */
function recordDamage(buf: Buffer, offset: number): { value: unknown; next: number } | string {
  if (buf.length - offset < HEADER_BYTES) return 'incomplete record header';
  const head = buf.toString('latin1', offset, offset + HEADER_BYTES);
  if (!/^[0-9a-f]{8} [0-9a-f]{8} $/.test(head)) return 'malformed record header';
  const length = parseInt(head.slice(0, 8), 16);
  const crc = parseInt(head.slice(9, 17), 16);
  if (length > MAX_RECORD_BYTES) return `record length ${length} exceeds the maximum of ${MAX_RECORD_BYTES}`;
  const start = offset + HEADER_BYTES;
  const end = start + length;
  if (end >= buf.length) return 'incomplete record';
  if (buf[end] !== NEWLINE) return 'record does not end where its length says';
  const body = buf.subarray(start, end);
  if (crc32(body) !== crc) return 'checksum mismatch';
  try {
    return { value: JSON.parse(body.toString('utf8')), next: end + 1 };
  } catch {
    return 'payload is not JSON';
  }
}
