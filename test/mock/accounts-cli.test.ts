// `KEY[:SCOPES][@ACCOUNT]` on --api-key, per --keys-file line and in startMock(): parsing, and bad input
// (empty account, account over its bound, one key in two accounts, a malformed key-file line) → one
// clear line and exit 2 before anything starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseMockArgs, runMockCommand } from '../../src/cli/mock-command.js';
import { MAX_ACCOUNT_NAME_LENGTH } from '../../src/mock/accounts.js';
import { parseKeySpec } from '../../src/mock/auth.js';
import { startMock, type MockOptions } from '../../src/mock/index.js';

const ALL = ['read', 'write', 'jobs', 'graphql'];

afterEach(() => vi.restoreAllMocks());

/** Runs the mock command expecting it to stop before starting; returns its exit code and stderr. */
async function refused(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const code = await runMockCommand(['--port', '0', ...argv]);
  return { code, stderr };
}

describe('key specs with accounts', () => {
  it('KEY, KEY:SCOPES, KEY@ACCOUNT and KEY:SCOPES@ACCOUNT; an @ followed by a colon stays part of the key', () => {
    expect(parseKeySpec('k')).toEqual({ key: 'k', scopes: ALL });
    expect(parseKeySpec('k:read')).toEqual({ key: 'k', scopes: ['read'] });
    expect(parseKeySpec('k@acme')).toEqual({ key: 'k', scopes: ALL, account: 'acme' });
    expect(parseKeySpec('k:read,jobs@team-2.eu')).toEqual({ key: 'k', scopes: ['read', 'jobs'], account: 'team-2.eu' });
    expect(parseKeySpec('me@host:read')).toEqual({ key: 'me@host', scopes: ['read'] });
  });

  it('--api-key and --keys-file lines carry accounts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'accounts-cli-'));
    try {
      const file = join(dir, 'keys');
      writeFileSync(file, '# two accounts\nfile-a:read@alpha\n\nfile-b@beta\n');
      expect((parseMockArgs(['--api-key', 'x@alpha', '--keys-file', file]) as MockOptions).apiKeys).toEqual([
        { key: 'x', scopes: ALL, account: 'alpha' },
        { key: 'file-a', scopes: ['read'], account: 'alpha' },
        { key: 'file-b', scopes: ALL, account: 'beta' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an empty account name after @ → one line naming it, exit 2', async () => {
    const { code, stderr } = await refused(['--api-key', 'secret-key@']);
    expect(code).toBe(2);
    expect(stderr).toBe("compute-contract mock: --api-key '***@': the account name after @ is empty (key spec KEY[:SCOPES][@ACCOUNT])\n");
    expect(stderr).not.toContain('secret-key');
  });

  it(`an account name over ${MAX_ACCOUNT_NAME_LENGTH} characters → exit 2 naming the bound`, async () => {
    const { code, stderr } = await refused(['--api-key', `k@${'a'.repeat(MAX_ACCOUNT_NAME_LENGTH + 1)}`]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`at most ${MAX_ACCOUNT_NAME_LENGTH} are allowed`);
    expect(parseKeySpec(`k@${'a'.repeat(MAX_ACCOUNT_NAME_LENGTH)}`).account).toHaveLength(MAX_ACCOUNT_NAME_LENGTH);
  });

  it('the same key given for two accounts → exit 2 (also through startMock)', async () => {
    const { code, stderr } = await refused(['--api-key', 'shared@alpha', '--api-key', 'shared@beta']);
    expect(code).toBe(2);
    expect(stderr).toBe("compute-contract mock: the same API key is given for two accounts ('alpha' and 'beta'); a key belongs to one account\n");
    await expect(startMock({ apiKeys: [{ key: 'k', scopes: ALL as never }, { key: 'k', scopes: ALL as never, account: 'beta' }] })).rejects.toThrow(/two accounts/);
    await expect(startMock({ apiKeys: [{ key: 'k', scopes: ALL as never, account: '' }] })).rejects.toThrow(/empty/);
  });

  it('a malformed key-file line names its line number', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'accounts-cli-'));
    try {
      const file = join(dir, 'keys');
      writeFileSync(file, 'good@alpha\n# comment\nbad:admin@alpha\n');
      const { code, stderr } = await refused(['--keys-file', file]);
      expect(code).toBe(2);
      expect(stderr).toBe(`compute-contract mock: --keys-file ${file} line 3: unknown scope 'admin' (known: read, write, jobs, graphql)\n`);
      writeFileSync(file, 'good@alpha\nbad@acme corp\n');
      expect((await refused(['--keys-file', file])).stderr).toContain(`--keys-file ${file} line 2: the account name 'acme corp' may hold only`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
