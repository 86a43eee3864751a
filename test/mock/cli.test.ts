import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../src/cli/mock-command.js';
import { TestBundle } from '../support/bundle.js';

/** The command bundled once (a child through `node --import tsx` transpiles the mock anew: ~2 s of CPU). */
const command = new TestBundle('cli-mock', { file: 'src/cli/mock-command.ts' }, { selfContained: true });
beforeAll(() => command.build());
afterAll(() => command.remove());

describe('compute-contract mock CLI', () => {
  it('parses every flag', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-cli-'));
    try {
      const keysFile = join(dir, 'keys');
      writeFileSync(keysFile, '# keys\nfile-key:read\n');
      const options = parseMockArgs([
        '--port', '0', '--host', '127.0.0.1', '--api-key', 'a', '--api-key', 'b:jobs,read', '--keys-file', keysFile,
        '--clock', 'virtual', '--control', '--rate-limits', '0.5', '--requests-per-worker', '7', '--job-duration', '5',
        '--template-delete-delay', '1000', '--fault', 'no-429', '--fault', 'retry-new-id', '--state', 's.json', '--log',
      ]);
      expect(options).toEqual({
        port: 0, host: '127.0.0.1',
        apiKeys: [
          { key: 'a', scopes: ['read', 'write', 'jobs', 'graphql'] },
          { key: 'b', scopes: ['jobs', 'read'] },
          { key: 'file-key', scopes: ['read'] },
        ],
        clock: 'virtual', control: true, rateLimits: 0.5, requestsPerWorkerPer10s: 7, jobDurationMs: 5,
        templateDeleteDelayMs: 1000, faults: ['no-429', 'retry-new-id'], stateFile: 's.json', log: true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses unknown faults, scopes and flags', () => {
    expect(() => parseMockArgs(['--fault', 'nope'])).toThrow(/unknown fault/);
    expect(() => parseMockArgs(['--api-key', 'k:admin'])).toThrow(/unknown scope/);
    expect(() => parseMockArgs(['--bogus'])).toThrow();
    expect(parseMockArgs(['--rate-limits', 'off'])).toMatchObject({ rateLimits: false });
  });

  it('prints the three base URLs and shuts down cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [command.file, '--port', '0', '--api-key', 'k'], {
      cwd: new URL('../..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('GraphQL:')) resolve();
      });
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    expect(out).toMatch(/REST v1: +http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(out).toMatch(/queue v2: +http:\/\/127\.0\.0\.1:\d+\/v2\/\{endpointId\}/);
    const rest = /REST v1: +(\S+)/.exec(out)![1]!;
    expect((await fetch(`${rest}/pods`, { headers: { authorization: 'Bearer k' } })).status).toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});
