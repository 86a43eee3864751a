// Console progress: one line per rule under a header per surface, then totals per surface.
import type { RuleResult, RunSummary } from '../types.js';

const SYMBOL = { pass: '✓', fail: '✗', skip: '-' } as const;
const color = (code: number, text: string) => (process.stdout.isTTY && !process.env['NO_COLOR'] ? `\x1b[${code}m${text}\x1b[0m` : text);

export function consoleProgress(write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)) {
  return (result: RuleResult, index: number, total: number) => {
    if (result.outcome === 'skip' && result.skipKind === 'filtered') return;
    const symbol = result.outcome === 'pass' ? color(32, SYMBOL.pass) : result.outcome === 'fail' ? color(31, SYMBOL.fail) : color(33, SYMBOL.skip);
    const tail = result.outcome === 'fail' ? `\n      ${color(31, result.reason ?? '')}` : result.outcome === 'skip' ? color(2, `  ${result.reason ?? ''}`) : color(2, ` ${result.durationMs} ms`);
    write(`  ${symbol} [${String(index + 1).padStart(3)}/${total}] ${result.surface.padEnd(8)} ${result.id}${tail}`);
  };
}

export function consoleSummary(summary: RunSummary): string {
  const bySurface = new Map<string, { pass: number; fail: number; skip: number }>();
  for (const r of summary.results) {
    const s = bySurface.get(r.surface) ?? { pass: 0, fail: 0, skip: 0 };
    s[r.outcome]++;
    bySurface.set(r.surface, s);
  }
  const t = summary.totals;
  const lines = ['', 'Per surface:'];
  for (const [surface, s] of bySurface) lines.push(`  ${surface.padEnd(9)} ${s.pass} passed, ${s.fail} failed, ${s.skip} skipped`);
  lines.push(
    '',
    `${t.fail === 0 ? color(32, 'PASS') : color(31, 'FAIL')}  ${t.pass} passed, ${t.fail} failed, ${t.skip} skipped of ${t.rules} rules` +
      ` — coverage ${t.checked}/${t.rules} (${pct(t.checked, t.rules)}) — tier ${summary.tier}, seed ${summary.seed}, ${(summary.wallMs / 1000).toFixed(1)} s`,
  );
  return lines.join('\n');
}

export const pct = (a: number, b: number) => `${b === 0 ? 0 : Math.round((1000 * a) / b) / 10}%`;
