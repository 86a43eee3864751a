// `compute-contract worker` bundled once per test file (test/support/bundle.ts), so each worker process the
// mock spawns starts in a quarter of the CPU time `node --import tsx src/cli/main.ts worker` needs. The same
// source, run the same way; the installed CLI is tested in test/package.
import { TestBundle } from '../support/bundle.js';

const worker = new TestBundle('worker-tests', {
  source: "import { runWorkerCommand } from './src/cli/worker-command.ts';\nprocess.exitCode = await runWorkerCommand(process.argv.slice(2));\n",
});

/** Builds the bundle and answers the shell command that runs `compute-contract worker ARGS` from it. */
export async function bundledWorkerCommand(args: string): Promise<string> {
  await worker.build();
  return `${process.execPath} ${worker.file} ${args}`;
}

export function removeBundledWorker(): void {
  worker.remove();
}
