// `compute-contract docs [--out DIR]`: the documentation site, server-rendered from the specs, the rule
// catalogue, the migration map and every Markdown page under docs/. Self-contained: no script, style or
// font comes from outside, so it works from file:// and any static host. Writers edit the sources only.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { externalRefs } from '../docs/external-refs.js';
import { buildSite, writeSite } from '../docs/site.js';

const HELP = `Usage: compute-contract docs [--out DIR]

Writes the documentation site (REST v1, queue v2, REST v2, GraphQL, rule catalogue, migration map and
every Markdown page under docs/) as static HTML. Open DIR/index.html, or serve DIR from any static host.
\`compute-contract mock --docs\` serves the same site at /docs with try-it panels.

Options:
  --out DIR     output directory (default: docs-site); existing files with the same names are replaced
  -h, --help    show this help
`;

export async function runDocsCommand(argv: string[]): Promise<number> {
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    process.stderr.write(`compute-contract docs: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.out !== undefined && values.out.trim() === '') {
    process.stderr.write(`compute-contract docs: --out needs a directory\n\n${HELP}`);
    return 2;
  }
  const out = resolve(values.out ?? 'docs-site');
  const started = performance.now();
  let site;
  try {
    site = buildSite();
  } catch (error) {
    process.stderr.write(`compute-contract docs: cannot build the site: ${(error as Error).message}\n`);
    return 1;
  }
  const external = externalRefs(site.files);
  if (external.length > 0) {
    process.stderr.write(`compute-contract docs: the site would load from outside:\n${external.map((r) => `  ${r.file}: ${r.kind} ${r.url}`).join('\n')}\n`);
    return 1;
  }
  let bytes: number;
  try {
    bytes = await writeSite(out, site);
  } catch (error) {
    process.stderr.write(`compute-contract docs: cannot write to ${out}: ${(error as Error).message}\n`);
    return 1;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`docs written to ${out}: ${site.pages.length} pages, ${(bytes / 1024).toFixed(0)} KiB, ${seconds} s (open ${resolve(out, 'index.html')})`);
  return 0;
}
