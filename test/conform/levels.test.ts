// Rule levels: a rule's level follows its source (seed → must, observed → should, assumed → may); only
// must failures decide the exit code unless --strict; --level selects the levels that run; every
// report shows the level.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { runConformCommand } from '../../src/cli/conform-command.js';
import { runRulesCommand } from '../../src/cli/rules-summary.js';
import { loadCatalogue } from '../../src/contract/catalogue.js';
import { levelOf, parseLevels } from '../../src/contract/levels.js';
import type { RuleResult, RunSummary } from '../../src/conform/types.js';
import { exitCodeOf, totalsOf, verdictOf } from '../../src/conform/verdict.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Runs `compute-contract conform` quietly; returns the exit code, what it printed and the report directory. */
async function conform(args: string[]): Promise<{ code: number; out: string; err: string; reports: string }> {
  const reports = await mkdtemp(join(tmpdir(), 'cc-levels-'));
  dirs.push(reports);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await runConformCommand([...args, '--quiet', '--reports', reports]);
    const out = [...log.mock.calls.flat(), ...stdout.mock.calls.map((c) => String(c[0]))].join('\n');
    return { code, out, err: error.mock.calls.flat().join('\n'), reports };
  } finally {
    log.mockRestore();
    error.mockRestore();
    stdout.mockRestore();
  }
}

const result = (level: RuleResult['level'], outcome: RuleResult['outcome']): RuleResult =>
  ({ id: `X-${level}-${outcome}`, title: '', surface: 'rest-v1', check: 'black-box', tier: 'safe', level, seed: '', outcome, durationMs: 0, calls: 0 });

describe('rule levels', () => {
  test('every catalogue rule has the level of its source: seed → must, observed → should, assumed → may', () => {
    const expected: Record<string, string> = { seed: 'must', observed: 'should', assumed: 'may' };
    for (const rule of loadCatalogue()) expect(levelOf(rule.source), rule.id).toBe(expected[rule.source]);
    expect(() => levelOf('guessed')).toThrow(/no level/);
  });

  test('--level parses a comma-separated subset and names what is wrong otherwise', () => {
    expect(parseLevels(undefined)).toEqual(['must', 'should', 'may']);
    expect(parseLevels('should, MUST')).toEqual(['must', 'should']);
    for (const bad of ['', 'must,', 'required', 'must;should']) expect(parseLevels(bad), bad).toMatch(/--level takes a comma-separated list/);
  });

  test('verdict: only must failures count by default; --strict counts every level; a failed preflight probe always counts', () => {
    const results = [result('must', 'pass'), result('should', 'fail'), result('may', 'fail')];
    const lenient = totalsOf(results, 3, false);
    expect(lenient.counted).toBe(0);
    expect(lenient.byLevel).toEqual({ must: { pass: 1, fail: 0, skip: 0 }, should: { pass: 0, fail: 1, skip: 0 }, may: { pass: 0, fail: 1, skip: 0 } });
    expect(verdictOf(lenient, [])).toBe('pass');
    expect(verdictOf(totalsOf(results, 3, true), [])).toBe('fail');
    expect(verdictOf(totalsOf([...results, result('must', 'fail')], 4, false), [])).toBe('fail');
    expect(verdictOf(lenient, [{ surface: 'queueV2', probe: 'jobs', ok: false, detail: 'jobs never finish', durationMs: 1 }])).toBe('fail');
    expect(exitCodeOf({ verdict: 'pass' })).toBe(0);
    expect(exitCodeOf({ verdict: 'fail' })).toBe(1);
  });

  test('a may rule failing (HTTP-ALLOW-001 without Allow) exits 0, with --strict 1; --level must does not run it', async () => {
    const grep = ['--fault', 'no-allow-header', '--grep', '^HTTP-ALLOW-001$'];
    const lenient = await conform(grep);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toMatch(/PASS \(1 may failure not counted; --strict counts them\)/);
    const report = JSON.parse(await readFile(join(lenient.reports, 'conformance-report.json'), 'utf8')) as RunSummary;
    const rule = report.results.find((r) => r.id === 'HTTP-ALLOW-001')!;
    expect([rule.level, rule.outcome]).toEqual(['may', 'fail']);
    expect(report.verdict).toBe('pass');

    expect((await conform([...grep, '--strict'])).code).toBe(1);

    const mustOnly = await conform([...grep, '--level', 'must']);
    expect(mustOnly.code).toBe(0);
    const filtered = (JSON.parse(await readFile(join(mustOnly.reports, 'conformance-report.json'), 'utf8')) as RunSummary).results.find((r) => r.id === 'HTTP-ALLOW-001')!;
    expect([filtered.outcome, filtered.skipKind, filtered.reason]).toEqual(['skip', 'filtered', 'level may not selected by --level must']);
  }, 60_000);

  test('a must rule failing (AUTH-002 with the key check off) exits 1 without --strict', async () => {
    const run = await conform(['--fault', 'no-401-on-bad-key', '--grep', '^AUTH-002$']);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/FAIL \(1 must failure\)/);
  }, 60_000);

  test('the JUnit, Markdown and HTML reports show each rule\'s level', async () => {
    const run = await conform(['--fault', 'no-allow-header', '--grep', '^(HTTP-ALLOW-001|AUTH-001)$']);
    const junit = await readFile(join(run.reports, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="conformance\.all" name="HTTP-ALLOW-001 \[may\] [^"]*"[^>]*>\s*<properties><property name="level" value="may"\/><\/properties>\s*<failure message="\[may\] [^"]*" type="ContractViolation\.may">/);
    expect(junit).toMatch(/name="AUTH-001 \[must\] [^"]*"[^>]*>\s*<properties><property name="level" value="must"\/>/);
    const md = await readFile(join(run.reports, 'conformance-report.md'), 'utf8');
    expect(md).toMatch(/\| HTTP-ALLOW-001 \| may \| all \| [^\n]*\*\*FAIL\*\* \(may\)/);
    expect(md).toMatch(/\| must \| 1 \| 0 \| \d+ \| yes \|/);
    expect(md).toMatch(/\| may \| 0 \| 1 \| \d+ \| no \|/);
    const html = await readFile(join(run.reports, 'conformance-report.html'), 'utf8');
    expect(html).toMatch(/<tr class="fail"><td>HTTP-ALLOW-001<\/td><td>may<\/td>/);
    expect(html).toContain('<th>Level</th>');
  }, 60_000);

  test('bad level, preflight, timeout and concurrency flags are usage errors (exit 2) naming the problem', async () => {
    const cases: [string[], RegExp][] = [
      [['--level', 'required'], /--level takes a comma-separated list of must, should, may \(got "required"\)/],
      [['--preflight-job-ms', '0'], /--preflight-job-ms must be between 1 and 600000/],
      [['--preflight-job-ms', '10s'], /--preflight-job-ms must be an integer/],
      [['--request-timeout-ms', '300001'], /--request-timeout-ms must be between 1 and 300000/],
      [['--strictly'], /unknown option --strictly/],
      [['--concurrency', '0'], /--concurrency must be between 1 and 32/],
      [['--concurrency', 'many'], /--concurrency must be an integer/],
    ];
    for (const [args, message] of cases) {
      const run = await conform(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.err).toMatch(message);
    }
  });

  test('`compute-contract rules` counts rules per level and --list shows each rule\'s level', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(runRulesCommand([])).toBe(0);
      const counts = Object.fromEntries(['must', 'should', 'may'].map((l) => [l, loadCatalogue().filter((r) => levelOf(r.source) === l).length]));
      expect(String(log.mock.calls.at(-1)?.[0])).toContain(`by level:   must ${counts['must']}, should ${counts['should']}, may ${counts['may']}`);
      expect(runRulesCommand(['--list', '--level', 'may'])).toBe(0);
      const lines = String(log.mock.calls.at(-1)?.[0]).split('\n');
      expect(lines).toHaveLength(counts['may']!);
      expect(lines.every((l) => / may +\S+ /.test(l))).toBe(true);
      expect(runRulesCommand(['--level', 'often'])).toBe(2);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  });
});
