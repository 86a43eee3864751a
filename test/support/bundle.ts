// A source entry bundled once per test file with esbuild, so a child process the test starts (a mock with
// --state, a worker the mock spawns) loads in a fraction of the CPU `node --import tsx` needs to transpile it.
// Kept under node_modules/.cache, so the package root (specs/ beside package.json) is still found above it.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export class TestBundle {
  /** The bundle's path (valid once built). */
  readonly file: string;
  private built: Promise<unknown> | undefined;

  /**
   * `entry`: a file of the repository, or a module's source text resolved from the repository root.
   * `selfContained`: the packages it imports inlined and the whole minified (names kept), for a child started
   * many times: one file to compile instead of a module graph to resolve, about half the load CPU
   * (a `mock --state` child: ~0.8 → ~0.4 s). Only for entries whose packages need no files of their own.
   */
  constructor(name: string, private readonly entry: { file: string } | { source: string }, private readonly options: { selfContained?: boolean } = {}) {
    this.file = join(REPO, 'node_modules', '.cache', `compute-contract-${name}`, `entry-${process.pid}-${randomUUID()}.mjs`);
  }

  /** Builds the bundle (cheap after the first call). */
  build(): Promise<unknown> {
    const input = 'file' in this.entry
      ? { entryPoints: [join(REPO, this.entry.file)] }
      : { stdin: { contents: this.entry.source, resolveDir: REPO, loader: 'ts' as const, sourcefile: 'entry.ts' } };
    const packaging = this.options.selfContained
      // Inlined CommonJS packages may require Node's built-ins: give the ES module a require of its own.
      ? { minify: true, keepNames: true, banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" } }
      : { packages: 'external' as const };
    this.built ??= build({ ...input, bundle: true, platform: 'node', format: 'esm', ...packaging, outfile: this.file, logLevel: 'warning' });
    return this.built;
  }

  remove(): void {
    rmSync(this.file, { force: true });
    this.built = undefined;
  }
}
