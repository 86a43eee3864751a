// `compute-contract docs` writes the self-contained site: a page per surface, GraphQL, the rule catalogue,
// the migration map and every Markdown page, with bundled assets only; bad flags are usage errors.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { runDocsCommand } from '../../src/cli/docs-command.js';
import { rules } from '../../generated/rules.js';

const out = await mkdtemp(join(tmpdir(), 'cc-docs-'));
afterAll(() => rm(out, { recursive: true, force: true }));

it('docs: one page per surface plus GraphQL, rules, migration and the Markdown pages, built from the specs', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  expect(await runDocsCommand(['--out', out])).toBe(0);
  expect(log.mock.calls.flat().join('\n')).toMatch(/docs written to .*: \d+ pages, \d+ KiB/);
  log.mockRestore();
  expect(await readFile(join(out, 'queue-v2.html'), 'utf8')).toContain('runJobSync');
  expect(await readFile(join(out, 'rest-v1.html'), 'utf8')).toContain('createContainerRegistryAuth');
  expect(await readFile(join(out, 'rest-v2.html'), 'utf8')).toContain('listClusterBilling');
  expect(await readFile(join(out, 'graphql.html'), 'utf8')).toContain('saveTemplate');
  expect(await readFile(join(out, 'migration.html'), 'utf8')).toContain('updatePodViaPost');
  const catalogue = await readFile(join(out, 'rules.html'), 'utf8');
  for (const rule of rules) expect(catalogue).toContain(rule.id);
  expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('npm ci');
  expect((await readdir(join(out, 'docs'))).length).toBeGreaterThan(0);
  expect((await readdir(join(out, 'assets'))).sort()).toEqual(['search-index.js', 'site.css', 'site.js']);
});

it('docs: unknown flags and an empty --out are usage errors (exit 2), --help exits 0', async () => {
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const std = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    expect(await runDocsCommand(['--bogus'])).toBe(2);
    expect(await runDocsCommand(['--out'])).toBe(2);
    expect(await runDocsCommand(['--out', ''])).toBe(2);
    expect(String(err.mock.calls.at(-1)?.[0])).toContain('--out needs a directory');
    expect(await runDocsCommand(['--help'])).toBe(0);
    expect(String(std.mock.calls.at(-1)?.[0])).toContain('Usage: compute-contract docs');
  } finally {
    err.mockRestore();
    std.mockRestore();
  }
});
