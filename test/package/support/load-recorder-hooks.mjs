// Module hooks of load-recorder.mjs: one line per resolved ES module URL.
import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `esm ${resolved.url}\n`);
  return resolved;
}
