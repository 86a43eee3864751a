// The shape of specs/migration/rest-v1-to-v2.yaml: what generated/migration.ts is typed with (types only here,
// so the generated table and src/migration/map.ts, which reads it, do not import each other).

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
