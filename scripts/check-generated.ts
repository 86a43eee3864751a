// npm run check:generated — regenerates and fails when generated/ differs from what is committed.
import { spawnSync } from 'node:child_process';

const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1;

if (run(process.execPath, ['--import', 'tsx', 'scripts/generate.ts']) !== 0) process.exit(1);
const diff = run('git', ['diff', '--exit-code', '--stat', '--', 'generated/']);
const untracked = spawnSync('git', ['ls-files', '--others', '--exclude-standard', '--', 'generated/'], { encoding: 'utf8' }).stdout.trim();
if (untracked) console.error(`untracked generated files:\n${untracked}`);
if (diff !== 0 || untracked) {
  console.error('generated/ is out of date: run `npm run generate` and commit the result.');
  process.exit(1);
}
console.log('generated/ is up to date');
