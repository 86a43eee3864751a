// Absolute paths of the package's own data files (specs/, generated/ …), found from the package root so
// they resolve the same from src/ (a clone, tsx) and from dist/src/ (the published build).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'specs')) && existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('compute-contract: cannot find the package root (specs/ next to package.json)');
}

export const packageRoot = findPackageRoot();

/** `packageFile('specs/graphql/schema.graphql')` → absolute path inside the package. */
export function packageFile(relativePath: string): string {
  return join(packageRoot, relativePath);
}
