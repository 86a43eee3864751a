// $ref resolution within one bundled document, over the subset of JSON Schema the specs use (src/contract/json-schema.ts).
// Both the generator (valid values) and the violation finder (single-point mutations) read schemas
// through `resolve`, so a maximum added to a spec is followed without code changes.

export type { JsonType, Schema } from '../contract/json-schema.js';
import type { JsonType, Schema } from '../contract/json-schema.js';

/** Resolves local `$ref`s (`#/components/...`) of one document; allOf is merged into one schema. */
export type Resolver = (schema: Schema) => Schema;

export function resolverFor(doc: unknown): Resolver {
  const cache = new Map<Schema, Schema>();
  const lookup = (ref: string): Schema => {
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
    let node: unknown = doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      node = (node as Record<string, unknown> | undefined)?.[key];
    }
    if (!node || typeof node !== 'object') throw new Error(`unresolvable $ref ${ref}`);
    return node as Schema;
  };
  const resolve: Resolver = (schema) => {
    const hit = cache.get(schema);
    if (hit) return hit;
    let out = schema;
    for (let hops = 0; out.$ref !== undefined; hops++) {
      if (hops > 32) throw new Error(`$ref cycle at ${schema.$ref}`);
      const { $ref, ...rest } = out;
      out = { ...lookup($ref), ...rest };
    }
    if (out.allOf) out = mergeAllOf(out, resolve);
    // Once allOf is merged, `unevaluatedProperties: false` closes the object like additionalProperties.
    if (out['unevaluatedProperties'] === false && out.additionalProperties === undefined) out = { ...out, additionalProperties: false };
    cache.set(schema, out);
    return out;
  };
  return resolve;
}

function mergeAllOf(schema: Schema, resolve: Resolver): Schema {
  const { allOf, ...base } = schema;
  let merged: Schema = { ...base };
  for (const part of allOf ?? []) {
    const p = resolve(part);
    merged = {
      ...merged,
      ...p,
      properties: { ...merged.properties, ...p.properties },
      required: [...new Set([...(merged.required ?? []), ...(p.required ?? [])])],
    };
  }
  return merged;
}

export function typesOf(schema: Schema): JsonType[] {
  if (schema.type === undefined) {
    if (schema.enum) return [...new Set(schema.enum.map(jsonTypeOf))];
    if (schema.const !== undefined) return [jsonTypeOf(schema.const)];
    if (schema.properties) return ['object'];
    return [];
  }
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** JSON Pointer segment escaping (RFC 6901). */
export function pointerSegment(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

export { codePointLength } from '../contract/text-length.js';
