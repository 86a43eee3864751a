// The wire diff of one OpenAPI surface: api-smart-diff classifies each change for a caller (breaking /
// risky / non-breaking); the implementer's side is read off the same changes (a request bound loosened or
// a response bound tightened is one the suite now holds a server to).
// Only operations whose dereferenced form differs are handed to the classifier: a 450 KB document costs
// seconds to diff whole, one changed operation milliseconds.
import { apiDiff } from 'api-smart-diff';
import type { ContractChange, Level, WireSurface } from './change.js';

type Json = unknown;
type JsonObject = Record<string, Json>;
export interface OpenApiDocument {
  openapi?: unknown;
  paths?: Record<string, JsonObject>;
  components?: JsonObject;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
/** Prose and extensions: not part of what a caller or implementer can observe. */
const PROSE = new Set(['description', 'summary', 'example', 'examples', 'title', 'externalDocs', 'tags']);

function isObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(document: JsonObject, ref: string): Json {
  let node: Json = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

/** Keys whose value maps names to schemas: a property called `description` there is not prose. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'schemas', 'dependentSchemas']);

/** The document without prose (descriptions, examples, titles) and x- extensions: what the gate judges. */
export function withoutProse(node: Json, names = false): Json {
  if (Array.isArray(node)) return node.map((item) => withoutProse(item));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (!names && (PROSE.has(key) || key.startsWith('x-'))) continue;
    out[key] = withoutProse(value, !names && NAME_MAPS.has(key));
  }
  return out;
}

/** The node with every local $ref replaced by its target (a cycle keeps its $ref), prose and x- removed. */
function dereference(document: JsonObject, node: Json, stack: string[] = [], names = false): Json {
  if (Array.isArray(node)) return node.map((item) => dereference(document, item, stack));
  if (!isObject(node)) return node;
  if (names) {
    const map: JsonObject = {};
    for (const [key, value] of Object.entries(node)) map[key] = dereference(document, value, stack);
    return map;
  }
  const ref = node['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (stack.includes(ref)) return { $ref: ref };
    const target = dereference(document, pointer(document, ref), [...stack, ref]);
    const siblings = Object.keys(node).filter((key) => key !== '$ref' && !PROSE.has(key) && !key.startsWith('x-'));
    if (siblings.length === 0 || !isObject(target)) return target;
    const merged: JsonObject = { ...target };
    for (const key of siblings) merged[key] = dereference(document, node[key], stack);
    return merged;
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (PROSE.has(key) || key.startsWith('x-')) continue;
    out[key] = dereference(document, value, stack, NAME_MAPS.has(key));
  }
  return out;
}

interface Operation {
  key: string;
  method: string;
  path: string;
  operationId: string;
  body: JsonObject;
}

function operationsOf(document: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  const root = document as JsonObject;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item['parameters']) ? (item['parameters'] as Json[]) : [];
    for (const method of METHODS) {
      const raw = item[method];
      if (!isObject(raw)) continue;
      const own = Array.isArray(raw['parameters']) ? (raw['parameters'] as Json[]) : [];
      const body = dereference(root, { ...raw, parameters: [...shared, ...own] }) as JsonObject;
      // Path-level parameters an operation restates (same name and place) are the operation's.
      const seen = new Map<string, Json>();
      for (const parameter of body['parameters'] as Json[]) {
        if (isObject(parameter)) seen.set(`${String(parameter['in'])}:${String(parameter['name'])}`, parameter);
      }
      body['parameters'] = [...seen.values()];
      if ((body['parameters'] as Json[]).length === 0) delete body['parameters'];
      const key = `${method.toUpperCase()} ${path}`;
      operations.set(key, { key, method, path, operationId: typeof raw['operationId'] === 'string' ? raw['operationId'] : key, body });
    }
  }
  return operations;
}

const LOOSER_WHEN_GREATER = new Set(['maxLength', 'maximum', 'maxItems', 'maxProperties', 'exclusiveMaximum']);
const LOOSER_WHEN_SMALLER = new Set(['minLength', 'minimum', 'minItems', 'minProperties', 'exclusiveMinimum']);
const NARROWING = new Set(['pattern', 'format', 'const', 'multipleOf']);

/** Whether a change to a schema keyword accepts more values (looser) or fewer (tighter). */
function direction(keyword: string | undefined, action: string, before: Json, after: Json): 'looser' | 'tighter' | undefined {
  if (keyword === undefined) return undefined;
  const numbers = typeof before === 'number' && typeof after === 'number';
  if (LOOSER_WHEN_GREATER.has(keyword)) {
    if (action === 'add') return 'tighter';
    if (action === 'remove') return 'looser';
    return numbers ? (after > before ? 'looser' : 'tighter') : undefined;
  }
  if (LOOSER_WHEN_SMALLER.has(keyword)) {
    if (action === 'add') return 'tighter';
    if (action === 'remove') return 'looser';
    return numbers ? (after < before ? 'looser' : 'tighter') : undefined;
  }
  if (keyword === 'enum') return action === 'add' ? 'looser' : action === 'remove' ? 'tighter' : undefined;
  if (keyword === 'required') return action === 'add' ? 'tighter' : action === 'remove' ? 'looser' : undefined;
  if (NARROWING.has(keyword)) return action === 'add' ? 'tighter' : action === 'remove' ? 'looser' : undefined;
  return undefined;
}

interface Located {
  side: 'request' | 'response';
  where: string;
  field: string;
  keyword: string | undefined;
}

/** "response 200 `pods[].name`", "query parameter `limit` maxLength" … from a diff path inside an operation. */
function locate(rest: (string | number)[], before: Operation | undefined, after: Operation | undefined, action: string): Located {
  let where: string;
  let side: Located['side'] = 'request';
  let index = 0;
  if (rest[0] === 'parameters') {
    const list = ((action === 'remove' ? before : after ?? before)?.body['parameters'] ?? []) as JsonObject[];
    const parameter = list[Number(rest[1])] ?? {};
    where = `${String(parameter['in'] ?? '')} parameter \`${String(parameter['name'] ?? rest[1])}\``;
    index = 2;
  } else if (rest[0] === 'requestBody') {
    where = 'request body';
    index = 1;
  } else if (rest[0] === 'responses') {
    side = 'response';
    where = `response ${String(rest[1] ?? '')}`.trim();
    index = 2;
    if (rest[2] === 'headers') {
      where += ` header \`${String(rest[3])}\``;
      index = 4;
    }
  } else {
    where = String(rest[0] ?? 'operation');
    index = 1;
  }
  if (rest[index] === 'content') {
    if (rest[index + 1] !== undefined && rest[index + 2] === undefined) where += ` (${String(rest[index + 1])})`;
    index += 2;
  }
  if (rest[index] === 'schema') index += 1;
  let field = '';
  let keyword: string | undefined;
  for (let i = index; i < rest.length; i++) {
    const part = rest[i];
    if (part === 'properties' && rest[i + 1] !== undefined) {
      field += `${field ? '.' : ''}${String(rest[i + 1])}`;
      i++;
    } else if (part === 'items') field += '[]';
    else if (part === 'additionalProperties') field += '{*}';
    else if ((part === 'allOf' || part === 'oneOf' || part === 'anyOf') && typeof rest[i + 1] === 'number') i++;
    else {
      keyword = String(part);
      break;
    }
  }
  return { side, where, field, keyword };
}

function show(value: Json): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'none' : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describe(located: Located, action: string, before: Json, after: Json): string {
  const field = located.field ? ` \`${located.field}\`` : '';
  const { keyword } = located;
  if (keyword === undefined) return `${located.where}${field} ${action === 'add' ? 'added' : action === 'remove' ? 'removed' : 'changed'}`;
  if (keyword === 'required') return `${located.where}${field}: \`${String(action === 'add' ? after : before)}\` ${action === 'add' ? 'now required' : 'no longer required'}`;
  if (keyword === 'enum') return `${located.where}${field}: enum value ${show(action === 'add' ? after : before)} ${action === 'add' ? 'added' : action === 'remove' ? 'removed' : 'changed'}`;
  if (action === 'add') return `${located.where}${field}: ${keyword} ${show(after)} added`;
  if (action === 'remove') return `${located.where}${field}: ${keyword} ${show(before)} removed`;
  return `${located.where}${field}: ${keyword} ${show(before)} -> ${show(after)}`;
}

const CALLER_LEVEL: Record<string, Level | undefined> = {
  breaking: 'breaking',
  risky: 'dangerous',
  deprecated: 'dangerous',
  unclassified: 'dangerous',
  'non-breaking': 'safe',
  annotation: undefined,
};

export function diffOpenApi(surface: WireSurface, beforeDocument: OpenApiDocument, afterDocument: OpenApiDocument): ContractChange[] {
  if (JSON.stringify(withoutProse(beforeDocument)) === JSON.stringify(withoutProse(afterDocument))) return [];
  const before = operationsOf(beforeDocument);
  const after = operationsOf(afterDocument);
  const changes: ContractChange[] = [];
  for (const [key, operation] of before) {
    if (after.has(key)) continue;
    changes.push({ surface, level: 'breaking', party: 'caller', action: 'removed', subject: operation.operationId, what: `operation ${operation.operationId} (${key}) removed`, names: [operation.operationId, key], operation: 'removed' });
  }
  for (const [key, operation] of after) {
    if (before.has(key)) continue;
    changes.push({ surface, level: 'safe', party: 'caller', action: 'added', subject: operation.operationId, what: `operation ${operation.operationId} (${key}) added`, names: [operation.operationId, key], operation: 'added' });
  }
  for (const [key, operation] of after) {
    const old = before.get(key);
    if (!old || JSON.stringify(old.body) === JSON.stringify(operation.body)) continue;
    const wrap = (op: Operation) => ({ openapi: beforeDocument.openapi ?? '3.1.0', info: { title: surface, version: '0' }, paths: { [op.path]: { [op.method]: op.body } } });
    const diffs = apiDiff(wrap(old), wrap(operation));
    const seen = new Set<string>();
    for (const diff of diffs) {
      const path = diff.path as (string | number)[];
      if (path[0] !== 'paths' || path.length < 3) continue;
      let level = CALLER_LEVEL[diff.type];
      if (level === undefined) continue;
      const located = locate(path.slice(3), old, operation, diff.action);
      // api-smart-diff lets an optional response field go; a caller that read it (and its typed client) breaks.
      if (located.side === 'response' && located.keyword === undefined && located.field && diff.action === 'remove') level = 'breaking';
      const what = `${operation.operationId} (${key}): ${describe(located, diff.action, diff.before, diff.after)}`;
      const names = [operation.operationId, key];
      const id = `${level}|${what}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const action = diff.action === 'add' ? 'added' : diff.action === 'remove' ? 'removed' : 'changed';
      changes.push({ surface, level, party: 'caller', action, subject: operation.operationId, what, names });
      // The implementer's side: the suite now sends what a server used to refuse, or refuses what it used to answer.
      const moved = direction(located.keyword, diff.action, diff.before, diff.after);
      const implementerBreaks = (located.side === 'request' && moved === 'looser') || (located.side === 'response' && moved === 'tighter');
      if (implementerBreaks) {
        const reason = located.side === 'request' ? 'a server must now accept what it could refuse' : 'a server must now answer within the tighter bound';
        changes.push({ surface, level: 'breaking', party: 'implementer', action, subject: operation.operationId, what: `${what} (${reason})`, names });
      }
    }
  }
  return changes;
}
