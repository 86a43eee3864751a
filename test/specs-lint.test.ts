// The specs lint clean, and the lint rules really catch what they claim to.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redocly, type NormalizedProblem } from '../scripts/generators/redocly.js';
import { afterAll, describe, expect, it } from 'vitest';
import { projectLintProblems } from '../scripts/lint/project-rules.js';

const root = new URL('..', import.meta.url).pathname;
const scratch = await mkdtemp(join(tmpdir(), 'cc-lint-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/**
 * Redocly lint of the given APIs of `dir`/redocly.yaml (all of them by default) with that config, in this process:
 * the library `redocly lint` runs (the CLI fails exactly when a problem is an error), without a CLI process
 * to start for each run (~1 s of CPU each).
 */
async function lint(dir: string, aliases?: string[]): Promise<NormalizedProblem[]> {
  const config = await redocly.loadConfig({ configPath: join(dir, 'redocly.yaml') });
  const apis = config.resolvedConfig.apis ?? {};
  const problems: NormalizedProblem[] = [];
  for (const alias of aliases ?? Object.keys(apis)) {
    expect(apis[alias], `API ${alias} in redocly.yaml`).toBeDefined();
    problems.push(...(await redocly.lint({ ref: join(dir, apis[alias]!.root), config: config.forAlias(alias) })));
  }
  return problems;
}

const where = (p: NormalizedProblem) => p.location.map((l) => `${l.source.absoluteRef}#${l.pointer ?? ''}`).join(', ');
const errorsOf = (problems: NormalizedProblem[]) => problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${where(p)}: ${p.message}`);

/**
 * A copy of specs/ + redocly.yaml with the given files edited, the given APIs linted with the project config
 * in one run. Each edit breaks one rule in a file of its own, and the unedited specs lint clean (the
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
  return lint(dir, apis);
}

/** One mutant per rule below, linted together (one run instead of three). */
let mutants: Promise<NormalizedProblem[]> | undefined;
const mutated = () => (mutants ??= lintMutated(['queue-v2', 'rest-v1'], [
  ['queue-v2/paths/jobs/cancelJob.yaml', (t) => t.replace(/\n  '?401'?:\n[^\n]*\n/, '\n')],
  ['queue-v2/paths/jobs/retryJob.yaml', (t) => t.replace('x-rate-limit:', 'x-rate-limit-removed:')],
  ['rest-v1/paths/pods/updatePodViaPost.yaml', (t) => t.replace('operationId: updatePodViaPost', 'operationId: updatePod')],
]));

/** The mutants' run fails lint (an error), and `rule` reports a problem (in `file`, when given). */
function expectCaught(problems: NormalizedProblem[], rule: string, file?: string): void {
  expect(errorsOf(problems).length, 'the mutants fail lint').toBeGreaterThan(0);
  const found = problems.filter((p) => p.ruleId === rule && (file === undefined || p.location.some((l) => l.source.absoluteRef.endsWith(`/specs/${file}`))));
  expect(found.length, `${rule} reports a problem${file ? ` in ${file}` : ''}; all problems: ${problems.map((p) => `${p.ruleId} ${where(p)}`).join('; ')}`).toBeGreaterThan(0);
}

/**
 * A bound, not a goal: the lint is CPU work in this thread (the CLI it replaced ran in a process of its own, which
 * vitest's timeout did not reach), and it shares 2 cores with the rest of the suite.
 */
const LINT_TIMEOUT_MS = 120_000;

describe('spec lint', { timeout: LINT_TIMEOUT_MS }, () => {
  it('both OpenAPI specs pass Redocly lint with the project rules', async () => {
    expect(errorsOf(await lint(root))).toEqual([]);
  });

  it('project rules: extensions documented, provenance, examples, GraphQL valid', async () => {
    expect(await projectLintProblems()).toEqual([]);
  });

  it('an operation without a 401 response fails lint', async () => {
    expectCaught(await mutated(), 'rule/operation-401', 'queue-v2/paths/jobs/cancelJob.yaml');
  });

  it('a queue operation without x-rate-limit fails lint', async () => {
    expectCaught(await mutated(), 'rule/queue-operation-rate-limit', 'queue-v2/paths/jobs/retryJob.yaml');
  });

  it('a duplicated operationId fails lint', async () => {
    expectCaught(await mutated(), 'operation-operationId-unique');
  });
});
