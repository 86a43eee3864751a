// What changed between two facts documents of RunPod's REST v2 description (the committed extract and a new
// file's facts), operation by operation and component by component, each item with its path; and where our
// REST v2 spec stands on each. api-smart-diff finds the changes (it dereferences, so a component's change
// is kept once, under the component, and not again under every operation that references it).
import { apiDiff } from 'api-smart-diff';
import { withoutProse } from '../contract/openapi-diff.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const COMPONENT_KINDS = ['schemas', 'parameters', 'responses', 'headers', 'requestBodies', 'securitySchemes'];

export interface UpstreamRow {
  /** What changed in RunPod's file, with paths. */
  what: string;
  /** Where our REST v2 spec stands on it. */
  ours: string;
}

function compact(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return 'none';
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
}

function at(document: unknown, path: readonly (string | number)[]): unknown {
  let node = document;
  for (const part of path) node = isObject(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[part] : undefined;
  return node;
}

/** True when walking the raw (not dereferenced) facts along the path passes a $ref: the change is a component's. */
function throughRef(document: unknown, path: readonly (string | number)[]): boolean {
  let node = document;
  for (const part of path) {
    if (isObject(node) && typeof node['$ref'] === 'string') return true;
    node = isObject(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[part] : undefined;
    if (node === undefined) return false;
  }
  return false;
}

/** `allOf[1].properties.vcpuCount` from a path inside a component. */
function fieldPath(path: readonly (string | number)[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${part}`)).join('');
}

function operationsOf(facts: Json): Map<string, { id: string; method: string; path: string; op: Json }> {
  const out = new Map<string, { id: string; method: string; path: string; op: Json }>();
  for (const [path, item] of Object.entries((facts['paths'] ?? {}) as Json)) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item['parameters']) ? item['parameters'] : [];
    for (const method of METHODS) {
      const raw = item[method];
      if (!isObject(raw)) continue;
      const op = shared.length ? { ...raw, parameters: [...shared, ...(Array.isArray(raw['parameters']) ? raw['parameters'] : [])] } : raw;
      out.set(`${method.toUpperCase()} ${path}`, { id: String(op['operationId'] ?? `${method} ${path}`), method, path, op });
    }
  }
  return out;
}

function describeOperation(op: Json): string {
  const params = Array.isArray(op['parameters']) ? (op['parameters'] as Json[]).map((p) => (typeof p['$ref'] === 'string' ? String(p['$ref']).split('/').pop() : `${String(p['name'])} (${String(p['in'])}${p['required'] ? ', required' : ''})`)) : [];
  const body = at(op, ['requestBody', 'content', 'application/json', 'schema', '$ref']);
  const responses = Object.keys((op['responses'] ?? {}) as Json);
  return [params.length ? `parameters ${params.join(', ')}` : 'no parameters', body ? `body ${String(body).split('/').pop()}` : '', `responses ${responses.join(', ')}`].filter(Boolean).join('; ');
}

function oursOnOperation(ours: Json, key: string, id: string): string {
  const found = operationsOf(ours).get(key);
  if (found) return found.id === id ? `has \`${id}\`` : `has ${key} as \`${found.id}\``;
  const byId = [...operationsOf(ours).values()].find((op) => op.id === id);
  return byId ? `has \`${id}\` at ${byId.method.toUpperCase()} ${byId.path}` : 'not in our spec';
}

/** Where our spec stands on one changed item: the same value at the same path of the same component, or not. */
function oursOnItem(ours: Json, path: readonly (string | number)[], action: string, after: unknown): string {
  // Our spec carries descriptions and x-source beside each fact; only the facts are compared.
  const value = withoutProse(at(ours, path), path[path.length - 1] === 'properties');
  if (action === 'remove') return value === undefined ? 'ours: gone too' : `ours: still has it (${compact(value)})`;
  if (value === undefined) {
    const parent = at(ours, path.slice(0, -1));
    if (Array.isArray(parent) && parent.some((item) => JSON.stringify(item) === JSON.stringify(after))) return 'ours: same';
    return 'ours: missing';
  }
  return JSON.stringify(value) === JSON.stringify(after) ? 'ours: same' : `ours: ${compact(value)}`;
}

function item(diff: { action: string; path: (string | number)[]; before?: unknown; after?: unknown }, from: number): string {
  const where = fieldPath(diff.path.slice(from)) || '(whole)';
  if (diff.action === 'add') return `\`${where}\` added ${compact(diff.after)}`;
  if (diff.action === 'remove') return `\`${where}\` removed (was ${compact(diff.before)})`;
  return `\`${where}\` ${compact(diff.before)} -> ${compact(diff.after)}`;
}

/** Both documents with only the path items that differ (the classifier dereferences every operation it sees). */
function changedPathsOnly(a: Json, b: Json): [Json, Json] {
  const pathsA = (a['paths'] ?? {}) as Json;
  const pathsB = (b['paths'] ?? {}) as Json;
  const keep = (paths: Json, other: Json) => Object.fromEntries(Object.entries(paths).filter(([path, item]) => JSON.stringify(item) !== JSON.stringify(other[path])));
  return [{ ...a, paths: keep(pathsA, pathsB) }, { ...b, paths: keep(pathsB, pathsA) }];
}

export function upstreamRows(extract: Json, next: Json, ours: Json): UpstreamRow[] {
  const rows: UpstreamRow[] = [];
  const before = operationsOf(extract);
  const after = operationsOf(next);
  for (const [key, op] of after) {
    if (!before.has(key)) rows.push({ what: `New operation \`${op.id}\` \`${key}\`: ${describeOperation(op.op)}`, ours: oursOnOperation(ours, key, op.id) });
  }
  for (const [key, op] of before) {
    if (!after.has(key)) rows.push({ what: `Operation \`${op.id}\` \`${key}\` removed`, ours: oursOnOperation(ours, key, op.id) === 'not in our spec' ? 'not in our spec either' : `we still have it: ${oursOnOperation(ours, key, op.id)}` });
  }
  if (JSON.stringify(extract) === JSON.stringify(next)) return rows;
  const diffs = apiDiff(...changedPathsOnly(extract, next)) as { action: string; path: (string | number)[]; before?: unknown; after?: unknown }[];
  // Operations present in both: the changes made inline in the operation (a $ref'd component's are listed under it).
  const byOperation = new Map<string, string[]>();
  const byComponent = new Map<string, { items: string[]; ours: Set<string> }>();
  for (const diff of diffs) {
    const path = diff.path;
    if (path[0] === 'paths' && typeof path[1] === 'string' && typeof path[2] === 'string' && METHODS.includes(path[2])) {
      const key = `${path[2].toUpperCase()} ${path[1]}`;
      if (!before.has(key) || !after.has(key)) continue;
      const source = diff.action === 'remove' ? extract : next;
      if (throughRef(source, path)) continue;
      byOperation.set(key, [...(byOperation.get(key) ?? []), item(diff, 3)]);
    } else if (path[0] === 'components' && typeof path[1] === 'string' && COMPONENT_KINDS.includes(path[1]) && typeof path[2] === 'string') {
      // A change reached through a $ref inside another component is that component's own row.
      if (path.length > 3 && throughRef(diff.action === 'remove' ? extract : next, path)) continue;
      const name = `${path[1]}/${path[2]}`;
      const entry = byComponent.get(name) ?? { items: [], ours: new Set<string>() };
      if (path.length === 3) {
        entry.items.push(diff.action === 'add' ? 'new' : diff.action === 'remove' ? 'removed' : 'replaced');
        entry.ours.add(at(ours, path) === undefined ? 'ours: missing' : 'ours: has it');
      } else {
        entry.items.push(item(diff, 3));
        entry.ours.add(oursOnItem(ours, path, diff.action, diff.after));
      }
      byComponent.set(name, entry);
    }
  }
  for (const [key, items] of byOperation) {
    const op = after.get(key)!;
    rows.push({ what: `\`${op.id}\` \`${key}\`: ${items.join('; ')}`, ours: oursOnOperation(ours, key, op.id) });
  }
  for (const [name, entry] of [...byComponent].sort(([a], [b]) => a.localeCompare(b))) {
    const [kind, component] = name.split('/');
    const label = kind === 'schemas' ? `Schema \`${component}\`` : `Component ${kind} \`${component}\``;
    const whole = entry.items.length === 1 && ['new', 'removed', 'replaced'].includes(entry.items[0]!);
    rows.push({ what: whole ? `${label}: ${entry.items[0]}` : `${label}: ${entry.items.join('; ')}`, ours: [...entry.ours].join(', ') });
  }
  return rows;
}

export function operationIdsOf(facts: Json): number {
  return operationsOf(facts).size;
}
