// `npm test`: vitest and the type check (tsc --noEmit, type tests included) at the same time. vitest
// leaves a core idle whenever its files wait on a browser, Prism or a clock, and the type check fills
// it. Arguments go to vitest (`npm test -- test/conform`); the exit code is the first failure's.
// The type check is incremental (its state under node_modules/.cache): a second `npm test` re-checks only
// what changed and what depends on it, instead of the whole program (over a minute of CPU on 2 cores).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TSC_STATE = fileURLToPath(new URL('../node_modules/.cache/compute-contract/tsc-test.tsbuildinfo', import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const [tests, types] = await Promise.all([run(bin('vitest'), ['run', ...process.argv.slice(2)]), run(bin('tsc'), ['--noEmit', '--incremental', '--tsBuildInfoFile', TSC_STATE])]);
if (types !== 0) console.error('tsc --noEmit found type errors (above)');
process.exitCode = tests || types;
