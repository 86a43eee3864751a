// npm run lint:self-contained — a clone stands alone: no source, test, script or check names a file outside
// the repository. Every string literal holding a relative path (dot-dot segments) is resolved from its file's folder
// (and, for URLs built on import.meta.url, the same way); one that leaves the repository fails, as does an
// absolute path into a machine's home or work folders. Temporary folders (os.tmpdir()) are not named, so pass.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src', 'test', 'scripts', 'contract-tests', 'examples', 'bin'];
const EXTENSIONS = /\.(ts|mts|cts|js|mjs|cjs|json)$/;
const SKIP = new Set(['node_modules', 'dist', '.git']);
/** Bounds the walk: the repository holds a few thousand files. */
const MAX_FILES = 20_000;
/** A relative path in quotes or backticks, starting with one or more dot-dot segments. */
const RELATIVE = /(['"`])((?:\.\/)?(?:\.\.\/)+[^'"`\s$]*)\1/g;
/** Absolute paths no clone has. */
const FOREIGN_ABSOLUTE = /(['"`])(\/(?:work|home|Users)\/[^'"`\s]*)\1/g;

function files(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (EXTENSIONS.test(name)) out.push(path);
    if (out.length > MAX_FILES) throw new Error(`more than ${MAX_FILES} files under ${FOLDERS.join(', ')}`);
  }
  return out;
}

const inside = (path: string) => path === root.replace(/\/$/, '') || path.startsWith(root.endsWith(sep) ? root : root + sep);

const problems: string[] = [];
for (const folder of FOLDERS) {
  let found: string[];
  try {
    found = files(join(root, folder), []);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
    throw error;
  }
  for (const file of found) {
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    for (const match of text.matchAll(RELATIVE)) {
      const target = resolve(dirname(file), match[2]!);
      if (!inside(target)) problems.push(`${where}: ${match[2]} leaves the repository (${target})`);
    }
    for (const match of text.matchAll(FOREIGN_ABSOLUTE)) problems.push(`${where}: ${match[2]} is a path outside the repository`);
  }
}

if (problems.length) {
  console.error(`A clone must stand alone; these paths point outside it (keep what a test reads in the repository, e.g. specs/upstream/):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`no path leaves the repository (${FOLDERS.join(', ')})`);
