// Typed migration table (REST v1 → REST v2) from specs/migration/rest-v1-to-v2.yaml.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './output.js';

export async function migrationModule(): Promise<{ module: string; count: number }> {
  const map = parse(await readFile(join(repoRoot, 'specs/migration/rest-v1-to-v2.yaml'), 'utf8')) as {
    v2?: { operationIds?: unknown };
    operations?: Record<string, unknown>;
  };
  if (!map?.operations || !Array.isArray(map.v2?.operationIds)) {
    throw new Error('specs/migration/rest-v1-to-v2.yaml: expected top-level v2.operationIds and operations');
  }
  // x-source / x-source-note are provenance for readers, not data for the converters.
  const { ['x-source']: _source, ['x-source-note']: _note, ...data } = map as Record<string, unknown>;
  const ids = Object.keys(map.operations);
  const module = [
    `import type { MigrationMap } from '../src/migration/map-types.js';`,
    '',
    `/** The REST v1 operationIds the map covers (every one of REST v1). */`,
    `export type MigratedV1OperationId = ${ids.map((id) => JSON.stringify(id)).join(' | ')};`,
    '',
    `export const migrationMapData: MigrationMap & { operations: Record<MigratedV1OperationId, MigrationMap['operations'][string]> } = ${JSON.stringify(data, null, 2)};`,
    '',
  ].join('\n');
  return { module, count: ids.length };
}
