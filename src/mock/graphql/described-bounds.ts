// Bounds of GraphQL arguments as their SDL descriptions state them ("1 to 191 characters.", "0 to 4000.",
// "At most 64 entries; key 1 to 255 characters, …"): SDL cannot carry maxLength or maximum, so the words
// in specs/graphql/schema.graphql are the single source, read with the same phrasing the agreement
// fuzzer uses (src/contract/graphql-bounds.ts). A value beyond a bound is refused before any resolver
// runs, with a message naming the field (`input.name must be at most 191 characters`), so nothing is
// stored (rule GQL-SDK-INPUT-001).
import {
  getNullableType, isInputObjectType, isListType, isScalarType, type GraphQLArgument, type GraphQLInputType,
} from 'graphql';
import { withDescribedBounds } from '../../contract/graphql-bounds.js';
import type { Schema } from '../../contract/json-schema.js';
import { codePointLength } from '../../contract/text-length.js';

/** The JSON type the bound phrasing applies to, for a (nullable or not) GraphQL input type. */
function baseSchema(type: GraphQLInputType): Schema {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    const item = getNullableType(inner.ofType);
    const items: Schema = isInputObjectType(item)
      ? { type: 'object', properties: Object.fromEntries(Object.keys(item.getFields()).map((k) => [k, { type: 'string' }])) }
      : {};
    return { type: 'array', items };
  }
  if (isScalarType(inner) && inner.name === 'Int') return { type: 'integer' };
  // A comma-separated list serialised as a string ("At most 64 entries").
  if (isScalarType(inner) && inner.name === 'PortList') return { type: 'array' };
  if (isScalarType(inner) && (inner.name === 'String' || inner.name === 'ID')) return { type: 'string' };
  return {};
}

function stringProblem(value: string, bound: Schema): string | undefined {
  const length = codePointLength(value);
  if (bound.minLength !== undefined && length < bound.minLength) return `must be at least ${bound.minLength} characters`;
  if (bound.maxLength !== undefined && length > bound.maxLength) return `must be at most ${bound.maxLength} characters`;
  return undefined;
}

function valueProblem(value: unknown, type: GraphQLInputType, description: string | null | undefined, path: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  const inner = getNullableType(type);
  const bound = description ? withDescribedBounds(baseSchema(type), description) : {};
  if (typeof value === 'string') {
    if (bound.maxItems !== undefined && value !== '' && value.split(',').length > bound.maxItems) return `${path} must have at most ${bound.maxItems} entries`;
    const problem = stringProblem(value, bound);
    return problem && `${path} ${problem}`;
  }
  if (typeof value === 'number') {
    if (bound.minimum !== undefined && value < bound.minimum) return `${path} must be >= ${bound.minimum}`;
    if (bound.maximum !== undefined && value > bound.maximum) return `${path} must be <= ${bound.maximum}`;
    return undefined;
  }
  if (Array.isArray(value) && isListType(inner)) {
    if (bound.maxItems !== undefined && value.length > bound.maxItems) return `${path} must have at most ${bound.maxItems} entries`;
    const itemType = inner.ofType as GraphQLInputType;
    const itemProperties = bound.items?.properties ?? {};
    for (const [i, item] of value.entries()) {
      const at = `${path}[${i}]`;
      if (item && typeof item === 'object') {
        // Item clauses of the list's description ("key 1 to 255 characters") bound the item's fields.
        for (const [key, field] of Object.entries(item as Record<string, unknown>)) {
          const problem = typeof field === 'string' && itemProperties[key] ? stringProblem(field, itemProperties[key]!) : undefined;
          if (problem) return `${at}.${key} ${problem}`;
        }
      }
      const problem = isInputObjectType(getNullableType(itemType)) ? objectProblem(item, itemType, at) : valueProblem(item, itemType, undefined, at);
      if (problem) return problem;
    }
    return undefined;
  }
  return objectProblem(value, type, path);
}

function objectProblem(value: unknown, type: GraphQLInputType, path: string): string | undefined {
  const inner = getNullableType(type);
  if (!isInputObjectType(inner) || value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const field of Object.values(inner.getFields())) {
    const problem = valueProblem(record[field.name], field.type, field.description, `${path}.${field.name}`);
    if (problem) return problem;
  }
  return undefined;
}

/** The first argument value beyond a bound its description states, as a message; undefined when all fit. */
export function describedBoundsProblem(args: readonly GraphQLArgument[], values: Record<string, unknown>): string | undefined {
  for (const arg of args) {
    const problem = valueProblem(values[arg.name], arg.type, arg.description, arg.name);
    if (problem) return problem;
  }
  return undefined;
}
