// `compute-contract worker` bundled once per test file (esbuild), so each worker process the mock spawns
// starts in a quarter of the CPU time `node --import tsx src/cli/main.ts worker` needs (it transpiles the
// CLI at every start). The same source, run the same way; the installed CLI is tested in test/package.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** Under node_modules/.cache, so the package root (specs/ beside package.json) is still found above it. */
const BUNDLE = join(REPO, 'node_modules', '.cache', 'compute-contract-worker-tests', `worker-${process.pid}-${randomUUID()}.mjs`);
const ENTRY = "import { runWorkerCommand } from './src/cli/worker-command.ts';\nprocess.exitCode = await runWorkerCommand(process.argv.slice(2));\n";

/** Builds the bundle and answers the shell command that runs `compute-contract worker ARGS` from it. */
export async function bundledWorkerCommand(args: string): Promise<string> {
  await build({
    stdin: { contents: ENTRY, resolveDir: REPO, loader: 'ts', sourcefile: 'worker-entry.ts' },
    bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: BUNDLE, logLevel: 'warning',
  });
  return `${process.execPath} ${BUNDLE} ${args}`;
}

export function removeBundledWorker(): void {
  rmSync(BUNDLE, { force: true });
}
