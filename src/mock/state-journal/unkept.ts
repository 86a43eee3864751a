// A change whose record could not be made durable (a full disk, EFBIG, an I/O error) is refused and undone:
// every entity it touched goes back to the value the file keeps for it, the file is cut back to its last
// durable record, and the mock goes on — reads are answered, and writes resume once the file can be
// written again (as SQLite answers SQLITE_FULL for one transaction and rolls it back). See docs/state.md.
import { ftruncateSync } from 'node:fs';
import { cannot, readImageUpTo, StateFileError, type Image } from './file.js';

/** Changed entity ids by kind. */
export type ChangedIds = Map<string, Set<string>>;

/** A change refused because its record could not be written: 507 when storage ran out, 503 otherwise. */
export class UnkeptChange extends StateFileError {
  constructor(message: string, readonly status: 503 | 507) {
    super(message);
  }
}

/** The system's reasons that mean "no room" (507 Insufficient Storage). */
const OUT_OF_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export function unkeptChange(file: string, error: unknown): UnkeptChange {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = cannot('write', file, error).message;
  return new UnkeptChange(
    `${reason}; the change was not kept (nothing of it is stored) — reads go on, and writes resume once the state file can be written`,
    code !== undefined && OUT_OF_ROOM.has(code) ? 507 : 503,
  );
}

export function mergeIds(into: ChangedIds, from: ReadonlyMap<string, ReadonlySet<string>>): void {
  for (const [kind, ids] of from) {
    let set = into.get(kind);
    if (!set) into.set(kind, (set = new Set()));
    for (const id of ids) set.add(id);
  }
}

/** Every entity and cleared kind of the given changes (records not on disk, and those not yet written). */
export function unsyncedChanges(changes: readonly { ids: ReadonlyMap<string, ReadonlySet<string>>; clears: ReadonlySet<string> }[]): { ids: ChangedIds; clears: Set<string> } {
  const ids: ChangedIds = new Map();
  const clears = new Set<string>();
  for (const change of changes) {
    mergeIds(ids, change.ids);
    for (const kind of change.clears) clears.add(kind);
  }
  return { ids, clears };
}

/** How the mock puts one entity back; false for a kind it cannot undo (written again with a later record). */
export type Revert = (kind: string, id: string, kept: unknown) => boolean;

/**
 * Puts every changed entity back to its value in `image` (absent there: removed); a cleared kind gets
 * every kept entity back. Returns what could not be undone.
 */
export function undoChanges(revert: Revert, image: Image, ids: ChangedIds, clears: ReadonlySet<string>): { ids: ChangedIds; clears: Set<string> } {
  const left = { ids: new Map() as ChangedIds, clears: new Set<string>() };
  const all = new Map<string, Set<string>>();
  mergeIds(all, ids);
  // A cleared kind: every entity it kept comes back (those created after the clear are in `ids`).
  for (const kind of clears) mergeIds(all, new Map([[kind, new Set(image.kinds.get(kind)?.keys() ?? [])]]));
  for (const [kind, kindIds] of all) {
    const kept = image.kinds.get(kind);
    for (const id of kindIds) {
      if (revert(kind, id, kept?.get(id))) continue;
      if (clears.has(kind)) left.clears.add(kind);
      mergeIds(left.ids, new Map([[kind, new Set([id])]]));
    }
  }
  return left;
}

/**
 * Cuts the file back to its `durable` records (dropping the refused ones, written or half written) and
 * puts the changed entities back to the values those records keep; throws when the file cannot be cut or read.
 */
export function cutBackAndUndo(fd: number, durable: number, file: string, revert: Revert, ids: ChangedIds, clears: ReadonlySet<string>): { ids: ChangedIds; clears: Set<string> } {
  ftruncateSync(fd, durable);
  return undoChanges(revert, readImageUpTo(fd, durable, file), ids, clears);
}
