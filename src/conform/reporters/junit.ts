// JUnit XML: one <testsuite> per surface, one <testcase> per rule ("ID title").
import type { RunSummary } from '../types.js';

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export function junitXml(summary: RunSummary): string {
  const surfaces = [...new Set(summary.results.map((r) => r.surface))];
  const suites = surfaces.map((surface) => {
    const results = summary.results.filter((r) => r.surface === surface);
    const time = results.reduce((t, r) => t + r.durationMs, 0) / 1000;
    const cases = results.map((r) => {
      const open = `    <testcase classname="conformance.${esc(surface)}" name="${esc(`${r.id} ${r.title}`)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      if (r.outcome === 'pass') return `${open}/>`;
      if (r.outcome === 'fail') return `${open}>\n      <failure message="${esc(r.reason ?? 'failed')}" type="ContractViolation">${esc(`${r.reason ?? ''}\nseed: ${r.seed}`)}</failure>\n    </testcase>`;
      return `${open}>\n      <skipped message="${esc(`${r.skipKind}: ${r.reason ?? ''}`)}"/>\n    </testcase>`;
    });
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    return `  <testsuite name="conformance ${esc(surface)}" tests="${results.length}" failures="${count('fail')}" skipped="${count('skip')}" errors="0" time="${time.toFixed(3)}" timestamp="${summary.startedAt}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const t = summary.totals;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="compute-contract conformance (${esc(summary.target)})" tests="${t.rules}" failures="${t.fail}" skipped="${t.skip}" errors="0" time="${(summary.wallMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
