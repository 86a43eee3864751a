#!/usr/bin/env node
// `npm run build`: the compiled package in dist/.
//  1. tsc -p tsconfig.build.json (incremental): type-checks and writes the declarations only, to
//     dist/declarations/; the generated validators' own .d.ts are copied beside them. Those reachable from
//     package.json's `types` are copied to dist/src/ and dist/generated/ (what the package ships).
//  2. esbuild bundles the JavaScript, one file per entry point (dist/esm/index.js, validation.js, mock.js,
//     conform.js, proxy.js, docs.js, pact.js, cli.js, and surfaces/<surface>.js for the validators each
//     surface loads on first use) with code splitting: code two entries share lives once, in dist/esm/chunks/,
//     so every class (ApiError …) has one identity whatever entry it came through. One file instead of ~40
//     is most of what importing the root costs. Dependencies stay external (they are `dependencies`).
//     The generated standalone validators are minified on the way (2.5 → 1.5 MB). dist/meta.json is
//     esbuild's metafile (not shipped): the package checks map loaded files back to their sources with it.
// Plain JavaScript so it runs from `prepare` before anything else is built.
// Type errors fail the build, except with --keep-going (what `prepare` passes, so `npm ci` and `npm pack`
// still work while a type error is being fixed: `npm test` reports it, `prepublishOnly` refuses to publish).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const typed = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

// tsc writes every module's declarations to dist/declarations/ (with its incremental state, so a module it
// did not re-emit is still there); the package ships only those a consumer's compiler can reach.
const declared = join(root, 'dist', 'declarations');
const validatorsFrom = join(root, 'generated', 'validators');
const validatorDeclarations = readdirSync(validatorsFrom).filter((name) => /^[\w-]+(\.params)?\.d\.ts$/.test(name));
if (validatorDeclarations.length === 0) {
  console.error(`build: no generated validators found in ${validatorsFrom}; run \`npm run generate\``);
  process.exit(1);
}
mkdirSync(join(declared, 'generated', 'validators'), { recursive: true });
for (const name of validatorDeclarations) copyFileSync(join(validatorsFrom, name), join(declared, 'generated', 'validators', name));

/**
 * The declaration files reachable from package.json's `types` conditions over relative imports
 * (`from './x.js'`, `import('./x.js')`, `/// <reference path>`): the CLI's, the conformance checks' and
 * other internal modules' declarations no typed entry point names stay out of the package (about 170
 * files, 0.9 MiB on disk).
 */
function reachableDeclarations() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const starts = [manifest.types, ...Object.values(manifest.exports).map((target) => (typeof target === 'object' ? target.types : undefined))]
    .filter((path) => typeof path === 'string' && path.startsWith('./dist/'))
    .map((path) => path.replace(/^\.\/dist\//, ''));
  const seen = new Set();
  const queue = [...starts];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    let text;
    try {
      text = readFileSync(join(declared, file), 'utf8');
    } catch {
      console.error(`build: declaration ${file} is named by package.json or an import but was not emitted`);
      process.exit(1);
    }
    seen.add(file);
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|<reference\s+path=)["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = posix.join(posix.dirname(file), match[1]);
      const candidates = /\.d\.ts$/.test(target) ? [target] : /\.js$/.test(target) ? [target.replace(/\.js$/, '.d.ts')] : [`${target}.d.ts`, `${target}/index.d.ts`];
      queue.push(candidates.find((candidate) => existsSync(join(declared, candidate))) ?? candidates[0]);
    }
  }
  return seen;
}
for (const tree of ['src', 'generated', 'contract-tests']) rmSync(join(root, 'dist', tree), { recursive: true, force: true });
for (const file of reachableDeclarations()) {
  mkdirSync(dirname(join(root, 'dist', file)), { recursive: true });
  copyFileSync(join(declared, file), join(root, 'dist', file));
}

// --declarations: only dist/src, dist/generated .d.ts (what `npm run api:check` reads), no JavaScript.
if (process.argv.includes('--declarations')) {
  if (typed.status !== 0) console.error('build: tsc -p tsconfig.build.json reported type errors (above)');
  process.exit(typed.status ?? 1);
}

const { build, transform } = await import('esbuild');
/** The entry points of package.json "exports" (and the CLI, and one module per validator surface). */
const entryPoints = {
  index: 'src/index.ts',
  validation: 'src/validation/index.ts',
  mock: 'src/entries/mock.ts',
  conform: 'src/entries/conform.ts',
  proxy: 'src/entries/proxy.ts',
  docs: 'src/entries/docs.ts',
  pact: 'src/entries/pact.ts',
  cli: 'src/cli/main.ts',
  // Beside index.js, so the root's synchronous first-use require('./surfaces/<surface>.js') finds them
  // (src/validation/on-demand.ts: the same relative path as in the sources).
  'surfaces/rest-v1': 'src/validation/surfaces/rest-v1.ts',
  'surfaces/queue-v2': 'src/validation/surfaces/queue-v2.ts',
  'surfaces/rest-v2': 'src/validation/surfaces/rest-v2.ts',
};
const minifyGeneratedValidators = {
  name: 'minify-generated-validators',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]generated[\\/]validators[\\/][\w-]+(\.params)?\.js$/ }, async (args) => ({
      contents: (await transform(readFileSync(args.path, 'utf8'), { minify: true, format: 'esm', target: 'es2022', legalComments: 'none' })).code,
      loader: 'js',
    }));
  },
};
const out = join(root, 'dist', 'esm');
rmSync(out, { recursive: true, force: true });
let result;
try {
  result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir: out,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [minifyGeneratedValidators],
  });
} catch (error) {
  console.error(`build: esbuild failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
writeFileSync(join(root, 'dist', 'meta.json'), JSON.stringify(result.metafile));

if (typed.status !== 0) {
  // tsc still wrote every declaration it could (noEmitOnError is off).
  const keepGoing = process.argv.includes('--keep-going');
  console.error(`build: tsc -p tsconfig.build.json reported type errors (above)${keepGoing ? '; dist/ was written anyway (--keep-going)' : ''}`);
  if (!keepGoing) process.exit(typed.status ?? 1);
}
