// One run of a suite of checks with its reports: the embedded mock unless a target is given, console
// progress, the report files (every secret the run sent redacted, then re-read to prove it).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FaultName } from '../mock/index.js';
import { toHtml, toMarkdown } from '../contract/report-blocks.js';
import { consoleProgress, consoleSummary, preflightProgress, runHeader } from './reporters/console.js';
import { reportDocument } from './reporters/document.js';
import { junitXml } from './reporters/junit.js';
import type { CheckSuite } from './registry.js';
import { plannedRealWaitMs, runSuite } from './runner.js';
import { formatMs } from './context.js';
import { DEFAULT_PREFLIGHT_JOB_MS, DEFAULT_SEED, startEmbeddedTarget, type RunSettings, type TargetConfig } from './target.js';
import type { RuleResult, RunSummary } from './types.js';
import { exitCodeOf } from './verdict.js';

export interface ConformanceOptions {
  /** The checks to run, by rule id (the package's suite: `conformanceChecks` of contract-tests/index.ts). */
  checks: CheckSuite;
  /** Remote target; omitted → the embedded mock (virtual clock, control API). */
  target?: TargetConfig;
  /** Faults injected into the embedded mock (self-proof runs). */
  faults?: FaultName[];
  /** The embedded mock as the service is today: REST v1 retired, the three live surfaces only. */
  today?: boolean;
  settings?: Partial<RunSettings>;
  /** Directory for reports; null writes none. Default "reports". */
  reportsDir?: string | null;
  /** Console output: 'rules' (a line per rule + summary), 'summary', or false; optional line sink. */
  progress?: 'rules' | 'summary' | false;
  write?: (line: string) => void;
  mutation?: RunSummary['mutation'];
}

export interface ConformanceResult {
  summary: RunSummary;
  failing: RuleResult[];
  reportFiles: string[];
  exitCode: number;
}

export function defaultSettings(overrides: Partial<RunSettings> = {}): RunSettings {
  return { tier: 'full', seed: DEFAULT_SEED, maxRealWaitMs: 120_000, jobTimeoutMs: 60_000, preflightJobMs: DEFAULT_PREFLIGHT_JOB_MS, ...overrides };
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  const settings = defaultSettings(options.settings);
  const target = options.target ?? (await startEmbeddedTarget(options.faults ?? [], { today: options.today }));
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  try {
    if (options.progress) {
      write(runHeader(target, settings));
      const realWait = plannedRealWaitMs(options.checks, target, settings);
      if (realWait > 0) write(`slow tier without clock control: the clock rules will wait ≈${formatMs(realWait)} for real in total`);
    }
    const { summary, secrets } = await runSuite({
      checks: options.checks, target, settings,
      onResult: options.progress === 'rules' ? consoleProgress(write) : undefined,
      onPreflight: options.progress === 'rules' ? preflightProgress(write) : undefined,
    });
    if (options.mutation) summary.mutation = options.mutation;
    const reportFiles = options.reportsDir === null ? [] : writeReports(summary, options.reportsDir ?? 'reports', [...secrets.entries()]);
    if (options.progress) {
      write(consoleSummary(summary));
      if (reportFiles.length) write(`Reports: ${reportFiles.join(', ')}`);
    }
    const failing = summary.results.filter((r) => r.outcome === 'fail');
    return { summary, failing, reportFiles, exitCode: exitCodeOf(summary) };
  } finally {
    if (!options.target) await target.embedded?.close();
  }
}

/** Writes the reports with every secret the run sent redacted, then re-reads them to prove it. */
export function writeReports(summary: RunSummary, dir: string, secrets: [string, string][]): string[] {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const redact = (text: string) => secrets.reduce((t, [value, label]) => t.split(value).join(`[REDACTED ${label}]`), text);
  const doc = reportDocument(summary);
  const files: [string, string][] = [
    ['conformance-report.md', toMarkdown(doc)],
    ['conformance-report.html', toHtml(doc)],
    ['junit.xml', junitXml(summary)],
    ['conformance-report.json', `${JSON.stringify(summary, null, 2)}\n`],
  ];
  const written: string[] = [];
  for (const [name, text] of files) {
    const path = join(out, name);
    writeFileSync(path, redact(text));
    const back = readFileSync(path, 'utf8');
    for (const [value, label] of secrets) if (back.includes(value)) throw new Error(`report ${name} would contain a ${label}`);
    written.push(path);
  }
  return written;
}
