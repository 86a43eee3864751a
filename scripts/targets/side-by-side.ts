// The same suite (full tier, default flags) against our embedded mock, optionally against that mock as the
// service is today (REST v1 retired: `conform --today`), and against a stateless spec mock (Prism serving
// the REST v1 and queue v2 specs), and the comparison as a Markdown table: rules passed / failed / skipped
// by level and by surface, why rules were skipped, verdict and wall time.
import { runConformance, type RunSummary } from '../../src/entries/conform.js';
import { RULE_LEVELS } from '../../src/contract/levels.js';
import { SURFACE_INFO, SURFACE_NAMES } from '../../src/contract/surfaces.js';
import type { RuleResult } from '../../src/conform/types.js';
import { startPrismTarget } from './prism.js';

export interface SideBySide {
  embedded: RunSummary;
  /** The embedded mock with REST v1 retired and left out of the target (the three live surfaces). */
  today?: RunSummary;
  prism: RunSummary;
}

export async function runSideBySide(log: (line: string) => void = () => undefined, options: { today?: boolean } = {}): Promise<SideBySide> {
  log('full tier against the embedded mock …');
  const embedded = (await runConformance({ reportsDir: null, progress: false, settings: { tier: 'full' } })).summary;
  log(`  ${(embedded.wallMs / 1000).toFixed(1)} s`);
  let today: RunSummary | undefined;
  if (options.today) {
    log('full tier against the embedded mock as today (REST v1 retired) …');
    today = (await runConformance({ reportsDir: null, progress: false, today: true, settings: { tier: 'full' } })).summary;
    log(`  ${(today.wallMs / 1000).toFixed(1)} s`);
  }
  log('starting Prism (REST v1 + queue v2) …');
  const prism = await startPrismTarget();
  try {
    log('full tier against Prism …');
    const summary = (await runConformance({ target: prism.target, reportsDir: null, progress: false, settings: { tier: 'full' } })).summary;
    log(`  ${(summary.wallMs / 1000).toFixed(1)} s`);
    return { embedded, ...(today ? { today } : {}), prism: summary };
  } finally {
    await prism.stop();
  }
}

const tally = (results: readonly RuleResult[]) => {
  const n = (o: RuleResult['outcome']) => results.filter((r) => r.outcome === o).length;
  return `${n('pass')} / ${n('fail')} / ${n('skip')}`;
};

const SKIP_LABELS: Record<string, string> = {
  'not-configured': 'a surface it needs not served (not-configured)',
  preflight: 'preflight root cause (jobs never finish)',
  'needs-clock': 'needs clock control (needs-clock)',
  'mock-only': 'not observable black-box (mock-only)',
  'no-check': 'no check yet (no-check)',
  tier: 'other tier',
  filtered: 'filtered',
};

export function sideBySideTable({ embedded, today, prism }: SideBySide): string {
  const runs = today ? [embedded, today, prism] : [embedded, prism];
  const row = (label: string, cell: (s: RunSummary) => string) => `| ${label} | ${runs.map(cell).join(' | ')} |`;
  const lines = [
    `| Full tier, default flags | Our embedded mock |${today ? ' Our mock as today (REST v1 retired) |' : ''} Prism 5.16 (stateless spec mock) |`,
    `|---|---|${today ? '---|' : ''}---|`,
    row('Surfaces served', (s) => s.surfaces.configured.map((x) => SURFACE_INFO[x].label).join(', ')),
    row('Preflight', (s) => s.preflight.filter((p) => !p.ok).map((p) => `${SURFACE_INFO[p.surface].label} ${p.probe}: ${p.detail.replace(/ \(job .*|: the status of job .*/, '')}`).join('; ') || 'all probes pass'),
    row('**All rules** (passed / failed / skipped)', (s) => `**${tally(s.results)}**`),
  ];
  for (const level of RULE_LEVELS) {
    const source = { must: 'seed', should: 'observed', may: 'assumed' }[level];
    lines.push(row(`${level} (${source})`, (s) => tally(s.results.filter((r) => r.level === level))));
  }
  for (const surface of [...SURFACE_NAMES.map((s) => SURFACE_INFO[s].ruleSurface), 'all']) {
    if (!runs.some((s) => s.results.some((r) => r.surface === surface))) continue;
    lines.push(row(`surface ${surface}`, (s) => tally(s.results.filter((r) => r.surface === surface))));
  }
  const kinds = [...new Set(runs.flatMap((s) => s.results.map((r) => r.skipKind).filter((k): k is NonNullable<typeof k> => k !== undefined)))];
  for (const kind of kinds) lines.push(row(`skipped: ${SKIP_LABELS[kind] ?? kind}`, (s) => String(s.results.filter((r) => r.skipKind === kind).length)));
  lines.push(
    row('Coverage (checked / rules of the served surfaces)', (s) => `${s.totals.checked}/${s.totals.inScope}`),
    row('Verdict (exit code)', (s) => `${s.verdict.toUpperCase()} (${s.verdict === 'pass' ? 0 : 1})`),
    row('Wall time', (s) => `${(s.wallMs / 1000).toFixed(1)} s`),
  );
  return lines.join('\n');
}
