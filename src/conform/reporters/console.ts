// Console progress: one line per rule (with its level), then the preflight's root causes, totals per
// surface and per level, and the verdict.
import { RULE_LEVELS } from '../../contract/levels.js';
import { configuredSurfaces } from '../surfaces.js';
import { SURFACE_INFO } from '../../contract/surfaces.js';
import { DEFAULT_CONCURRENCY, type RunSettings, type TargetConfig } from '../target.js';
import type { PreflightProbe, RuleResult, RunSummary, Tally } from '../types.js';
import { verdictLine } from '../verdict.js';

const SYMBOL = { pass: '✓', fail: '✗', skip: '-' } as const;
const color = (code: number, text: string) => (process.stdout.isTTY && !process.env['NO_COLOR'] ? `\x1b[${code}m${text}\x1b[0m` : text);

export function runHeader(target: TargetConfig, settings: RunSettings): string {
  const configured = configuredSurfaces(target);
  const surfaces = configured.map((s) => SURFACE_INFO[s].label).join(', ');
  const levels = settings.levels && settings.levels.length < RULE_LEVELS.length ? `, levels ${settings.levels.join(',')}` : '';
  const concurrency = settings.concurrency ?? DEFAULT_CONCURRENCY;
  return `compute-contract conformance — target: ${target.name} (${surfaces}), tier ${settings.tier}, seed ${settings.seed}${target.controlUrl ? ', clock control' : ''}${levels}${settings.strict ? ', strict' : ''}, ${concurrency === 1 ? 'one check at a time' : `up to ${concurrency} checks at once`}`;
}

export function consoleProgress(write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)) {
  return (result: RuleResult, index: number, total: number) => {
    if (result.outcome === 'skip' && result.skipKind === 'filtered') return;
    // Surface-less and root-cause skips are summarised once at the end, not repeated per rule.
    if (result.outcome === 'skip' && (result.skipKind === 'preflight' || result.skipKind === 'not-configured')) return;
    const symbol = result.outcome === 'pass' ? color(32, SYMBOL.pass) : result.outcome === 'fail' ? color(31, SYMBOL.fail) : color(33, SYMBOL.skip);
    const tail = result.outcome === 'fail' ? `\n      ${color(31, result.reason ?? '')}` : result.outcome === 'skip' ? color(2, `  ${result.reason ?? ''}`) : color(2, ` ${result.durationMs} ms`);
    write(`  ${symbol} [${String(index + 1).padStart(3)}/${total}] ${result.surface.padEnd(8)} ${result.level.padEnd(6)} ${result.id}${tail}`);
  };
}

/** The preflight's failed probes, as soon as they are known (their rules will be reported not run). */
export function preflightProgress(write: (line: string) => void) {
  return (probes: readonly PreflightProbe[]) => {
    for (const p of probes) if (!p.ok) write(`  ${color(31, '✗')} preflight ${SURFACE_INFO[p.surface].label} ${p.probe}: ${p.detail} — the rules needing it will not run`);
  };
}

/** Skips sharing one reason (a root cause, an absent surface), with how many rules each keeps from running. */
export function groupedSkips(summary: RunSummary): { kind: string; reason: string; rules: string[] }[] {
  const groups = new Map<string, { kind: string; reason: string; rules: string[] }>();
  for (const r of summary.results) {
    if (r.outcome !== 'skip' || (r.skipKind !== 'preflight' && r.skipKind !== 'not-configured')) continue;
    const key = `${r.skipKind}\u0000${r.reason}`;
    const group = groups.get(key) ?? { kind: r.skipKind, reason: r.reason ?? '', rules: [] };
    group.rules.push(r.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Why rules were skipped, largest first: a root cause or absent flag by its words, other skips by kind. */
export function skipCauses(summary: RunSummary): { cause: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const r of summary.results) {
    if (r.outcome !== 'skip' || r.skipKind === 'filtered') continue;
    const cause = r.skipKind === 'preflight' || r.skipKind === 'not-configured' ? (r.reason ?? '').replace(/^not run: /, '') : SKIP_KIND_CAUSE[r.skipKind ?? 'no-check'] ?? String(r.skipKind);
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  return [...counts].map(([cause, count]) => ({ cause, count })).sort((a, b) => b.count - a.count);
}

const SKIP_KIND_CAUSE: Record<string, string> = {
  'needs-clock': 'needs clock control (--control-url) or the slow tier',
  tier: 'above the selected --tier',
  'mock-only': 'not observable black-box (checked against the embedded mock only)',
  'no-check': 'no check implemented',
  preflight: 'preflight',
  'not-configured': 'not configured',
  filtered: 'filtered',
};

/** "largest skip causes: 62 needs --rest-url (…); 3 needs --no-permission-key" (at most three). */
export function largestSkipCauses(summary: RunSummary): string {
  const causes = skipCauses(summary).slice(0, 3);
  return causes.map((c) => `${c.count} ${c.cause}`).join('; ');
}

const tallyText = (s: Tally) => `${s.pass} passed, ${s.fail} failed, ${s.skip} skipped`;

export function consoleSummary(summary: RunSummary): string {
  const bySurface = new Map<string, Tally>();
  for (const r of summary.results) {
    const s = bySurface.get(r.surface) ?? { pass: 0, fail: 0, skip: 0 };
    s[r.outcome]++;
    bySurface.set(r.surface, s);
  }
  const t = summary.totals;
  const lines = [''];
  const broken = summary.preflight.filter((p) => !p.ok);
  if (broken.length) lines.push('Preflight:', ...broken.map((p) => `  ${color(31, '✗')} ${SURFACE_INFO[p.surface].label} ${p.probe}: ${p.detail}`));
  const groups = groupedSkips(summary);
  if (groups.length) lines.push('Not run:', ...groups.map((g) => `  ${g.reason.replace(/^not run: /, '')}: ${g.rules.length} rule${g.rules.length === 1 ? '' : 's'} not run`));
  lines.push('Per surface:');
  for (const [surface, s] of bySurface) lines.push(`  ${surface.padEnd(9)} ${tallyText(s)}`);
  lines.push('Per level:');
  for (const level of RULE_LEVELS) lines.push(`  ${level.padEnd(9)} ${tallyText(t.byLevel[level])}${level === 'must' || summary.strict ? '' : ' (not counted without --strict)'}`);
  const largest = largestSkipCauses(summary);
  if (largest) lines.push(`Largest skip causes: ${largest}`);
  const verdict = verdictLine(summary);
  lines.push(
    '',
    `${summary.verdict === 'pass' ? color(32, verdict) : color(31, verdict)}  ${t.pass} passed, ${t.fail} failed, ${t.skip} skipped of ${t.rules} rules` +
      ` — coverage ${t.checked}/${t.inScope} (${pct(t.checked, t.inScope)}) of the rules of ${[...summary.surfaces.configured.map((s) => SURFACE_INFO[s].label), 'all'].join(', ')}` +
      ` — tier ${summary.tier}, seed ${summary.seed}, ${(summary.wallMs / 1000).toFixed(1)} s`,
  );
  return lines.join('\n');
}

export const pct = (a: number, b: number) => `${b === 0 ? 0 : Math.round((1000 * a) / b) / 10}%`;
