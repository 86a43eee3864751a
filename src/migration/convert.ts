// One generic interpreter of the migration map: v1 request body/query/path/error → v2 shape.
// Throws MigrationError for a v1 field the map does not know (v1 rejects unknown fields anyway) and for
// operations without a v2 equivalent (e.g. resetPod).
import { STATUS_CODES } from 'node:http';
import { isNone, loadMigrationMap, type FieldEntry, type FieldMap, type OperationMapping, type TransformName, type V2Operation } from './map.js';

type Json = Record<string, unknown>;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export interface DroppedField {
  /** v1 field (body or query parameter). */
  field: string;
  reason: string;
}

export interface Conversion {
  v2: V2Operation;
  /** The v2 JSON value (body or query object); undefined when v2 takes none. */
  value: Json | undefined;
  dropped: DroppedField[];
  /** Caveats of the fields that moved (from the map's `note`s). */
  notes: string[];
}

export function operationMapping(v1OperationId: string): OperationMapping {
  const mapping = loadMigrationMap().operations[v1OperationId];
  if (!mapping) throw new MigrationError(`REST v1 operation "${v1OperationId}" has no migration entry`);
  return mapping;
}

/** The v2 operation replacing a v1 one; throws with the map's reason when there is none. */
export function v2OperationFor(v1OperationId: string): V2Operation {
  const { v2 } = operationMapping(v1OperationId);
  if (isNone(v2)) throw new MigrationError(`REST v1 ${v1OperationId} has no REST v2 equivalent: ${v2.none}`);
  return v2;
}

/** v2 request body for a v1 one (constants such as the pod action included). */
export function convertBody(v1OperationId: string, v1Body: unknown): Conversion {
  const mapping = operationMapping(v1OperationId);
  const v2 = v2OperationFor(v1OperationId);
  const result: Conversion = { v2, value: undefined, dropped: [], notes: [] };
  const input = (v1Body ?? {}) as Json;
  if (typeof input !== 'object' || Array.isArray(input)) throw new MigrationError(`${v1OperationId}: the v1 body must be an object`);
  if (!mapping.body && !mapping.set) {
    if (Object.keys(input).length > 0) throw new MigrationError(`${v1OperationId}: v1 takes no body, got ${Object.keys(input).join(', ')}`);
    return result;
  }
  const out: Json = {};
  if (mapping.body) {
    const v1 = withDefaults(input, mapping.body.defaults ?? {});
    mapFields(v1OperationId, v1, mapping.body.fields, out, result);
    for (const [prefix, keys] of Object.entries(mapping.body.fill ?? {})) {
      const target = getPath(out, prefix);
      if (target && typeof target === 'object' && !Array.isArray(target)) {
        for (const [k, v] of Object.entries(keys)) if (!(k in target)) (target as Json)[k] = v;
      }
    }
  } else if (Object.keys(input).length > 0) {
    throw new MigrationError(`${v1OperationId}: v1 takes no body, got ${Object.keys(input).join(', ')}`);
  }
  for (const [path, value] of Object.entries(mapping.set ?? {})) setPath(out, path, value);
  result.value = out;
  return result;
}

/** v2 query parameters for v1 ones. */
export function convertQuery(v1OperationId: string, v1Query: Record<string, unknown> = {}): Conversion {
  const mapping = operationMapping(v1OperationId);
  const result: Conversion = { v2: v2OperationFor(v1OperationId), value: undefined, dropped: [], notes: [] };
  const out: Json = {};
  mapFields(v1OperationId, v1Query, mapping.query ?? {}, out, result);
  result.value = out;
  return result;
}

/** The concrete v2 path, e.g. getPod {podId: 'abc'} → /v2/pods/abc. */
export function convertPath(v1OperationId: string, v1PathParams: Record<string, string> = {}): string {
  const mapping = operationMapping(v1OperationId);
  const v2 = v2OperationFor(v1OperationId);
  const renames = mapping.pathParams ?? {};
  let path = v2.path;
  for (const [v1Name, value] of Object.entries(v1PathParams)) {
    const v2Name = renames[v1Name];
    if (!v2Name) throw new MigrationError(`${v1OperationId}: unknown v1 path parameter "${v1Name}"`);
    path = path.replace(`{${v2Name}}`, encodeURIComponent(value));
  }
  if (/\{[^}]+\}/.test(path)) throw new MigrationError(`${v1OperationId}: path parameter missing for ${path}`);
  return path;
}

/** The items of a v2 list answer, i.e. what v1 returned as a bare array. */
export function v1ListFromV2(v1OperationId: string, v2Answer: unknown): unknown[] {
  const key = operationMapping(v1OperationId).response.list;
  if (!key) throw new MigrationError(`${v1OperationId}: not a list operation`);
  const items = (v2Answer as Json | null)?.[key];
  if (!Array.isArray(items)) throw new MigrationError(`${v1OperationId}: v2 answer lacks the "${key}" list`);
  return items;
}

export interface ProblemDetails { title: string; status: number; detail: string; errors?: string[] }

/** A v1 error body `{message, errors?: [{path, message}]}` as the v2 RFC 9457 problem. */
export function problemFromV1Error(status: number, v1Error: { message: string; errors?: { path: string; message: string }[] }): ProblemDetails {
  const problem: ProblemDetails = { title: STATUS_CODES[status] ?? 'Error', status, detail: v1Error.message };
  if (v1Error.errors?.length) problem.errors = v1Error.errors.map((e) => `${e.path}: ${e.message}`);
  return problem;
}

function withDefaults(body: Json, defaults: Record<string, unknown>): Json {
  const v1: Json = { ...body };
  for (const [k, v] of Object.entries(defaults)) {
    if (v1[k] !== undefined && v1[k] !== null) continue;
    v1[k] = typeof v === 'string' ? v.replace(/\{(\w+)\}/g, (_, f: string) => String(body[f] ?? '')) : v;
  }
  return v1;
}

function mapFields(opId: string, v1: Json, fields: FieldMap, out: Json, result: Conversion): void {
  for (const [field, value] of Object.entries(v1)) {
    if (value === undefined || value === null) continue;
    const entry = fields[field];
    if (entry === undefined) throw new MigrationError(`${opId}: v1 field "${field}" has no migration entry`);
    apply(entry, field, value, v1, out, result);
  }
}

function apply(entry: FieldEntry, field: string, value: unknown, v1: Json, out: Json, result: Conversion): void {
  if (typeof entry === 'string') return write(out, entry, value);
  if ('drop' in entry) {
    // An empty list or object (v1's own default, e.g. dockerEntrypoint: []) loses nothing.
    if (isEmpty(value)) return;
    return void result.dropped.push({ field, reason: entry.drop });
  }
  if ('usedBy' in entry) return;
  if ('by' in entry) {
    const selector = v1[entry.by];
    const key = selector === undefined || selector === null ? 'absent' : String(selector);
    const chosen = entry.cases[key] ?? entry.cases['default'];
    if (chosen === undefined) return void result.dropped.push({ field, reason: `no v2 place when ${entry.by} is ${key}` });
    return apply(chosen, field, value, v1, out, result);
  }
  if (entry.skip?.some((s) => s === value)) return;
  let v2Value = entry.values && String(value) in entry.values ? entry.values[String(value)] : value;
  if (entry.transform) v2Value = transform(entry.transform, v2Value, v1);
  if (v2Value === undefined) return;
  if (entry.note) result.notes.push(`${field} → ${entry.to}: ${entry.note}`);
  write(out, entry.to, v2Value);
}

function transform(name: TransformName, value: unknown, v1: Json): unknown {
  switch (name) {
    case 'first':
      return Array.isArray(value) ? value[0] : value;
    case 'shellJoin':
      return Array.isArray(value) && value.length > 0 ? value.map((w) => shellQuote(String(w))).join(' ') : undefined;
    case 'wrap':
      return Array.isArray(value) ? value : [value];
    case 'cpuConfigs': {
      const vcpuCount = typeof v1['vcpuCount'] === 'number' ? v1['vcpuCount'] : 2;
      return (Array.isArray(value) ? value : [value]).map((id) => ({ id, vcpuCount }));
    }
  }
}

function isEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : value !== null && typeof value === 'object' && Object.keys(value).length === 0;
}

/** POSIX shell quoting: safe words stay bare, anything else goes in single quotes. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\-+=/.,:@%]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function segments(path: string): (string | number)[] {
  return path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function getPath(root: Json, path: string): unknown {
  let node: unknown = root;
  for (const seg of segments(path)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[seg];
  }
  return node;
}

function setPath(root: Json, path: string, value: unknown): void {
  const segs = segments(path);
  let node = root as Record<string | number, unknown>;
  segs.forEach((seg, i) => {
    if (i === segs.length - 1) {
      node[seg] = value;
      return;
    }
    const next = segs[i + 1];
    if (node[seg] === undefined || node[seg] === null || typeof node[seg] !== 'object') node[seg] = typeof next === 'number' ? [] : {};
    node = node[seg] as Record<string | number, unknown>;
  });
}

/** Sets a v2 path; two v1 fields feeding one v2 list are merged without duplicates. */
function write(out: Json, path: string, value: unknown): void {
  const existing = getPath(out, path);
  if (Array.isArray(existing) && Array.isArray(value)) setPath(out, path, [...new Set([...existing, ...value])]);
  else setPath(out, path, value);
}
