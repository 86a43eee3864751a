// Bounds of GraphQL inputs, read from their SDL descriptions (SDL cannot carry maxLength or maximum,
// so specs/graphql/schema.graphql states them in words, rule GQL-BOUNDS-001). The phrasings:
//   "1 to 191 characters." / "At most 128 characters."      → minLength / maxLength
//   "1 to 4000." (Int)                                       → minimum / maximum
//   "At most 256 entries" (list)                             → maxItems
//   "key 1 to 255 characters, value at most 16384 characters" → bounds of the list items' key / value
import type { Schema } from './json-schema.js';

const RANGE_CHARS = /(\d+) to (\d+) characters/i;
const MAX_CHARS = /at most (\d+) characters/i;
const INT_RANGE = /(-?\d+) to (-?\d+)\./;
const MAX_ENTRIES = /at most (\d+) entries/i;
const ITEM_CLAUSE = /\b(key|value) ((?:\d+ to \d+|at most \d+) characters)/gi;

export function withDescribedBounds(schema: Schema, description: string): Schema {
  const out: Schema = { ...schema };
  // Clauses about the items' fields ("key …, value …") first, then the field's own bound.
  const own = description.replace(ITEM_CLAUSE, (_, field: string, bound: string) => {
    const items = out.items ? { ...out.items } : undefined;
    const target = items?.properties?.[field.toLowerCase()];
    if (items && target) items.properties = { ...items.properties, [field.toLowerCase()]: stringBounds(target, bound) };
    if (items) out.items = items;
    return '';
  });
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes('string') && !out.pattern) return stringBounds(out, own);
  if (types.includes('integer')) {
    const range = INT_RANGE.exec(own);
    if (range) return { ...out, minimum: Number(range[1]), maximum: Number(range[2]) };
  }
  if (types.includes('array')) {
    const entries = MAX_ENTRIES.exec(own);
    if (entries) out.maxItems = Number(entries[1]);
  }
  return out;
}

function stringBounds(schema: Schema, text: string): Schema {
  const range = RANGE_CHARS.exec(text);
  if (range) return { ...schema, minLength: Number(range[1]), maxLength: Number(range[2]) };
  const max = MAX_CHARS.exec(text);
  if (max) return { ...schema, maxLength: Number(max[1]) };
  return schema;
}
