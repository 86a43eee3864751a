// Typed access to specs/migration/rest-v1-to-v2.yaml: which REST v2 operation replaces each REST v1
// operation and how request fields move. The YAML is the single source (generated into a typed table).
import { migrationMapData } from '../../generated/migration.js';

export const MIGRATION_MAP_FILE = 'specs/migration/rest-v1-to-v2.yaml';

/** Names of the value transforms a field entry may ask for (see the YAML header). */
export const TRANSFORMS = ['first', 'shellJoin', 'wrap', 'cpuConfigs'] as const;
export type TransformName = (typeof TRANSFORMS)[number];

export interface MoveEntry {
  to: string;
  values?: Record<string, unknown>;
  transform?: TransformName;
  skip?: unknown[];
  note?: string;
}
export interface DropEntry { drop: string }
export interface UsedByEntry { usedBy: string; note?: string }
export interface ByEntry { by: string; cases: Record<string, FieldEntry> }
/** A bare string is a MoveEntry's `to`. */
export type FieldEntry = string | MoveEntry | DropEntry | UsedByEntry | ByEntry;
export type FieldMap = Record<string, FieldEntry>;

export type V2Operation = { operationId: string; method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; path: string };
export type V2Target = V2Operation | { none: string };

export interface BodyMapping {
  /** v1 server defaults made explicit before mapping; `{field}` in a string names another v1 field. */
  defaults?: Record<string, unknown>;
  fields: FieldMap;
  /** Keys added to a v2 object (dotted path) when it exists but lacks them. */
  fill?: Record<string, Record<string, unknown>>;
}

export interface OperationMapping {
  /** "METHOD /path" on REST v1. */
  v1: string;
  v2: V2Target;
  pathParams?: Record<string, string>;
  set?: Record<string, unknown>;
  response: { v1Status: number; v2Status?: number; list?: string };
  query?: FieldMap;
  body?: BodyMapping;
}

export interface MigrationMap {
  v2: { server: string; operationIds: string[] };
  errors: {
    v1: { contentType: string; fields: string[] };
    v2: { contentType: string; fields: string[] };
    fields: FieldMap;
    added: Record<string, string>;
    newStatuses: Record<string, string>;
  };
  operations: Record<string, OperationMapping>;
}

export function isNone(target: V2Target): target is { none: string } {
  return 'none' in target;
}

/** The map, generated from specs/migration/rest-v1-to-v2.yaml into generated/migration.ts (npm run generate). */
export function loadMigrationMap(): MigrationMap {
  return migrationMapData;
}
