#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm ci` runs through `prepare`).
// No TypeScript loader at run time: an installed package only ever executes JavaScript.
let cli;
try {
  cli = await import('../dist/esm/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/esm/cli.js')) throw error;
  console.error('compute-contract: the compiled CLI (dist/esm/cli.js) is missing; run `npm run build` in the package first.');
  process.exit(1);
}
process.exitCode = await cli.main(process.argv.slice(2));
