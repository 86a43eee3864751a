// One flush's record: the pending changes serialised one by one (a put reads the entity's value now, an
// entity gone is a delete, a cleared kind a clear), framed as one batch, each change's extent remembered.
import { jsonWithRememberedTexts } from '../json-text-cache.js';
import type { ExtentChange } from './compaction.js';
import { batchRecord, type ChangeText, type Extent, type Extents } from './records.js';

export interface PendingBatch {
  /** Current value of an entity; undefined when it no longer exists. */
  peek(kind: string, id: string): unknown;
  dirty: ReadonlyMap<string, ReadonlySet<string>>;
  clears: ReadonlySet<string>;
  /** Updated to where each change lies once the record is written at `at`. */
  extents: Extents;
  /** A compaction's log of changes appended after its snapshot, when one is being written. */
  log: ExtentChange[] | undefined;
  clock: number;
  at: number;
  scratch: Buffer;
}

export function changeBatch({ peek, dirty, clears, extents, log, clock, at, scratch }: PendingBatch): Buffer {
  const changes: ChangeText[] = [];
  const puts: [kind: string, id: string, index: number][] = [];
  for (const kind of clears) {
    changes.push(JSON.stringify([kind]));
    extents.clearKind(kind);
    log?.push(['clear', kind]);
  }
  for (const [kind, ids] of dirty) {
    for (const id of ids) {
      const value = peek(kind, id);
      if (value === undefined) {
        changes.push(JSON.stringify([kind, id]));
        extents.delete(kind, id);
        log?.push(['delete', kind, id]);
      } else {
        puts.push([kind, id, changes.length]);
        // A large job input or output already written out in slices is copied from its text (json-text-cache.ts).
        changes.push(`[${JSON.stringify(kind)},${JSON.stringify(id)},${jsonWithRememberedTexts(value)}]`);
      }
    }
  }
  const where: Extent[] = [];
  const record = batchRecord(clock, changes, at, where, scratch);
  for (const [kind, id, index] of puts) {
    extents.set(kind, id, where[index]!);
    log?.push(['put', kind, id]);
  }
  return record;
}
