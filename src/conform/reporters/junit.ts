// JUnit XML: one <testsuite> per surface, one <testcase> per rule ("ID [level] title", with a level
// property), and a "preflight" suite with one case per probe. Failures of every level are <failure>s
// (type ContractViolation.<level>); which of them decide the exit code is the report's verdict.
import { SURFACE_INFO } from '../../contract/surfaces.js';
import type { RunSummary } from '../types.js';

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

function preflightSuite(summary: RunSummary): string[] {
  if (summary.preflight.length === 0) return [];
  const cases = summary.preflight.map((p) => {
    const open = `    <testcase classname="conformance.preflight" name="${esc(`${SURFACE_INFO[p.surface].label} ${p.probe}`)}" time="${(p.durationMs / 1000).toFixed(3)}"`;
    return p.ok ? `${open}/>` : `${open}>\n      <failure message="${esc(p.detail)}" type="PreflightFailure">${esc(p.detail)}</failure>\n    </testcase>`;
  });
  const failures = summary.preflight.filter((p) => !p.ok).length;
  return [`  <testsuite name="conformance preflight" tests="${summary.preflight.length}" failures="${failures}" skipped="0" errors="0" time="0" timestamp="${summary.startedAt}">\n${cases.join('\n')}\n  </testsuite>`];
}

export function junitXml(summary: RunSummary): string {
  const surfaces = [...new Set(summary.results.map((r) => r.surface))];
  const suites = surfaces.map((surface) => {
    const results = summary.results.filter((r) => r.surface === surface);
    const time = results.reduce((t, r) => t + r.durationMs, 0) / 1000;
    const cases = results.map((r) => {
      const open = `    <testcase classname="conformance.${esc(surface)}" name="${esc(`${r.id} [${r.level}] ${r.title}`)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      const level = `      <properties><property name="level" value="${r.level}"/></properties>`;
      if (r.outcome === 'pass') return `${open}>\n${level}\n    </testcase>`;
      if (r.outcome === 'fail') return `${open}>\n${level}\n      <failure message="${esc(`[${r.level}] ${r.reason ?? 'failed'}`)}" type="ContractViolation.${r.level}">${esc(`${r.reason ?? ''}\nlevel: ${r.level}\nseed: ${r.seed}`)}</failure>\n    </testcase>`;
      return `${open}>\n${level}\n      <skipped message="${esc(`${r.skipKind}: ${r.reason ?? ''}`)}"/>\n    </testcase>`;
    });
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    return `  <testsuite name="conformance ${esc(surface)}" tests="${results.length}" failures="${count('fail')}" skipped="${count('skip')}" errors="0" time="${time.toFixed(3)}" timestamp="${summary.startedAt}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const t = summary.totals;
  const probes = summary.preflight.length;
  const brokenProbes = summary.preflight.filter((p) => !p.ok).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="compute-contract conformance (${esc(summary.target)})" tests="${t.rules + probes}" failures="${t.fail + brokenProbes}" skipped="${t.skip}" errors="0" time="${(summary.wallMs / 1000).toFixed(3)}">\n${[...preflightSuite(summary), ...suites].join('\n')}\n</testsuites>\n`;
}
