// Typed access to specs/migration/rest-v1-to-v2.yaml: which REST v2 operation replaces each REST v1
// operation and how request fields move. The YAML is the single source (generated into a typed table).
import { migrationMapData } from '../../generated/migration.js';

export const MIGRATION_MAP_FILE = 'specs/migration/rest-v1-to-v2.yaml';

export * from './map-types.js';
import type { MigrationMap, V2Target } from './map-types.js';

export function isNone(target: V2Target): target is { none: string } {
  return 'none' in target;
}

/** The map, generated from specs/migration/rest-v1-to-v2.yaml into generated/migration.ts (npm run generate). */
export function loadMigrationMap(): MigrationMap {
  return migrationMapData;
}
