// Batch records built from changes serialised one by one, remembering where each change's JSON lies in
// the file (its extent). A compaction then copies the bytes of an entity unchanged since it was last
// written instead of serialising it again: copying is an order of magnitude cheaper than JSON.stringify,
// and compaction was a third of the journal's CPU under a write load (docs/state.md).
import { HEADER_BYTES, seal } from './framing.js';

/** Where one change's JSON (`["kind","id",value]`) lies in the file. */
export interface Extent {
  at: number;
  length: number;
}

/** One change, serialised: JSON text, or its bytes copied from the file. */
export type ChangeText = string | Uint8Array;

const COMMA = 0x2c;
const CLOSE = ']}';

/**
 * The record `{"c":clock,"ch":[change,…]}` (no `c` when clock is undefined) for a file offset `at`;
 * `extents[i]` is set to where `changes[i]` lies once the record is written there. Built in `scratch`
 * when it is large enough (the result is then a view of it, valid until scratch is used again).
 */
export function batchRecord(clock: number | undefined, changes: readonly ChangeText[], at: number, extents?: Extent[], scratch?: Buffer): Buffer {
  const open = clock === undefined ? '{"ch":[' : `{"c":${clock},"ch":[`;
  const lengths = new Array<number>(changes.length);
  let length = open.length + CLOSE.length + Math.max(0, changes.length - 1);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    length += lengths[i] = typeof change === 'string' ? Buffer.byteLength(change) : change.length;
  }
  const size = HEADER_BYTES + length + 1;
  const out = scratch && scratch.length >= size ? scratch.subarray(0, size) : Buffer.allocUnsafe(size);
  let offset = HEADER_BYTES + out.write(open, HEADER_BYTES, 'latin1');
  for (let i = 0; i < changes.length; i++) {
    if (i > 0) out[offset++] = COMMA;
    const change = changes[i]!;
    if (typeof change === 'string') out.write(change, offset, lengths[i]!, 'utf8');
    else out.set(change, offset);
    if (extents) extents[i] = { at: at + offset, length: lengths[i]! };
    offset += lengths[i]!;
  }
  out.write(CLOSE, offset, 'latin1');
  return seal(out, length);
}

/** The extent of every stored entity whose latest value is in the file, by kind and id. */
export class Extents {
  private readonly byKind = new Map<string, Map<string, Extent>>();
  /** Sum of the extents' lengths: the bytes of the file that are still live. */
  liveBytes = 0;

  get(kind: string, id: string): Extent | undefined {
    return this.byKind.get(kind)?.get(id);
  }

  set(kind: string, id: string, extent: Extent): void {
    let ids = this.byKind.get(kind);
    if (!ids) this.byKind.set(kind, (ids = new Map()));
    this.liveBytes += extent.length - (ids.get(id)?.length ?? 0);
    ids.set(id, extent);
  }

  delete(kind: string, id: string): void {
    const ids = this.byKind.get(kind);
    const extent = ids?.get(id);
    if (!extent) return;
    this.liveBytes -= extent.length;
    ids!.delete(id);
  }

  clearKind(kind: string): void {
    for (const extent of this.byKind.get(kind)?.values() ?? []) this.liveBytes -= extent.length;
    this.byKind.delete(kind);
  }
}
