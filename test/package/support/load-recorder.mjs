// `node --import <this file>`: records every module the process loads, so a test can tell what importing
// an entry point costs in modules. ES modules come from a resolve hook (it runs on the loader thread and
// appends to the file in LOAD_RECORD); CommonJS modules (Ajv's runtime, graphql's CJS build …) are in
// require.cache, dumped to the same file when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.LOAD_RECORD;
if (!file) throw new Error('load-recorder: set LOAD_RECORD to the file that receives the loaded modules');
register(new URL('./load-recorder-hooks.mjs', import.meta.url), { data: { file } });
process.on('exit', () => {
  const cache = createRequire(import.meta.url).cache;
  const lines = Object.keys(cache).map((path) => `cjs ${path}\n`);
  if (lines.length > 0) appendFileSync(file, lines.join(''));
});
