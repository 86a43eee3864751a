// Room allocated ahead of the records: zero bytes written past them, so that the fdatasync of a record
// written there flushes data only (one that grows the file must also commit its size: 2.5–5× slower on
// this machine's disk). While answers wait, room is added 1 MiB at a time, and those zero pages ride
// along with the next record's fdatasync. When the journal has been idle for a moment, room is added
// up to the state's size (at most 64 MiB) and flushed on its own, so a burst of writes after a quiet
// moment carries no zero pages in its fdatasyncs (PostgreSQL pre-zeroes WAL segments for this reason).
import { journalFs } from './fs-ops.js';

/** Room added when a record would not fit. */
export const ROOM_STEP_BYTES = 1024 * 1024;
/** Most room an idle journal prepares. */
export const MAX_IDLE_ROOM_BYTES = 64 * 1024 * 1024;
/** Quiet time (no record written) before room is prepared. */
export const IDLE_MS = 50;
const ZEROS = Buffer.alloc(64 * 1024);

export class RoomAhead {
  /** `end`: the file's size; zero bytes from the records' end up to it are room. `stats` counts them. */
  constructor(public end: number, private readonly stats: { allocatedBytes: number }) {}

  /** Makes room for a record ending at `recordEnd` (and ROOM_STEP_BYTES more) when it lacks. */
  ensure(fd: number, recordEnd: number): void {
    if (recordEnd > this.end) this.fill(fd, recordEnd + ROOM_STEP_BYTES);
  }

  /**
   * Idle preparation: adds at most ROOM_STEP_BYTES towards `target`; true when more is to come. The
   * caller calls again on a later turn of the event loop while still idle, then `settle`.
   */
  grow(fd: number, target: number): boolean {
    if (this.end >= target) return false;
    this.fill(fd, Math.min(target, this.end + ROOM_STEP_BYTES));
    return this.end < target;
  }

  /** Flushes room prepared while idle, so no record's fdatasync has to. */
  settle(fd: number): void {
    journalFs.fdatasync(fd, () => {
      // A failure here is found again, and reported, by the next record's own fdatasync.
    });
  }

  private fill(fd: number, target: number): void {
    try {
      while (this.end < target) {
        const zeros = journalFs.writeSync(fd, ZEROS, 0, Math.min(ZEROS.length, target - this.end), this.end);
        this.end += zeros;
        this.stats.allocatedBytes += zeros;
      }
    } catch {
      // A nearly full disk: write the record without room ahead; if that fails too, it is the failure.
    }
  }
}

/** How much room an idle journal prepares for a state of `liveBytes`. */
export function idleRoomFor(liveBytes: number): number {
  return Math.min(MAX_IDLE_ROOM_BYTES, Math.max(ROOM_STEP_BYTES, liveBytes));
}
