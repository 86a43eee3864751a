#!/usr/bin/env node
// `npm run build`: compiles src/, generated/ and contract-tests/ into dist/ (tsc, incremental), then copies
// the generated standalone Ajv validators (plain .js with generated .d.ts beside them, never compiled:
// tsc would re-emit them and derive 10× larger declarations) next to their compiled index modules,
// minified (esbuild: 2.5 → 1.5 MB, less for a surface's first use to parse).
// Plain JavaScript so it runs from `prepare` before anything else is built.
// Type errors fail the build, except with --keep-going (what `prepare` passes, so `npm ci` and `npm pack`
// still work while a type error is being fixed: `npm test` reports it, `prepublishOnly` refuses to publish).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

const { transformSync } = await import('esbuild');
const minify = (code) => transformSync(code, { minify: true, format: 'esm', target: 'es2022', legalComments: 'none' }).code;

const from = join(root, 'generated', 'validators');
const to = join(root, 'dist', 'generated', 'validators');
mkdirSync(to, { recursive: true });
let copied = 0;
for (const name of readdirSync(from)) {
  // The standalone validators and their declarations; the .ts index modules were compiled above.
  if (!/^[\w-]+(\.params)?\.(js|d\.ts)$/.test(name)) continue;
  if (name.endsWith('.d.ts')) copyFileSync(join(from, name), join(to, name));
  else writeFileSync(join(to, name), minify(readFileSync(join(from, name), 'utf8')));
  copied++;
}
if (copied === 0) {
  console.error(`build: no generated validators found in ${from}; run \`npm run generate\``);
  process.exit(1);
}
if (compiled.status !== 0) {
  // tsc still emitted everything it could (noEmitOnError is off).
  const keepGoing = process.argv.includes('--keep-going');
  console.error(`build: tsc -p tsconfig.build.json reported type errors (above)${keepGoing ? '; dist/ was written anyway (--keep-going)' : ''}`);
  if (!keepGoing) process.exit(compiled.status ?? 1);
}
