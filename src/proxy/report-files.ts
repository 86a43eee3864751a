// Reports of judged traffic in the usual formats and file names of `conform` (conformance-report.json,
// .md, .html and junit.xml), rendered through the conform reporters' Markdown/HTML writers. Every file
// is redacted with the session's secrets, then read back to prove no secret is left.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RuleLevel } from '../contract/levels.js';
import { toHtml, toMarkdown, type Block } from '../contract/report-blocks.js';
import { MAX_CAPTURED_BODY_BYTES } from './exchange.js';
import type { SecretBook } from './secrets.js';
import { exitCodeOf, MAX_DISTINCT_VIOLATIONS, type TrafficReport } from './tally.js';

export interface ReportOptions {
  /** Levels whose violations fail the run (exit code 1); the others are reported as noted. */
  levels: ReadonlySet<RuleLevel>;
}

const verdict = (level: RuleLevel, options: ReportOptions) => (options.levels.has(level) ? '**FAIL**' : `noted (${level})`);

export function trafficDocument(report: TrafficReport, options: ReportOptions): Block[] {
  const t = report.totals;
  const failed = exitCodeOf(report, options.levels) !== 0;
  const blocks: Block[] = [
    { h: `compute-contract traffic report (${report.tool})` },
    { table: { head: ['', ''], rows: [
      ['Source', report.source],
      ['Result', failed ? 'FAIL' : 'PASS'],
      ['Levels that fail the run', [...options.levels].join(', ') || 'none'],
      ['Exchanges', `${t.exchanges} (${t.judged} matched an operation, ${t.unmatched} did not, ${t.upstreamErrors} upstream errors)`],
      ['Violations', `${t.violations} (must ${t.byLevel.must}, should ${t.byLevel.should}, may ${t.byLevel.may}); ${t.distinctViolations} distinct`],
      ['Started', report.startedAt],
      ['Ended', report.endedAt],
    ] } },
  ];
  if (report.violations.length) {
    blocks.push({ h: 'Violations' }, { table: { head: ['Verdict', 'Level', 'Rule', 'Surface', 'Operation', 'Count', 'Message', 'First seen'], rows: report.violations.map((v) => [verdict(v.level, options), v.level, v.ruleId, v.surface, v.operationId, String(v.count), v.message, v.example]) } });
    if (t.droppedViolations) blocks.push({ p: `${t.droppedViolations} further violations were counted but not listed (at most ${MAX_DISTINCT_VIOLATIONS} distinct ones are kept).` });
  }
  blocks.push({ h: 'Rules judged' }, { table: { head: ['Rule', 'Level', 'Exchanges judged', 'Violations', 'Outcome', 'Title'], rows: report.rules.map((r) => [r.ruleId, r.level, String(r.checked), String(r.violations), r.violations ? verdict(r.level, options) : 'pass', r.title]) } });
  blocks.push({ h: 'Operations' }, { table: { head: ['Surface', 'Operation', 'Exchanges', 'Violations'], rows: report.operations.map((o) => [o.surface, o.operationId, String(o.exchanges), String(o.violations)]) } });
  if (report.notes.length) blocks.push({ h: 'Not judged' }, { list: report.notes.map((n) => `${n.note} (${n.count} exchange${n.count === 1 ? '' : 's'})`) });
  blocks.push({ p: `Each body is judged from its first ${MAX_CAPTURED_BODY_BYTES} bytes; longer bodies pass unchanged and are scanned for secrets end to end. Levels follow each rule's source: must (seed), should (observed), may (assumed).` });
  return blocks;
}

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** One testcase per rule judged; violations at a failing level are failures, others system-out. */
export function trafficJunit(report: TrafficReport, options: ReportOptions): string {
  let failures = 0;
  const cases = report.rules.map((rule) => {
    const found = report.violations.filter((v) => v.ruleId === rule.ruleId);
    const open = `    <testcase classname="traffic.${esc(rule.level)}" name="${esc(`${rule.ruleId} ${rule.title}`)}" time="0">`;
    if (rule.violations === 0) return `${open.slice(0, -1)}/>`;
    const lines = found.slice(0, 20).map((v) => `${v.operationId}: ${v.message} (×${v.count})`).join('\n');
    if (!options.levels.has(rule.level)) return `${open}\n      <system-out>${esc(`noted (${rule.level}): ${lines}`)}</system-out>\n    </testcase>`;
    failures++;
    return `${open}\n      <failure message="${esc(`${rule.violations} violation(s) at level ${rule.level}`)}" type="ContractViolation">${esc(lines)}</failure>\n    </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="compute-contract traffic (${esc(report.source)})" tests="${cases.length}" failures="${failures}" errors="0">\n  <testsuite name="traffic ${esc(report.tool)}" tests="${cases.length}" failures="${failures}" skipped="0" errors="0" timestamp="${report.startedAt}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/** Writes the four report files into `dir`; returns their paths. */
export function writeTrafficReports(report: TrafficReport, dir: string, book: SecretBook, options: ReportOptions): string[] {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const doc = trafficDocument(report, options);
  const files: [string, string][] = [
    ['conformance-report.json', `${JSON.stringify({ ...report, levelsFailing: [...options.levels] }, null, 2)}\n`],
    ['conformance-report.md', toMarkdown(doc)],
    ['conformance-report.html', toHtml(doc)],
    ['junit.xml', trafficJunit(report, options)],
  ];
  return files.map(([name, text]) => {
    const path = join(out, name);
    writeFileSync(path, book.redact(text));
    if (book.find(readFileSync(path)).length) throw new Error(`report ${name} would contain a secret`);
    return path;
  });
}
