// `npm test`: vitest and the type check (tsc, type tests included) at the same time. vitest leaves a core idle
// whenever its files wait on a browser, Prism or a clock, and the type check fills it. Arguments go to vitest
// (`npm test -- test/conform`); the exit code is the first failure's.
// The type check is `tsc -b` of the project with its state under node_modules/.cache: when no file changed since
// the last check it only compares times (~1.5 s of CPU instead of ~15 s to parse and bind 2,275 files again), and
// otherwise re-checks only what changed and what depends on it, instead of the whole program (~1 min of CPU).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);

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

/**
 * `tsc -b` of tsconfig.json with incremental state, through a config of its own under node_modules/.cache.
 * tsc -b judges "up to date" by the times of the project's own files against its state file, so:
 * - the state is keyed by package-lock.json (changed dependencies, types outside the project, start a new one)
 *   and by the repository's path (which the config names);
 * - the state file's time is set back to when the check started: a file saved while it ran is newer, and the
 *   next check takes it up (its time alone would otherwise say it was checked).
 */
async function typeCheck(): Promise<number> {
  const dir = join(REPO, 'node_modules', '.cache', 'compute-contract');
  const lock = existsSync(join(REPO, 'package-lock.json')) ? readFileSync(join(REPO, 'package-lock.json')) : '';
  // The repository's path too: the config names it, and node_modules may be copied to another clone or worktree.
  const key = createHash('sha256').update(lock).update(REPO).digest('hex').slice(0, 12);
  const config = join(dir, `tsconfig.test-${key}.json`);
  const state = join(dir, `tsc-test-${key}.tsbuildinfo`);
  if (!existsSync(config)) {
    mkdirSync(dir, { recursive: true });
    // Another lockfile's or clone's state (a node_modules copied with hard links shares its files) is removed, never
    // written through or taken for this one's (tsc -b rebuilds it whole when the options differ anyway).
    for (const name of readdirSync(dir)) if (/^(tsconfig\.test-.*\.json|tsc-test.*\.tsbuildinfo)$/.test(name)) rmSync(join(dir, name), { force: true });
    writeFileSync(config, `${JSON.stringify({ extends: join(REPO, 'tsconfig.json'), compilerOptions: { incremental: true, tsBuildInfoFile: `./tsc-test-${key}.tsbuildinfo` } }, null, 2)}\n`);
    utimesSync(config, 0, 0); // never newer than the state: the project's own tsconfig.json is what tsc compares
  }
  const started = (Date.now() - 2_000) / 1000;
  const code = await run(bin('tsc'), ['-b', config]);
  if (existsSync(state)) utimesSync(state, started, started);
  return code;
}

const [tests, types] = await Promise.all([run(bin('vitest'), ['run', ...process.argv.slice(2)]), typeCheck()]);
if (types !== 0) console.error('tsc found type errors (above)');
process.exitCode = tests || types;
