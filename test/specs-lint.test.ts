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
/** Redocly lint of every API of redocly.yaml. */
const lint = (cwd: string) => spawnSync(redocly, ['lint', '--format=stylish'], { cwd, env, encoding: 'utf8' });
const scratch = await mkdtemp(join(tmpdir(), 'cc-lint-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/**
 * A copy of specs/ + redocly.yaml with the given files edited, the given APIs linted with the project config
 * in one Redocly run. Each edit breaks one rule in a file of its own, and the unedited specs lint clean (the
 * first test), so each rule's problem in the output comes from its edit.
 */
async function lintMutated(apis: string[], edits: [file: string, edit: (text: string) => string][]) {
  const dir = await mkdtemp(join(scratch, 'case-'));
  await cp(join(root, 'specs'), join(dir, 'specs'), { recursive: true });
  await cp(join(root, 'redocly.yaml'), join(dir, 'redocly.yaml'));
  for (const [file, edit] of edits) {
    const path = join(dir, 'specs', file);
    const before = await readFile(path, 'utf8');
    const after = edit(before);
    expect(after, file).not.toBe(before);
    await writeFile(path, after);
  }
  const result = spawnSync(redocly, ['lint', ...apis, '--format=stylish'], { cwd: dir, env, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** One mutant per rule below, linted together (one Redocly start instead of three). */
let mutants: Promise<{ status: number | null; output: string }> | undefined;
const mutated = () => (mutants ??= lintMutated(['queue-v2', 'rest-v1'], [
  ['queue-v2/paths/jobs/cancelJob.yaml', (t) => t.replace(/\n  '?401'?:\n[^\n]*\n/, '\n')],
  ['queue-v2/paths/jobs/retryJob.yaml', (t) => t.replace('x-rate-limit:', 'x-rate-limit-removed:')],
  ['rest-v1/paths/pods/updatePodViaPost.yaml', (t) => t.replace('operationId: updatePodViaPost', 'operationId: updatePod')],
]));

/** The problems Redocly reports for one spec file of the mutants (stylish output: the file, then its problems). */
function problemsOf(output: string, file: string): string {
  const start = output.indexOf(file);
  expect(start, `${file} has problems in the output`).toBeGreaterThan(-1);
  const next = output.slice(start + file.length).search(/\n\S[^\n]*\.yaml/);
  return next === -1 ? output.slice(start) : output.slice(start, start + file.length + next);
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
    const r = await mutated();
    expect(r.status).not.toBe(0);
    expect(problemsOf(r.output, 'queue-v2/paths/jobs/cancelJob.yaml')).toContain('rule/operation-401');
  });

  it('a queue operation without x-rate-limit fails lint', async () => {
    const r = await mutated();
    expect(r.status).not.toBe(0);
    expect(problemsOf(r.output, 'queue-v2/paths/jobs/retryJob.yaml')).toContain('rule/queue-operation-rate-limit');
  });

  it('a duplicated operationId fails lint', async () => {
    const r = await mutated();
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('operation-operationId-unique');
  });
});
