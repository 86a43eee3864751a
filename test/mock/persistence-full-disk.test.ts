// A full disk degrades, it does not stop: a write whose record cannot be kept (ENOSPC, EFBIG, a transient
// EIO) is refused (507, or 503 for EIO) naming the file and the reason, and undone; reads are answered
// meanwhile, writes resume once the disk takes them again, and after a restart the refused change is
// absent while every acknowledged one is there. The disk fails through the journal's file layer (fs-ops.ts),
// and a real 1 MiB tmpfs is filled where the test runs as root.
import { spawnSync } from 'node:child_process';
import { closeSync, fdatasync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalFs } from '../../src/mock/state-journal/fs-ops.js';
import { callJson, stateMocks } from './state-harness.js';

const KEY = 'k';
const mocks = stateMocks('mock-full-disk-', { clock: 'virtual', apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }] });

/** From now on every append (or every fdatasync) fails with `code`, until `heal()`. */
let failing: { code: string; at: 'write' | 'sync' } | undefined;
const systemError = (code: string) => Object.assign(new Error(`${code}: simulated, write`), { code, errno: -28, syscall: 'write' });
journalFs.writeSync = ((...args: Parameters<typeof writeSync>) => {
  if (failing?.at === 'write') throw systemError(failing.code);
  return writeSync(...args);
}) as typeof writeSync;
journalFs.fdatasync = ((fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
  if (failing?.at === 'sync') return setImmediate(() => done(systemError(failing!.code)));
  return fdatasync(fd, done);
}) as typeof fdatasync;
afterEach(() => void (failing = undefined));

const templates = async (base: string) => ((await callJson('GET', `${base}/templates`, KEY)).body as { name: string }[]).map((t) => t.name).sort();

describe('STATE-FULL-DISK: a write that cannot be kept is refused alone', () => {
  it.each([
    ['ENOSPC', 'write', 507],
    ['EFBIG', 'write', 507],
    ['EIO', 'sync', 503],
  ] as const)('%s at %s: %i naming the file and reason, reads answered, writes resume, the refused change absent after restart', async (code, at, status) => {
    const file = mocks.path('state.db');
    let mock = await mocks.start(file);
    const v1 = mock.restV1Url;
    expect((await callJson('POST', `${v1}/templates`, KEY, { name: 'kept-before', imageName: 'img:1' })).status).toBe(200);

    failing = { code, at };
    const refused = await callJson('POST', `${v1}/templates`, KEY, { name: 'refused', imageName: 'img:1' });
    expect(refused.status).toBe(status);
    expect(refused.body.message).toContain(file);
    expect(refused.body.message).toContain(code);
    // Nothing of it was kept in memory either: reads answer without it, and its name is free again.
    const read = await callJson('GET', `${v1}/templates`, KEY);
    expect(read.status).toBe(200);
    expect(await templates(v1)).toEqual(['kept-before']);
    const endpoint = await callJson('POST', `${v1}/endpoints`, KEY, { name: 'e', templateId: 'missing' });
    expect(endpoint.status).not.toBe(200);

    failing = undefined;
    expect((await callJson('POST', `${v1}/templates`, KEY, { name: 'refused', imageName: 'img:2' })).status).toBe(200);
    expect((await callJson('POST', `${v1}/templates`, KEY, { name: 'kept-after', imageName: 'img:1' })).status).toBe(200);

    mock = await mocks.restart(file);
    const restored = await callJson('GET', `${mock.restV1Url}/templates`, KEY);
    expect((restored.body as { name: string; imageName: string }[]).map((t) => [t.name, t.imageName]).sort()).toEqual([
      ['kept-after', 'img:1'], ['kept-before', 'img:1'], ['refused', 'img:2'],
    ]);
  });

  it('a refused update leaves the kept value; a refused /run leaves no job; a refused delete leaves the record', async () => {
    const file = mocks.path('state.db');
    let mock = await mocks.start(file);
    const v1 = mock.restV1Url;
    const template = (await callJson('POST', `${v1}/templates`, KEY, { name: 't', imageName: 'img:1' })).body;
    const endpoint = (await callJson('POST', `${v1}/endpoints`, KEY, { name: 'e', templateId: template.id, workersMax: 1 })).body;
    const volume = (await callJson('POST', `${v1}/networkvolumes`, KEY, { name: 'v', size: 10, dataCenterId: 'EU-RO-1' })).body;
    expect(volume.id).toBeDefined();

    failing = { code: 'ENOSPC', at: 'write' };
    expect((await callJson('PATCH', `${v1}/templates/${template.id}`, KEY, { imageName: 'img:refused' })).status).toBe(507);
    expect((await callJson('DELETE', `${v1}/networkvolumes/${volume.id}`, KEY)).status).toBe(507);
    const run = await callJson('POST', `${mock.queueV2Url(endpoint.id)}/run`, KEY, { input: { n: 1 } });
    expect(run.status).toBe(507);
    expect((await callJson('GET', `${v1}/templates/${template.id}`, KEY)).body.imageName).toBe('img:1');
    expect((await callJson('GET', `${v1}/networkvolumes/${volume.id}`, KEY)).status).toBe(200);
    expect(mock.core.engine.jobCount).toBe(0);

    failing = undefined;
    expect((await callJson('PATCH', `${v1}/templates/${template.id}`, KEY, { imageName: 'img:2' })).status).toBe(200);
    mock = await mocks.restart(file);
    expect((await callJson('GET', `${mock.restV1Url}/templates/${template.id}`, KEY)).body.imageName).toBe('img:2');
    expect((await callJson('GET', `${mock.restV1Url}/networkvolumes/${volume.id}`, KEY)).status).toBe(200);
    expect(mock.core.engine.jobCount).toBe(0);
  });
});

/**
 * A small file system the test fills and frees: a 1 MiB tmpfs where this runs as root, else the journal's
 * file layer failing with ENOSPC (the same scenario, the disk simulated).
 */
function smallDisk(dir: string): { real: boolean; fill(): void; free(): void; release(): void } {
  if (process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]).status === 0) {
    const filler = join(dir, 'filler');
    return {
      real: true,
      fill() {
        // Every page left, until the kernel says ENOSPC.
        const fd = openSync(filler, 'a');
        try {
          for (;;) writeSync(fd, Buffer.alloc(4096, 1));
        } catch (error) {
          expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
        } finally {
          closeSync(fd);
        }
      },
      free: () => rmSync(filler),
      release: () => void spawnSync('umount', [dir]),
    };
  }
  return { real: false, fill: () => void (failing = { code: 'ENOSPC', at: 'write' }), free: () => void (failing = undefined), release() {} };
}

describe('STATE-FULL-DISK: a small file system fills up', () => {
  it('templates written until one is refused: reads go on, writes resume once space returns, nothing acknowledged lost', async () => {
    const dir = mocks.path('disk');
    mkdirSync(dir);
    const disk = smallDisk(dir);
    try {
      const file = join(dir, 'state.db');
      let mock = await mocks.start(file);
      const v1 = mock.restV1Url;
      const acknowledged: string[] = [];
      disk.fill();
      let refused: { status: number; body: { message: string } } | undefined;
      for (let i = 0; i < 400 && !refused; i++) {
        const answer = await callJson('POST', `${v1}/templates`, KEY, { name: `t${i}`, imageName: 'img:1', readme: 'r'.repeat(400) });
        if (answer.status === 200) acknowledged.push(answer.body.name);
        else refused = answer;
      }
      expect(refused?.status).toBe(507);
      expect(refused?.body.message).toContain(`cannot write state file ${file}: ENOSPC`);
      for (let i = 0; i < 3; i++) expect(await templates(v1)).toEqual([...acknowledged].sort());
      disk.free();
      const resumed = await callJson('POST', `${v1}/templates`, KEY, { name: 'after-space-returned', imageName: 'img:1' });
      expect(resumed.status).toBe(200);
      mock = await mocks.restart(file);
      expect(await templates(mock.restV1Url)).toEqual([...acknowledged, 'after-space-returned'].sort());
    } finally {
      await mocks.mock?.close();
      disk.release();
    }
  });
});
