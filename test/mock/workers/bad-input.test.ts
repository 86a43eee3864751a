// Bad worker options stop the start with one clear line and exit code 2 (issue 29 "Bad input").
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkers, parseWorkerFlags } from '../../../src/mock/simulated-workers/load.js';
import { startMock, WorkerSetupError } from '../../../src/mock/index.js';
import { TestBundle } from '../../support/bundle.js';

/** The command bundled once (a child through `node --import tsx` transpiles the mock anew: ~2 s of CPU). */
const command = new TestBundle('cli-mock-workers', { file: 'src/cli/mock-command.ts' }, { selfContained: true });

let dir: string;
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
beforeAll(async () => {
  await command.build();
  dir = mkdtempSync(join(tmpdir(), 'workers-bad-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  command.remove();
});

const refusal = async (definition: Parameters<typeof loadWorkers>[0]) => {
  const error = await loadWorkers(definition).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkerSetupError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
};

describe('worker options that stop the start', () => {
  it('a MODULE that does not exist', async () => {
    expect(await refusal({ w: join(dir, 'missing.mjs') })).toMatch(/^--worker w=.*missing\.mjs: cannot load the module \(no such module\)$/);
  });

  it('a MODULE without a default export function', async () => {
    expect(await refusal({ w: file('named.mjs', 'export const handler = () => 1;\n') })).toContain('has no default export function');
  });

  it('a MODULE that throws on import', async () => {
    expect(await refusal({ w: file('throws.mjs', "throw new Error('boom at import');\n") })).toContain('it threw on import: boom at import');
  });

  it('a stubs file that is not valid JSON, or breaks the schema', async () => {
    expect(await refusal({ w: file('broken.json', '[{"output": 1}') })).toContain('not valid JSON');
    expect(await refusal({ w: file('schema.json', '[{"durationMs": -1}]') })).toContain('rules[0].durationMs must be an integer');
    expect(await refusal({ w: [{ output: 1, nope: 2 } as never] })).toContain('rules[0].nope is not a rule field');
  });

  it('a process worker: exec: with an empty command, a FILE.py that does not exist', async () => {
    expect(await refusal({ w: 'exec:   ' })).toBe('--worker w=exec: the command is empty (exec:COMMAND, e.g. exec:python3 handler.py)');
    expect(await refusal({ w: join(dir, 'missing.py') })).toMatch(/^--worker w=.*missing\.py: no such file$/);
    mkdirSync(join(dir, 'folder.py'));
    expect(await refusal({ w: join(dir, 'folder.py') }), 'a folder is no file').toMatch(/folder\.py: no such file$/);
  });

  it('a NAME given twice', () => {
    expect(() => parseWorkerFlags(['a=x.mjs', 'a=y.json'])).toThrow(new WorkerSetupError('--worker a: the endpoint name a is given twice'));
    expect(() => parseWorkerFlags(['noequals'])).toThrow(/expected NAME=MODULE/);
  });

  it('startMock() refuses before listening', async () => {
    await expect(startMock({ port: 0, workers: { w: join(dir, 'missing.mjs') } })).rejects.toBeInstanceOf(WorkerSetupError);
  });

  it('the CLI says it in one line and exits 2', () => {
    const root = new URL('../../..', import.meta.url).pathname;
    const run = (...args: string[]) => spawnSync(process.execPath, [command.file, '--port', '0', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const missing = run('--worker', `w=${join(dir, 'missing.mjs')}`);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('cannot load the module');
    const twice = run('--worker', 'a=x.json', '--worker', 'a=y.json');
    expect(twice.status).toBe(2);
    expect(twice.stderr.trim()).toBe('compute-contract mock: --worker a: the endpoint name a is given twice');
  });
});
