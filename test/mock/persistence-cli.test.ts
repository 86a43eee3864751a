// `compute-contract mock --state FILE` as a process: a torn tail is dropped with one warning line, any other
// damage or an unusable location stops the start with exit code 2 and a clear message (the file left
// as it was), and a file that cannot grow while running refuses only the writes it cannot keep (507).
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frame } from '../../src/mock/state-journal/framing.js';
import { bundleChild, call, removeBundle, runToExit, startChild } from './state-child.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mock-state-cli-'));
  await bundleChild();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeBundle();
});

/** The file without the zero bytes of room the journal allocates ahead (it may grow while idle). */
const records = (file: string) => {
  const bytes = readFileSync(file);
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.subarray(0, end);
};
const warningLines = (stderr: string) => stderr.split('\n').filter((line) => line.includes('state file') || line.includes('torn'));

/** A bound, not a goal: a test starts up to three child processes one after another on 2 shared cores. */
const PROCESS_TEST_TIMEOUT_MS = 60_000;

describe('mock --state as a process', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('drops a torn last record with one warning line naming the file and offset; earlier changes stay', async () => {
    const file = join(dir, 'torn.db');
    const first = await startChild(file);
    const kept = await call('POST', `${first.restV1}/templates`, { name: 'kept', imageName: 'img:1' });
    expect(kept.status).toBe(200);
    await first.kill();
    // The records, without the zero bytes the journal allocated ahead.
    const records = readFileSync(file);
    let intact = records.length;
    while (records[intact - 1] === 0) intact--;
    writeFileSync(file, records.subarray(0, intact));
    appendFileSync(file, frame({ c: 0, ch: [['templates', 'x', { id: 'x', name: 'half', imageName: 'i' }]] }).subarray(0, 40));
    const second = await startChild(file);
    try {
      const templates = (await call('GET', `${second.restV1}/templates`)).body as { name: string }[];
      expect(templates.map((t) => t.name)).toEqual(['kept']);
      expect(warningLines(second.stderr())).toEqual([
        `${file}: dropped a torn tail at byte offset ${intact} (incomplete record); nothing in it was acknowledged`,
      ]);
      expect((await call('POST', `${second.restV1}/templates`, { name: 'after', imageName: 'img:2' })).status).toBe(200);
    } finally {
      await second.kill();
    }
    const third = await startChild(file);
    try {
      expect(((await call('GET', `${third.restV1}/templates`)).body as { name: string }[]).map((t) => t.name).sort()).toEqual(['after', 'kept']);
      expect(warningLines(third.stderr())).toEqual([]);
    } finally {
      await third.kill();
    }
  });

  it('one mock per state file: a second start stops with exit code 2, a killed mock\'s lock is taken over, a clean stop removes it', async () => {
    const file = join(dir, 'shared.db');
    const lock = `${file}.lock`;
    const first = await startChild(file);
    try {
      expect(readFileSync(lock, 'utf8').trim()).toBe(String(first.proc.pid));
      expect((await call('POST', `${first.restV1}/templates`, { name: 'first', imageName: 'img:1' })).status).toBe(200);
      const before = records(file);
      const second = await runToExit(file);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`state file ${file} is in use by process ${first.proc.pid} (lock ${lock})`);
      expect(second.stderr).not.toContain('    at ');
      // The refused start read nothing of it, let alone cut it (the records are as they were).
      expect(records(file).equals(before)).toBe(true);
      expect((await call('POST', `${first.restV1}/templates`, { name: 'still served', imageName: 'img:1' })).status).toBe(200);
    } finally {
      await first.kill();
    }
    // SIGKILL left the lock of a process that is gone: the next start takes it over.
    expect(existsSync(lock)).toBe(true);
    const third = await startChild(file);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(third.proc.pid));
    expect(((await call('GET', `${third.restV1}/templates`)).body as { name: string }[]).map((t) => t.name).sort()).toEqual(['first', 'still served']);
    third.proc.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });

  it('damage before the last record: exit code 2, a clear message, the file byte for byte as it was', async () => {
    const file = join(dir, 'corrupt.db');
    const first = await startChild(file);
    for (const name of ['a', 'b', 'c']) expect((await call('POST', `${first.restV1}/templates`, { name, imageName: 'img:1' })).status).toBe(200);
    await first.kill();
    const bytes = readFileSync(file);
    bytes[80]! ^= 0x01;
    writeFileSync(file, bytes);
    const run = await runToExit(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`compute-contract mock: state file ${file} is damaged (corrupt record at byte offset`);
    expect(run.stderr).toContain('it was left untouched');
    expect(run.stderr).not.toContain('    at ');
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a state file another format version wrote: exit code 2, the file untouched', async () => {
    const file = join(dir, 'future.db');
    const content = Buffer.concat([frame({ format: 'compute-contract-state', version: 99 }), frame({ c: 0, ch: [] })]);
    writeFileSync(file, content);
    const run = await runToExit(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`state file ${file} has format version 99; this version of compute-contract reads version 2`);
    expect(readFileSync(file).equals(content)).toBe(true);
  });

  it('an endpoint whose id is a REST v2 collection name (unreachable on queue v2): exit code 2, the file untouched', async () => {
    const file = join(dir, 'collection-id.db');
    const endpoint = { id: 'pods', name: 'hand-written', templateId: 't1', workersMin: 0, workersMax: 1 };
    const content = Buffer.concat([frame({ format: 'compute-contract-state', version: 2 }), frame({ c: 0, ch: [['endpoints', 'pods', endpoint]] })]);
    writeFileSync(file, content);
    const run = await runToExit(file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`state file ${file} holds an endpoint whose id "pods" is a REST v2 collection name`);
    expect(readFileSync(file).equals(content)).toBe(true);
  });

  it('a location that cannot be written (read-only directory, path through a file): exit code 2, no crash', async () => {
    const notADirectory = join(dir, 'plain-file');
    writeFileSync(notADirectory, 'x');
    // /sys refuses new files even to root; chmod would not stop a root test run.
    for (const file of ['/sys/compute-contract-state.db', join(notADirectory, 'state.db')]) {
      const run = await runToExit(file);
      expect(run.code, file).toBe(2);
      expect(run.stderr, file).toMatch(new RegExp(`^compute-contract mock: cannot (read|write) state file ${file.replace(/[.]/g, '\\.')}: E[A-Z]+: `));
      expect(run.stderr).not.toContain('    at ');
    }
  });

  it('a file that cannot grow (EFBIG): the refused write is a 507 naming the file, reads go on, acknowledged changes survive', async () => {
    const file = join(dir, 'full.db');
    // RLIMIT_FSIZE of 16 KiB stands in for a full disk (writes beyond it fail with EFBIG).
    const mock = await startChild(file, { fileSizeLimitKiB: 16 });
    const acknowledged: string[] = [];
    let refused: { status: number; body: { message: string } } | undefined;
    try {
      for (let i = 0; i < 200 && !refused; i++) {
        const answer = await call('POST', `${mock.restV1}/templates`, { name: `t${i}`, imageName: 'img:1', readme: 'r'.repeat(400) });
        if (answer.status === 200) acknowledged.push(answer.body.name);
        else refused = answer;
      }
      expect(refused?.status).toBe(507);
      expect(refused?.body.message).toContain(`cannot write state file ${file}: EFBIG`);
      // Still up, reads answered without the refused change, further writes that do not fit refused too; one stderr line.
      for (let i = 0; i < 3; i++) {
        const read = await call('GET', `${mock.restV1}/templates`);
        expect(read.status).toBe(200);
        expect((read.body as { name: string }[]).map((t) => t.name)).toEqual(acknowledged);
      }
      expect((await call('POST', `${mock.restV1}/templates`, { name: 'too-big', imageName: 'img:1', readme: 'r'.repeat(16_384) })).status).toBe(507);
      expect(mock.proc.exitCode).toBeNull();
      expect(warningLines(mock.stderr())).toHaveLength(1);
    } finally {
      await mock.kill();
    }
    expect(acknowledged.length).toBeGreaterThan(5);
    const again = await startChild(file);
    try {
      const names = ((await call('GET', `${again.restV1}/templates`)).body as { name: string }[]).map((t) => t.name);
      expect(names).toEqual(acknowledged);
    } finally {
      await again.kill();
    }
  });
});
