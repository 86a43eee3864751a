// The --state journal in-process: record framing and what a damaged file reads as, group commit,
// compaction, the clock, the JSON format 1 conversion, and answers held until their changes are on disk.
import { closeSync, type fdatasync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadStateFile, StateFileError } from '../../src/mock/state-journal/file.js';
import { CorruptRecord, frame, MAX_UNSYNCED_RECORDS, scanRecords } from '../../src/mock/state-journal/framing.js';
import { journalFs } from '../../src/mock/state-journal/fs-ops.js';
import { startMock } from '../../src/mock/index.js';
import { Harness, KEY } from './harness.js';

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'mock-journal-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const records = (...payloads: unknown[]) => Buffer.concat(payloads.map((p) => frame(p)));
const quiet = { warn: () => {} };
const recordBytes = (file: string) => {
  const bytes = readFileSync(file);
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return end;
};

describe('record framing', () => {
  it('reads back what it wrote', () => {
    const buf = records({ a: 1 }, { b: 'x\ny' }, { c: [1, 2] });
    expect(scanRecords(buf)).toEqual({ records: [{ a: 1 }, { b: 'x\ny' }, { c: [1, 2] }], validBytes: buf.length });
  });

  it('zero bytes after the records are room allocated ahead, however much of it and wherever it starts', () => {
    for (const filler of [1, 65_535, 65_536]) {
      // Records ending just before, at and after a 64 KiB boundary, then room of several sizes.
      const buf = records({ f: 'x'.repeat(filler) }, { a: 1 });
      for (const room of [0, 1, 65_535, 65_536, 65_537, 300_000]) {
        const withRoom = Buffer.concat([buf, Buffer.alloc(room)]);
        expect(scanRecords(withRoom), `${filler}/${room}`).toEqual({ records: [{ f: 'x'.repeat(filler) }, { a: 1 }], validBytes: buf.length });
      }
    }
  });

  it('a last record cut anywhere, or partly written into space allocated ahead, is a torn tail at its offset', () => {
    const intact = records({ a: 1 }, { b: 2 });
    const last = frame({ c: 'the record being written when the process died' });
    for (const cut of [1, 10, 17, 18, 30, last.length - 1]) {
      const scan = scanRecords(Buffer.concat([intact, last.subarray(0, cut)]));
      expect(scan.records).toEqual([{ a: 1 }, { b: 2 }]);
      expect(scan.torn?.offset).toBe(intact.length);
    }
    // Zeros alone are space allocated ahead, not a record.
    expect(scanRecords(Buffer.concat([intact, Buffer.alloc(300)]))).toEqual({ records: [{ a: 1 }, { b: 2 }], validBytes: intact.length });
    const holes = Buffer.concat([intact, last, Buffer.alloc(300)]);
    holes.fill(0, intact.length + 20, intact.length + 30);
    expect(scanRecords(holes).torn).toEqual({ offset: intact.length, reason: 'checksum mismatch' });
    const flipped = Buffer.concat([intact, last]);
    flipped[flipped.length - 5]! ^= 0x01;
    expect(scanRecords(flipped).torn).toEqual({ offset: intact.length, reason: 'checksum mismatch' });
  });

  it('the last two records may be torn (two wait for their fsync at once): both are dropped', () => {
    const buf = records({ a: 1 }, { b: 2 }, { c: 3 });
    const second = frame({ a: 1 }).length;
    // A power cut can persist the last record and not the one before it.
    buf.fill(0, second + 20, second + 24);
    expect(scanRecords(buf)).toEqual({ records: [{ a: 1 }], validBytes: second, torn: { offset: second, reason: 'checksum mismatch' } });
  });

  it('damage with more intact records after it than can be unsynced is corruption, never a torn tail', () => {
    const buf = records({ a: 1 }, { b: 2 }, { c: 3 }, { d: 4 });
    const second = frame({ a: 1 }).length;
    buf[second + 20]! ^= 0x01;
    expect(() => scanRecords(buf)).toThrow(CorruptRecord);
    expect(() => scanRecords(buf)).toThrow(`offset ${second}: checksum mismatch`);
  });
});

describe('state file', () => {
  it('refuses another format version, a foreign file and mid-file damage, and leaves each untouched', () => {
    const cases: [string, Buffer, string][] = [
      ['newer.db', records({ format: 'compute-contract-state', version: 3 }), 'format version 3'],
      ['foreign.db', records({ hello: 'world' }), 'not a compute-contract state file'],
      ['text.db', Buffer.from('just some text\nmore text\n'), 'has no intact header record'],
      ['json.db', Buffer.from('{"version": 7}'), 'format version 7'],
    ];
    const damaged = records({ format: 'compute-contract-state', version: 2 }, { c: 1, ch: [['pods', 'p1', { id: 'p1' }]] }, { c: 2, ch: [] });
    damaged[damaged.length - 40]! ^= 0x20;
    damaged[30]! ^= 0x20;
    cases.push(['damaged.db', damaged, 'is damaged (corrupt record at byte offset 0']);
    for (const [name, content, message] of cases) {
      const file = join(dir, name);
      writeFileSync(file, content);
      let error: unknown;
      try {
        loadStateFile(file, quiet);
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(StateFileError);
      expect((error as StateFileError).exitCode).toBe(2);
      expect((error as Error).message, name).toContain(message);
      expect(readFileSync(file).equals(content), `${name} untouched`).toBe(true);
    }
  });

  it('drops a torn tail with one warning naming file and offset, and cuts it off so appending continues cleanly', () => {
    const file = join(dir, 'torn.db');
    const intact = records({ format: 'compute-contract-state', version: 2 }, { c: 5, ch: [['pods', 'p1', { id: 'p1' }]] });
    writeFileSync(file, Buffer.concat([intact, frame({ c: 6, ch: [['pods', 'p2', { id: 'p2' }]] }).subarray(0, 25)]));
    const warnings: string[] = [];
    const loaded = loadStateFile(file, { warn: (line) => warnings.push(line) });
    expect([...loaded.image.kinds.get('pods')!.keys()]).toEqual(['p1']);
    expect(loaded.image.clock).toBe(5);
    expect(warnings).toEqual([`${file}: dropped a torn tail at byte offset ${intact.length} (incomplete record); nothing in it was acknowledged`]);
    expect(statSync(file).size).toBe(intact.length);
  });

  it('removes the temporary file of a compaction a killed process never finished', () => {
    const file = join(dir, 'state.db');
    writeFileSync(file, records({ format: 'compute-contract-state', version: 2 }));
    writeFileSync(`${file}.4242.tmp`, 'half a compaction');
    writeFileSync(join(dir, 'other.db.4242.tmp'), 'not ours');
    loadStateFile(file, quiet);
    expect(readdirSync(dir).sort()).toEqual(['other.db.4242.tmp', 'state.db']);
  });

  it('converts a JSON state file of format 1 (before the journal) once', async () => {
    const file = join(dir, 'old.json');
    writeFileSync(file, JSON.stringify({
      version: 1, savedAt: 0, clockNow: 1_700_000_000_000,
      store: { pods: [], endpoints: [], templates: [{ id: 't1', name: 'old', imageName: 'img:1' }], networkVolumes: [], registryAuths: [], secrets: [], clusters: [], sshKeys: ['ssh-ed25519 AAAA'] },
      jobs: [], endpointBilledMs: {}, webhooks: { log: [], pending: [] },
    }));
    const h = await Harness.start({ stateFile: file });
    try {
      expect(h.mock.clock.now()).toBe(1_700_000_000_000);
      expect((await h.rest('GET', '/templates/t1')).body).toMatchObject({ name: 'old', imageName: 'img:1' });
      expect(h.mock.core.store.sshKeys).toEqual(['ssh-ed25519 AAAA']);
    } finally {
      await h.close();
    }
    expect(readFileSync(file, 'latin1').slice(18, 60)).toContain('"format":"compute-contract-state"');
  });
});

describe('journal', () => {
  it('answers only after the change is on disk, and concurrent changes share flushes (group commit)', async () => {
    const file = join(dir, 'state.db');
    const h = await Harness.start({ stateFile: file });
    const sync = journalFs.fdatasync;
    try {
      // Records, not the file's size: room ahead of the records may be prepared at any idle moment.
      const recordsBefore = recordBytes(file);
      const created = await h.rest('POST', '/templates', { name: 'one', imageName: 'img:1' });
      expect(created.status).toBe(200);
      // The answer arrived: the record holding the template is in the file already.
      expect(readFileSync(file, 'utf8')).toContain(`"${created.body.id}"`);
      expect(recordBytes(file)).toBeGreaterThan(recordsBefore);
      const journal = h.mock.stateJournal!;
      const flushesBefore = journal.stats.flushes;
      // A disk slower than the requests: fdatasync completions are held until all 40 changes are made (else a
      // fast disk finishes each flush before the next request arrives, and every change has a flush of its own).
      const held: (() => void)[] = [];
      let holding = true;
      journalFs.fdatasync = ((fd: number, done: (error: NodeJS.ErrnoException | null) => void) =>
        sync(fd, (error) => (holding ? held.push(() => done(error)) : done(error)))) as typeof fdatasync;
      const pending = Promise.all(Array.from({ length: 40 }, (_, i) => h.rest('POST', '/templates', { name: `t${i}`, imageName: 'img:1' })));
      const made = () => Array.from({ length: 40 }, (_, i) => h.mock.core.store.templateByName(`t${i}`)).every(Boolean);
      for (const started = Date.now(); !made() && Date.now() - started < 10_000;) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(made(), 'all 40 changes made while their flushes are held').toBe(true);
      holding = false;
      for (const release of held.splice(0)) release();
      const answers = await pending;
      expect(answers.every((a) => a.status === 200)).toBe(true);
      // At most MAX_UNSYNCED_RECORDS records were in flight while held; every other change waits for the next one.
      expect(journal.stats.flushes - flushesBefore).toBeLessThanOrEqual(MAX_UNSYNCED_RECORDS + 1);
    } finally {
      journalFs.fdatasync = sync;
      await h.close();
    }
  });

  it('a record changed in place after get() by a state-changing request is journaled without a touch()', async () => {
    const file = join(dir, 'state.db');
    const h = await Harness.start({ stateFile: file });
    try {
      const saved = await h.graphql('mutation { saveRegistryAuth(input: {name: "r", username: "first-user", password: "p1"}) { id name } }');
      const id = saved.body.data.saveRegistryAuth.id as string;
      // store.updateRegistryAuth edits the stored record in place (no set(), no touch()).
      const updated = await h.graphql(`mutation { updateRegistryAuth(input: {id: "${id}", username: "second-user", password: "p2"}) { id name } }`);
      expect(updated.body.errors).toBeUndefined();
      expect(readFileSync(file, 'utf8')).toContain('"second-user"');
    } finally {
      await h.close();
    }
  });

  it('compacts when the appended records outgrow the state, and the compacted file reads back the same', async () => {
    const file = join(dir, 'state.db');
    const h = await Harness.start({ stateFile: file });
    try {
      const journal = h.mock.stateJournal!;
      journal.compactMinBytes = 2_000;
      const id = (await h.rest('POST', '/templates', { name: 'kept', imageName: 'img:1' })).body.id;
      for (let i = 0; i < 60; i++) expect((await h.rest('POST', `/templates/${id}/update`, { readme: `r${i}` })).status).toBe(200);
      expect(journal.stats.compactions).toBeGreaterThan(0);
      // Disk holds the state, not the history: far less than 60 full copies of the template (zero
      // bytes allocated ahead of the records aside).
      expect(recordBytes(file)).toBeLessThan(8_000);
      await h.advance(1234);
      const clock = h.mock.clock.now();
      await h.close();
      const again = await Harness.start({ stateFile: file });
      try {
        expect((await again.rest('GET', `/templates/${id}`)).body.readme).toBe('r59');
        expect(again.mock.clock.now()).toBe(clock);
      } finally {
        await again.close();
      }
    } finally {
      await h.close();
    }
  });

  it('one mock per state file, in one process too: a second start is refused, and the file is free again after close', async () => {
    const file = join(dir, 'state.db');
    const h = await Harness.start({ stateFile: file });
    try {
      await expect(startMock({ stateFile: file })).rejects.toThrow(new StateFileError(
        `state file ${file} is in use by this process (another mock in it) (lock ${file}.lock); one mock per state file — stop that mock first, or delete the lock file if no mock uses the state file`,
      ));
    } finally {
      await h.close();
    }
    const again = await startMock({ stateFile: file });
    await again.close();
  });

  it('a failed write that cannot even be undone (the file cannot be cut back) answers 503, then refuses every request without crashing', async () => {
    const file = join(dir, 'state.db');
    const h = await Harness.start({ stateFile: file });
    try {
      const journal = h.mock.stateJournal! as unknown as { fd: number };
      // Appending to a descriptor opened read-only fails as a full or read-only disk would.
      const appendFd = journal.fd;
      journal.fd = openSync(file, 'r');
      const post = (body: unknown) => fetch(`${h.mock.restV1Url}/templates`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const refused = await post({ name: 'lost', imageName: 'img:1' });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { message: string }).message).toContain(`cannot write state file ${file}`);
      expect((await fetch(`${h.mock.restV1Url}/templates`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(503);
      closeSync(appendFd);
    } finally {
      await h.close();
    }
    const again = await Harness.start({ stateFile: file });
    try {
      expect((await again.rest('GET', '/templates')).body).toEqual([]);
    } finally {
      await again.close();
    }
  });
});
