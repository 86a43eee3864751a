// The conformance report as a neutral document (sections, tables); src/contract/report-blocks.ts renders it.
import type { Block } from '../../contract/report-blocks.js';
import { groupedSkips, largestSkipCauses, pct } from './console.js';
import { RULE_LEVELS } from '../../contract/levels.js';
import { SURFACE_INFO } from '../../contract/surfaces.js';
import type { RuleResult, RunSummary } from '../types.js';
import { verdictLine } from '../verdict.js';

const outcomeLabel = (r: RuleResult) =>
  r.outcome === 'pass' ? 'pass' : r.outcome === 'fail' ? (r.level === 'must' ? '**FAIL**' : `**FAIL** (${r.level})`) : r.skipKind === 'needs-clock' ? 'skipped (needs clock)' : `skipped (${r.skipKind})`;

/** Top-level seed section ("## …" heading) of a rule's first seed reference. */
const seedSection = (seed: string) => seed.split(';')[0]!.split('›')[0]!.trim();

export function reportDocument(summary: RunSummary): Block[] {
  const t = summary.totals;
  const groups = groupedSkips(summary);
  const notRun = groups.map((g) => `${g.reason.replace(/^not run: /, '')}: ${g.rules.length} rule${g.rules.length === 1 ? '' : 's'}`).join('; ');
  const blocks: Block[] = [
    { h: 'compute-contract conformance report' },
    { table: { head: ['', ''], rows: [
      ['Target', summary.target],
      ['Surfaces', `${labels(summary.surfaces.configured) || 'none'}${summary.surfaces.absent.length ? ` (not configured: ${labels(summary.surfaces.absent)})` : ''}`],
      ['Result', verdictLine(summary)],
      ['Counted levels', summary.strict ? 'every level (--strict)' : 'must only (should and may failures are reported, not counted; --strict counts them)'],
      ['Rules', `${t.pass} passed, ${t.fail} failed, ${t.skip} skipped of ${t.rules}`],
      ['Not run (root causes)', notRun || 'none'],
      ['Coverage (rules checked / rules of the configured surfaces and of `all`; a skipped rule is not covered)', `${t.checked}/${t.inScope} (${pct(t.checked, t.inScope)})`],
      ['Largest skip causes', largestSkipCauses(summary) || 'none'],
      ['Mutation score (faults caught / faults)', summary.mutation ? `${summary.mutation.caught}/${summary.mutation.total} (${pct(summary.mutation.caught, summary.mutation.total)})` : 'not measured in this run (`compute-contract conform --prove` or `npm run bench:conform` measure it against the embedded mock)'],
      ['Tier', summary.tier],
      ['Clock control', summary.clockControl ? 'yes (virtual time via the control API)' : 'no (clock rules skipped unless the slow tier waits for real)'],
      ['fast-check seed', String(summary.seed)],
      ['Started', summary.startedAt],
      ['Wall time', `${(summary.wallMs / 1000).toFixed(1)} s`],
    ] } },
  ];
  blocks.push({ h: 'By level' }, { p: 'A rule\'s level follows its source: must (stated by the seed), should (observed of the real service), may (assumed where both are silent).' }, { table: { head: ['Level', 'Pass', 'Fail', 'Skipped', 'Counts toward the result'], rows: RULE_LEVELS.map((l) => [l, String(t.byLevel[l].pass), String(t.byLevel[l].fail), String(t.byLevel[l].skip), l === 'must' || summary.strict ? 'yes' : 'no']) } });
  if (summary.preflight.length) {
    blocks.push({ h: 'Preflight' }, { table: { head: ['Surface', 'Probe', 'Result', 'Detail'], rows: summary.preflight.map((p) => [SURFACE_INFO[p.surface].label, p.probe, p.ok ? 'ok' : '**FAIL**', p.detail]) } });
  }
  if (groups.length) {
    blocks.push({ h: 'Not run: root causes' }, { list: groups.map((g) => `${g.reason.replace(/^not run: /, '')}: ${g.rules.length} rule${g.rules.length === 1 ? '' : 's'} not run (${g.rules.join(', ')})`) });
  }
  const failures = summary.results.filter((r) => r.outcome === 'fail');
  if (failures.length) {
    blocks.push({ h: 'Failures' }, { list: failures.map((r) => `${r.id} [${r.level}] — ${r.title} — ${r.reason ?? ''} (seed: ${r.seed})`) });
  }
  if (summary.mutation) {
    blocks.push({ h: 'Mutation score: faults of the reference mock' }, { table: { head: ['Fault', 'Caught', 'Failing rules'], rows: summary.mutation.perFault.map((f) => [f.fault, f.failing.length ? 'yes' : '**no**', f.failing.join(', ')]) } });
  }
  blocks.push({ h: 'Every rule' }, { table: { head: ['Rule', 'Level', 'Surface', 'Check', 'Tier', 'Outcome', 'Reason / note', 'Seed'], rows: summary.results.map((r) => [r.id, r.level, r.surface, r.check, r.tier, outcomeLabel(r), r.reason ?? '', r.seed]) } });

  const bySection = new Map<string, { pass: number; fail: number; skip: number }>();
  for (const r of summary.results) {
    const key = seedSection(r.seed);
    const s = bySection.get(key) ?? { pass: 0, fail: 0, skip: 0 };
    s[r.outcome]++;
    bySection.set(key, s);
  }
  blocks.push({ h: 'By seed section' }, { table: { head: ['Seed section (specs/SEED.md)', 'Pass', 'Fail', 'Skipped'], rows: [...bySection].map(([k, s]) => [k, String(s.pass), String(s.fail), String(s.skip)]) } });

  const notBlackBox = summary.results.filter((r) => r.check === 'mock-only');
  blocks.push(
    { h: 'Rules that cannot be checked black-box' },
    { p: 'These rules are marked mock-only in specs/rules.yaml. Where a check exists it runs in-process against the embedded mock (or against this package\'s clients); against any other target they are skipped with the reason below.' },
    { table: { head: ['Rule', 'Outcome', 'Why not black-box / how checked'], rows: notBlackBox.map((r) => [r.id, outcomeLabel(r), r.reason ?? '']) } },
  );
  const needsClock = summary.results.filter((r) => r.skipKind === 'needs-clock');
  if (needsClock.length) blocks.push({ h: 'Skipped: needs clock' }, { p: 'Give --control-url (POST {control}/clock/advance {ms}) or run --tier slow to wait for real.' }, { list: needsClock.map((r) => `${r.id}: ${r.reason}`) });
  return blocks;
}

const labels = (surfaces: readonly (keyof typeof SURFACE_INFO)[]) => surfaces.map((s) => SURFACE_INFO[s].label).join(', ');
