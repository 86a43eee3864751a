// The x- extensions documented in specs/EXTENSIONS.md: the only ones the specs may use.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from './output.js';

export async function documentedExtensions(): Promise<string[]> {
  const text = await readFile(join(repoRoot, 'specs/EXTENSIONS.md'), 'utf8');
  return [...text.matchAll(/^\| `(x-[a-z0-9-]+)` \|/gm)].map((m) => m[1] as string);
}
