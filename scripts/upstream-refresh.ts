// npm run upstream:refresh FILE — rewrites specs/upstream/runpod-rest-v2.facts.json from RunPod's public REST v2
// OpenAPI file (FILE: a downloaded copy; see specs/upstream/README.md for where it is published) and the figures
// in the README (SHA-256, versions, operation count). Only facts are kept (scripts/upstream/openapi-facts.ts).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiFacts, operationCount } from './upstream/openapi-facts.js';

/** A public OpenAPI file is a few hundred KB; anything far larger is not the file we mean. */
const MAX_INPUT_BYTES = 16 * 1024 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(root, 'specs', 'upstream');
const FACTS = join(OUT_DIR, 'runpod-rest-v2.facts.json');
const README = join(OUT_DIR, 'README.md');
const START = '<!-- upstream:refresh start -->';
const END = '<!-- upstream:refresh end -->';

function fail(message: string): never {
  console.error(`upstream:refresh: ${message}`);
  process.exit(1);
}

const file = process.argv[2];
if (!file || process.argv.length > 3) fail('usage: npm run upstream:refresh FILE   (FILE: RunPod\'s REST v2 openapi.json)');

let bytes: Buffer;
try {
  bytes = readFileSync(file);
} catch (error) {
  fail(`cannot read ${file}: ${(error as Error).message}`);
}
if (bytes.length > MAX_INPUT_BYTES) fail(`${file} is ${bytes.length} bytes; more than ${MAX_INPUT_BYTES} is not an OpenAPI file we expect`);

let document: unknown;
try {
  document = JSON.parse(bytes.toString('utf8'));
} catch (error) {
  fail(`${file} is not JSON: ${(error as Error).message}`);
}

let facts: Record<string, unknown>;
try {
  facts = openApiFacts(document);
} catch (error) {
  fail(`${file}: ${(error as Error).message}`);
}

const sha256 = createHash('sha256').update(bytes).digest('hex');
const info = facts['info'] as { version?: string };
const figures = [
  START,
  `| Figure | Value |`,
  `|---|---|`,
  `| SHA-256 of the public file | \`${sha256}\` |`,
  `| OpenAPI version | ${String(facts['openapi'])} |`,
  `| \`info.version\` | ${info.version ?? '(none)'} |`,
  `| Operations | ${operationCount(facts)} |`,
  `| Schemas | ${Object.keys((facts['components'] as { schemas?: object }).schemas ?? {}).length} |`,
  END,
].join('\n');

const readme = readFileSync(README, 'utf8');
const from = readme.indexOf(START);
const to = readme.indexOf(END);
if (from === -1 || to < from) fail(`${README} lost its ${START} … ${END} markers`);
writeFileSync(FACTS, `${JSON.stringify(facts, null, 2)}\n`);
writeFileSync(README, readme.slice(0, from) + figures + readme.slice(to + END.length));
console.log(`wrote ${FACTS} (${operationCount(facts)} operations) and the figures in ${README}; sha256 ${sha256}`);
console.log('Update the source commit and date in the README by hand when the file came from a new snapshot.');
