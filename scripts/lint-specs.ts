// npm run lint:specs — Redocly lint (recommended + redocly.yaml assertions) and the project rules.
import { spawnSync } from 'node:child_process';
import { projectLintProblems } from './lint/project-rules.js';
import { repoRoot } from './lint/fixtures.js';

const redocly = spawnSync('node_modules/.bin/redocly', ['lint', '--format=stylish'], {
  cwd: repoRoot,
  encoding: 'utf8',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
});
const redoclyOutput = `${redocly.stdout}${redocly.stderr}`
  .split('\n')
  .filter((line) => line.trim() && !/[║╔╚]/.test(line))
  .join('\n');
console.log(redoclyOutput);

const problems = await projectLintProblems();
for (const p of problems) console.log(`error  project  ${p}`);
const failed = redocly.status !== 0 || problems.length > 0;
console.log(failed ? `lint:specs failed (redocly exit ${redocly.status}, ${problems.length} project problems)` : 'lint:specs: 0 errors');
process.exit(failed ? 1 : 0);
