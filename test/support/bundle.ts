// A source entry bundled with esbuild, so a child process the test starts (a mock with --state, a worker the
// mock spawns) loads in a fraction of the CPU `node --import tsx` needs to transpile it.
// Kept under node_modules/.cache, so the package root (specs/ beside package.json) is still found above it.
// Built once per content: the bundle is kept beside a list of its inputs and their hashes, and reused by every
// test file, worker and run while each input is unchanged (a build is ~1 s of CPU; several files bundle the
// same entry).
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion, type BuildOptions } from 'esbuild';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CODE_CACHE_LOADER = fileURLToPath(new URL('./code-cache-loader.cjs', import.meta.url));
/** Set (to anything) in a `codeCache` child's environment: it writes its code cache on SIGUSR2 (code-cache-loader.cjs). */
export const WRITE_CODE_CACHE_ENV = 'TEST_BUNDLE_WRITE_CODE_CACHE';

/** Bundles of an older content are removed once this old (a run still using one has long started its children). */
const STALE_MS = 60 * 60 * 1000;

interface Manifest {
  /** The build's options and entry (a changed option is another bundle). */
  key: string;
  /** The bundle's file name, in the same directory. */
  bundle: string;
  /** Every file esbuild read (relative to the repository), with the SHA-256 of its content. */
  inputs: Record<string, string>;
}

/** The name esbuild gives a source-text entry (in its list of inputs: hashed from the text, not read from disk). */
const STDIN_ENTRY = '<test-bundle-entry>.ts';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export class TestBundle {
  private readonly dir: string;
  private path: string | undefined;
  private built: Promise<unknown> | undefined;

  /**
   * `entry`: a file of the repository, or a module's source text resolved from the repository root.
   * `selfContained`: the packages it imports inlined and the whole minified (names kept), for a child started
   * many times: one file to compile instead of a module graph to resolve, about half the load CPU
   * (a `mock --state` child: ~0.8 → ~0.4 s). Only for entries whose packages need no files of their own.
   * `codeCache`: self-contained, as CommonJS, started through test/support/code-cache-loader.cjs (see there and
   * `command()`), which can keep V8's code cache of the bundle beside it: a child then neither parses the bundle
   * nor compiles the functions the cache holds.
   */
  constructor(name: string, private readonly entry: { file: string } | { source: string }, private readonly options: { selfContained?: boolean; codeCache?: boolean } = {}) {
    this.dir = join(REPO, 'node_modules', '.cache', `compute-contract-${name}`);
  }

  /** The bundle's path (once built). */
  get file(): string {
    if (this.path === undefined) throw new Error('TestBundle: call build() first');
    return this.path;
  }

  /**
   * The bundle's V8 code cache (a `codeCache` bundle): named after the bundle, whose name follows its content (V8
   * checks a cache against the source's length only, so a cache is never reused for another content).
   */
  get codeCacheFile(): string {
    return `${this.file}.v8cache`;
  }

  /** Node's arguments that run the bundle: through the code-cache loader for a `codeCache` bundle. */
  command(): string[] {
    return this.options.codeCache ? [CODE_CACHE_LOADER, this.file] : [this.file];
  }

  /** Builds the bundle, or finds it built for the same inputs (cheap after the first call). */
  build(): Promise<unknown> {
    this.built ??= this.findOrBuild().then((path) => {
      this.path = path;
    });
    return this.built;
  }

  /** Forgets the bundle (the file stays for the next file or run with the same inputs). */
  remove(): void {
    this.built = undefined;
  }

  private async findOrBuild(): Promise<string> {
    const input = 'file' in this.entry
      ? { entryPoints: [join(REPO, this.entry.file)] }
      : { stdin: { contents: this.entry.source, resolveDir: REPO, loader: 'ts' as const, sourcefile: STDIN_ENTRY } };
    const packaging: BuildOptions = this.options.codeCache
      // CommonJS (the loader compiles it as a script); import.meta.url is the bundle's own URL, as in the ES module.
      ? { minify: true, keepNames: true, format: 'cjs', define: { 'import.meta.url': '__bundleUrl' }, banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" } }
      : this.options.selfContained
        // Inlined CommonJS packages may require Node's built-ins: give the ES module a require of its own.
        ? { minify: true, keepNames: true, banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" } }
        : { packages: 'external' };
    const extension = this.options.codeCache ? 'cjs' : 'mjs';
    const key = sha256(JSON.stringify({ esbuildVersion, entry: this.entry, packaging }));
    const manifestPath = join(this.dir, `manifest-${key.slice(0, 16)}.json`);
    const found = this.reusable(manifestPath, key);
    if (found) return found;

    mkdirSync(this.dir, { recursive: true });
    const temporary = join(this.dir, `building-${process.pid}-${randomUUID()}.${extension}`);
    const inputs: Record<string, string> = {};
    let bundle: string;
    try {
      const result = await build({ format: 'esm', ...input, ...packaging, bundle: true, platform: 'node', outfile: temporary, absWorkingDir: REPO, metafile: true, logLevel: 'warning' });
      for (const file of Object.keys(result.metafile.inputs)) inputs[file] = this.hashOf(file);
      bundle = `bundle-${sha256(JSON.stringify({ key, inputs })).slice(0, 16)}.${extension}`;
      // Renames: a worker building the same bundle at the same time writes the same bytes, and no reader sees half a file.
      renameSync(temporary, join(this.dir, bundle));
    } finally {
      rmSync(temporary, { force: true });
    }
    const manifest: Manifest = { key, bundle, inputs };
    const manifestTemporary = `${manifestPath}.${process.pid}-${randomUUID()}`;
    writeFileSync(manifestTemporary, JSON.stringify(manifest));
    renameSync(manifestTemporary, manifestPath);
    this.removeStale(bundle);
    return join(this.dir, bundle);
  }

  /** The bundle the manifest names, if it was built with these options from inputs that are all unchanged. */
  private reusable(manifestPath: string, key: string): string | undefined {
    try {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
      if (manifest.key !== key) return undefined;
      for (const [file, hash] of Object.entries(manifest.inputs)) if (this.hashOf(file) !== hash) return undefined;
      const bundle = join(this.dir, manifest.bundle);
      statSync(bundle);
      return bundle;
    } catch {
      return undefined; // no manifest yet, an input gone, the bundle removed: build it
    }
  }

  /** An input's hash: a file of the repository read from disk, the source-text entry from its text. */
  private hashOf(file: string): string {
    return file === STDIN_ENTRY ? sha256(JSON.stringify(this.entry)) : sha256(readFileSync(join(REPO, file)));
  }

  private removeStale(current: string): void {
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name);
      if (name === current || name === `${current}.v8cache` || !/^(bundle|building|entry)-.*\.(mjs|cjs)(\.v8cache)?$/.test(name)) continue;
      try {
        if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
      } catch {
        // removed by another worker meanwhile
      }
    }
  }
}
