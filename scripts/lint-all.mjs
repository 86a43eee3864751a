#!/usr/bin/env node
// npm run lint: two chains side by side (2 cores), each chain's output printed whole when it ends.
//   specs, import layering, self-containment | the TypeScript API report, then the contract gate
// Exit code 1 when any step fails; a chain stops at its first failure.
import { spawn } from 'node:child_process';

const chains = [
  ['lint:specs', 'lint:imports', 'lint:self-contained'],
  ['api:check', 'lint:contract'],
];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ script, code: code ?? 1, output }));
    child.on('error', (error) => resolve({ script, code: 1, output: String(error) }));
  });
}

async function chain(scripts) {
  for (const script of scripts) {
    const result = await step(script);
    process.stdout.write(result.output);
    if (result.code !== 0) return `${script} failed (exit ${result.code})`;
  }
  return undefined;
}

const failures = (await Promise.all(chains.map(chain))).filter(Boolean);
for (const failure of failures) console.error(`lint: ${failure}`);
process.exit(failures.length ? 1 : 0);
