// `compute-contract docs` builds HTML for every surface and the rule catalogue from the specs.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runDocsCommand } from '../../src/cli/docs-command.js';
import { rules } from '../../generated/rules.js';

const out = await mkdtemp(join(tmpdir(), 'cc-docs-'));
afterAll(() => rm(out, { recursive: true, force: true }));

it('docs: one page per surface plus the rule catalogue, built from the specs', async () => {
  expect(await runDocsCommand(['--out', out])).toBe(0);
  expect(await readFile(join(out, 'queue-v2.html'), 'utf8')).toContain('runJobSync');
  expect(await readFile(join(out, 'rest-v1.html'), 'utf8')).toContain('createContainerRegistryAuth');
  expect(await readFile(join(out, 'graphql.html'), 'utf8')).toContain('saveTemplate');
  const catalogue = await readFile(join(out, 'rules.html'), 'utf8');
  for (const rule of rules) expect(catalogue).toContain(rule.id);
});
