// The specs lint clean, and the lint rules really catch what they claim to.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectLintProblems } from '../scripts/lint/project-rules.js';

const root = new URL('..', import.meta.url).pathname;
const redocly = join(root, 'node_modules/.bin/redocly');
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
/** Redocly lint of every API of redocly.yaml, or of the one named (its alias there). */
const lint = (cwd: string, api?: string) => spawnSync(redocly, ['lint', ...(api ? [api] : []), '--format=stylish'], { cwd, env, encoding: 'utf8' });
const scratch = await mkdtemp(join(tmpdir(), 'cc-lint-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/**
 * A copy of specs/ + redocly.yaml with one file of `api` edited, that API linted with the project config
 * (the others are unchanged, and the first test lints them all).
 */
async function lintMutated(api: string, file: string, edit: (text: string) => string) {
  const dir = await mkdtemp(join(scratch, 'case-'));
  await cp(join(root, 'specs'), join(dir, 'specs'), { recursive: true });
  await cp(join(root, 'redocly.yaml'), join(dir, 'redocly.yaml'));
  const path = join(dir, 'specs', file);
  const before = await readFile(path, 'utf8');
  const after = edit(before);
  expect(after).not.toBe(before);
  await writeFile(path, after);
  const result = lint(dir, api);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('spec lint', () => {
  it('both OpenAPI specs pass Redocly lint with the project rules', () => {
    const result = lint(root);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it('project rules: extensions documented, provenance, examples, GraphQL valid', async () => {
    expect(await projectLintProblems()).toEqual([]);
  });

  it('an operation without a 401 response fails lint', async () => {
    const r = await lintMutated('queue-v2', 'queue-v2/paths/jobs/cancelJob.yaml', (t) => t.replace(/\n  '?401'?:\n[^\n]*\n/, '\n'));
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('rule/operation-401');
  });

  it('a queue operation without x-rate-limit fails lint', async () => {
    const r = await lintMutated('queue-v2', 'queue-v2/paths/jobs/cancelJob.yaml', (t) => t.replace('x-rate-limit:', 'x-rate-limit-removed:'));
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('rule/queue-operation-rate-limit');
  });

  it('a duplicated operationId fails lint', async () => {
    const r = await lintMutated('rest-v1', 'rest-v1/paths/pods/updatePodViaPost.yaml', (t) => t.replace('operationId: updatePodViaPost', 'operationId: updatePod'));
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('operation-operationId-unique');
  });
});
