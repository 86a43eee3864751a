// Records built from changes serialised one by one, the extent of each change in the file, and
// compaction copying the bytes of entities unchanged since they were written.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadStateFile } from '../../src/mock/state-journal/file.js';
import { frame, HEADER_BYTES, scanRecords } from '../../src/mock/state-journal/framing.js';
import { Journal } from '../../src/mock/state-journal/journal.js';
import { batchRecord, type Extent } from '../../src/mock/state-journal/records.js';

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'mock-compaction-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('batch records', () => {
  it('are byte for byte the framing of the same batch serialised at once', () => {
    const changes: unknown[] = [['templates', 't1', { id: 't1', name: 'Zoë ☃' }], ['pods', 'p1'], ['jobs']];
    const built = batchRecord(7, changes.map((c) => JSON.stringify(c)), 0);
    expect(built.equals(frame({ c: 7, ch: changes }))).toBe(true);
    expect(batchRecord(undefined, [], 0).equals(frame({ ch: [] }))).toBe(true);
  });

  it('say where each change lies in the file, copied bytes included', () => {
    const at = 1000;
    const texts = [JSON.stringify(['templates', 't1', { name: 'ünïcode' }]), Buffer.from(JSON.stringify(['pods', 'p1', { id: 'p1' }]))];
    const extents: Extent[] = [];
    const record = batchRecord(1, texts, at, extents);
    const file = Buffer.concat([Buffer.alloc(at, 0x20), record]);
    expect(extents.map((e) => JSON.parse(file.toString('utf8', e.at, e.at + e.length)))).toEqual([
      ['templates', 't1', { name: 'ünïcode' }],
      ['pods', 'p1', { id: 'p1' }],
    ]);
    expect(extents[0]!.at).toBe(at + HEADER_BYTES + '{"c":1,"ch":['.length);
  });

  it('are built in a scratch buffer when it is large enough, and allocated when it is not', () => {
    const scratch = Buffer.alloc(64);
    const small = batchRecord(1, ['["a"]'], 0, undefined, scratch);
    expect(small.buffer).toBe(scratch.buffer);
    const large = batchRecord(1, [JSON.stringify(['t', 'x', 'y'.repeat(100)])], 0, undefined, scratch);
    expect(large.buffer).not.toBe(scratch.buffer);
    expect(scanRecords(large).records).toEqual([{ c: 1, ch: [['t', 'x', 'y'.repeat(100)]] }]);
  });
});

describe('compaction', () => {
  /** A journal over a plain map of templates, as the store would feed it. */
  function open(file: string, options: { compactMinBytes?: number } = {}) {
    const templates = new Map<string, Record<string, unknown>>();
    const clock = { now: 5 };
    const loaded = loadStateFile(file, { warn: () => {} });
    for (const [id, value] of loaded.image.kinds.get('templates') ?? []) templates.set(id, value as Record<string, unknown>);
    const journal = new Journal(file, loaded.bytes, { warn: () => {}, ...options });
    journal.attach({
      clockIsState: true,
      clockNow: () => clock.now,
      peek: (_kind, id) => templates.get(id),
      *entries() {
        for (const [id, value] of templates) yield ['templates', id, value];
      },
    }, loaded.image.clock, templates.size > 0);
    const put = (id: string, value: Record<string, unknown>) => {
      templates.set(id, value);
      journal.changed('templates', id);
    };
    const internals = journal as unknown as { startCompaction(): void; compactionDone: Promise<void> | undefined };
    const compact = async () => {
      internals.startCompaction();
      await internals.compactionDone;
    };
    return { templates, journal, put, compact, internals, clock };
  }
  const stored = (file: string) => Object.fromEntries(loadStateFile(file, { warn: () => {} }).image.kinds.get('templates') ?? []);

  it('copies the bytes of entities unchanged since written and serialises the changed ones', async () => {
    const file = join(dir, 'state.db');
    const j = open(file);
    j.put('kept', { name: 'as written' });
    j.put('changed', { name: 'first' });
    await j.journal.barrier();
    j.put('changed', { name: 'second' });
    // Edited in memory without telling the journal: a copy from the file shows the written value,
    // which proves the compaction copied it rather than serialising the object again.
    j.templates.get('kept')!['name'] = 'edited unseen';
    await j.compact();
    expect(stored(file)).toEqual({ kept: { name: 'as written' }, changed: { name: 'second' } });
    await j.journal.close();
  });

  it('keeps copying correctly across compactions, deletes and entities restored from the file', async () => {
    const file = join(dir, 'state.db');
    let j = open(file);
    for (let i = 0; i < 50; i++) j.put(`t${i}`, { name: `v${i}`, readme: 'é'.repeat(i) });
    await j.journal.barrier();
    await j.compact();
    j.put('t3', { name: 'updated' });
    j.templates.delete('t4');
    j.journal.changed('templates', 't4');
    await j.journal.barrier();
    await j.compact();
    await j.compact();
    const expected = Object.fromEntries(j.templates);
    expect(stored(file)).toEqual(expected);
    await j.journal.close();
    // Restored entities have no known extent: the first compaction serialises them, later ones copy.
    j = open(file);
    j.put('t5', { name: 'after restart' });
    await j.journal.barrier();
    await j.compact();
    await j.compact();
    expect(stored(file)).toEqual({ ...expected, t5: { name: 'after restart' } });
    expect(readFileSync(file, 'utf8')).not.toContain('"v4"');
    await j.journal.close();
  });

  it('goes on appending while the new file is written; what was appended meanwhile is copied behind the snapshot', async () => {
    const file = join(dir, 'state.db');
    const j = open(file);
    for (let i = 0; i < 20; i++) j.put(`t${i}`, { name: `v${i}` });
    await j.journal.barrier();
    const inode = statSync(file).ino;
    j.internals.startCompaction();
    // Snapshot taken; these changes go to the current file and reach the new one at the swap.
    j.put('t1', { name: 'during' });
    j.put('late', { name: 'added during' });
    j.templates.delete('t2');
    j.journal.changed('templates', 't2');
    j.clock.now = 9;
    await j.journal.barrier();
    expect(statSync(file).ino).toBe(inode);
    await j.internals.compactionDone;
    expect(statSync(file).ino).not.toBe(inode);
    expect(stored(file)).toEqual(Object.fromEntries(j.templates));
    expect(loadStateFile(file, { warn: () => {} }).image.clock).toBe(9);
    // The extents moved with the copied records: the next compaction copies the right bytes.
    j.put('t3', { name: 'after' });
    await j.journal.barrier();
    await j.compact();
    expect(stored(file)).toEqual(Object.fromEntries(j.templates));
    await j.journal.close();
  });

  it('stamps each record with the clock at its flush (a restored virtual clock resumes there)', async () => {
    const file = join(dir, 'state.db');
    const j = open(file);
    j.clock.now = 42;
    j.put('t', { name: 'x' });
    await j.journal.barrier();
    expect(loadStateFile(file, { warn: () => {} }).image.clock).toBe(42);
    await j.journal.close();
  });

  it('rewrites the file for its dead bytes only: a state that just grows is never compacted, overwrites are', async () => {
    const file = join(dir, 'state.db');
    const j = open(file, { compactMinBytes: 4096 });
    const readme = 'x'.repeat(500);
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 10; i++) j.put(`t${round}-${i}`, { name: `v${i}`, readme });
      await j.journal.barrier();
    }
    // 200 entities, ~105 KiB appended, 13× the 8 KiB a rule of "twice the last compacted size" allowed.
    expect(j.journal.stats.compactions).toBe(0);
    // Every value written twice more: dead bytes pass the live ones.
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 10; i++) j.put(`t${round % 20}-${i}`, { name: `overwritten ${round}`, readme });
      await j.journal.barrier();
    }
    await (j.journal as unknown as { compactionDone?: Promise<void> }).compactionDone;
    expect(j.journal.stats.compactions).toBeGreaterThan(0);
    expect(stored(file)).toEqual(Object.fromEntries(j.templates));
    await j.journal.close();
  });

  it('prepares room ahead up to the state\'s size once idle, and hands it back at a clean close', async () => {
    const file = join(dir, 'state.db');
    const j = open(file, { compactMinBytes: 64 * 1024 * 1024 });
    const readme = 'r'.repeat(10_000);
    for (let i = 0; i < 300; i++) j.put(`t${i}`, { readme });
    await j.journal.barrier();
    const records = recordEnd(file);
    // While answers waited, room came 1 MiB at a time; idle, it grows to the live size (~3 MB).
    for (const started = Date.now(); statSync(file).size - records < 2.9e6 && Date.now() - started < 5_000;) await new Promise((r) => setTimeout(r, 10));
    expect(statSync(file).size - records).toBeGreaterThanOrEqual(2.9e6);
    expect(stored(file)).toEqual(Object.fromEntries(j.templates));
    await j.journal.close();
    expect(statSync(file).size).toBe(recordEnd(file));
  });
});

/** Where the records end (the zero bytes after them are room ahead). */
function recordEnd(file: string): number {
  const bytes = readFileSync(file);
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return end;
}
