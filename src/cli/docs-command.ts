// `compute-contract docs [--out DIR]`: HTML docs built from the specs (Redoc for OpenAPI, plain pages
// for the GraphQL SDL and the rule catalogue) so writers edit specs/ and never the HTML.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { rules } from '../../generated/rules.js';
import { packageRoot } from '../package-files.js';

const root = packageRoot;
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;vertical-align:top}pre{background:#f6f8fa;padding:1rem;overflow:auto}</style>` +
  `</head><body>${body}</body></html>\n`;

function redoclyBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
}

export async function runDocsCommand(argv: string[]): Promise<number> {
  const outIndex = argv.indexOf('--out');
  const out = resolve(outIndex >= 0 && argv[outIndex + 1] ? argv[outIndex + 1] as string : join(root, 'docs-site'));
  await mkdir(out, { recursive: true });
  for (const spec of ['rest-v1', 'queue-v2']) {
    const result = spawnSync(process.execPath, [redoclyBin(), 'build-docs', join(root, 'generated', spec, 'openapi.json'), '-o', join(out, `${spec}.html`)], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    if (result.status !== 0) {
      console.error(`build-docs failed for ${spec}:\n${result.stderr}`);
      return 1;
    }
  }
  const sdl = await readFile(join(root, 'specs/graphql/schema.graphql'), 'utf8');
  await writeFile(join(out, 'graphql.html'), page('GraphQL schema', `<h1>GraphQL (templates and secrets)</h1><p>Address <code>{graphql_url}?api_key=…</code>, no version.</p><pre>${escapeHtml(sdl)}</pre>`));
  const rows = rules
    .map((r) => `<tr><td><code>${r.id}</code></td><td>${escapeHtml(r.title)}</td><td>${r.surface}</td><td>${r.check}</td><td>${r.source}</td><td>${escapeHtml(r.seed)}</td></tr>`)
    .join('');
  await writeFile(join(out, 'rules.html'), page('Rule catalogue', `<h1>Rule catalogue (${rules.length})</h1><table><tr><th>ID</th><th>Rule</th><th>Surface</th><th>Check</th><th>Source</th><th>Seed section</th></tr>${rows}</table>`));
  await writeFile(join(out, 'index.html'), page('compute-contract docs', `<h1>compute-contract</h1><ul>
<li><a href="rest-v1.html">REST v1 — management</a></li><li><a href="queue-v2.html">queue v2 — serverless jobs</a></li>
<li><a href="graphql.html">GraphQL — templates and secrets</a></li><li><a href="rules.html">Rule catalogue</a></li></ul>`));
  console.log(`docs written to ${out}`);
  return 0;
}
