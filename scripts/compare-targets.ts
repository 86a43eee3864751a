// npm run compare:targets [-- --write]: the full tier (default flags) against our embedded mock, against
// it as the service is today (REST v1 retired) and against Prism serving the REST v1 and queue v2 specs,
// printed as a Markdown table; --write also puts the table into docs/real-targets.md (between its
// compare-targets markers).
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runSideBySide, sideBySideTable } from './targets/side-by-side.js';

const PAGE = fileURLToPath(new URL('../docs/real-targets.md', import.meta.url));
const BEGIN = '<!-- compare-targets:begin -->';
const END = '<!-- compare-targets:end -->';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--write');
if (unknown.length) {
  console.error(`unknown argument ${unknown[0]}\nUsage: npm run compare:targets [-- --write]`);
  process.exit(2);
}

const runs = await runSideBySide((line) => console.error(line), { today: true });
const table = sideBySideTable(runs);
console.log(table);

if (args.includes('--write')) {
  const page = readFileSync(PAGE, 'utf8');
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start === -1 || end < start) throw new Error(`${PAGE} lacks the ${BEGIN} … ${END} markers`);
  const load = loadavg()[0]!.toFixed(1);
  const measured = `Measured by \`npm run compare:targets\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, ${cpus().length} cores, load average ${load} at the end).`;
  writeFileSync(PAGE, `${page.slice(0, start + BEGIN.length)}\n${table}\n\n${measured}\n${page.slice(end)}`);
  console.error(`written into ${PAGE}`);
}
