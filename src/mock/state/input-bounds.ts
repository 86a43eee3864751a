// Bounds of inputs that no generated validator checks: GraphQL inputs (SDL cannot carry maxLength or
// maximum; the numbers are stated in specs/graphql/schema.graphql descriptions) and the worker-count
// ceiling of the engine. Figures shared with REST v1 are read from its bundled spec, never re-typed.
import { readFileSync } from 'node:fs';
import { packageFile } from '../../contract/package-files.js';
import { badRequest, type Failure } from './results.js';
import { codePointLength } from '../../contract/text-length.js';

interface SchemaNode {
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  propertyNames?: SchemaNode;
  properties?: Record<string, SchemaNode>;
}

const restV1Schemas = (JSON.parse(readFileSync(packageFile('generated/rest-v1/openapi.json'), 'utf8')) as {
  components: { schemas: Record<string, SchemaNode> };
}).components.schemas;

function restProperty(schema: string, property: string): SchemaNode {
  const node = restV1Schemas[schema]?.properties?.[property];
  if (!node) throw new Error(`rest-v1 spec lacks ${schema}.${property}`);
  return node;
}

/** Most workers one endpoint can have (EndpointCreateInput.workersMax.maximum). */
export const WORKERS_CEILING = restProperty('EndpointCreateInput', 'workersMax').maximum ?? 100;

export type Bound = { minLength?: number; maxLength?: number; minimum?: number; maximum?: number; maxItems?: number; itemMaxLength?: number; keyMaxLength?: number };

const fromRest = (property: string): Bound => {
  const p = restProperty('TemplateCreateInput', property);
  const item = typeof p.additionalProperties === 'object' ? p.additionalProperties : p.items;
  const bound: Bound = {};
  if (p.minLength !== undefined) bound.minLength = p.minLength;
  if (p.maxLength !== undefined) bound.maxLength = p.maxLength;
  if (p.minimum !== undefined) bound.minimum = p.minimum;
  if (p.maximum !== undefined) bound.maximum = p.maximum;
  const count = p.maxItems ?? p.maxProperties;
  if (count !== undefined) bound.maxItems = count;
  if (item?.maxLength !== undefined) bound.itemMaxLength = item.maxLength;
  if (p.propertyNames?.maxLength !== undefined) bound.keyMaxLength = p.propertyNames.maxLength;
  return bound;
};

/**
 * saveTemplate fields (after conversion to the stored shape: env an object, ports an array). Fields REST
 * v1 also has take its bounds; the GraphQL-only ones are stated in the SDL descriptions.
 */
export const TEMPLATE_INPUT_BOUNDS: Record<string, Bound> = {
  ...Object.fromEntries(['name', 'imageName', 'containerDiskInGb', 'volumeInGb', 'env', 'ports', 'readme', 'volumeMountPath', 'containerRegistryAuthId', 'category']
    .map((field) => [field, fromRest(field)])),
  dockerArgs: { maxLength: 65_536 },
  dockerStartCmd: fromRest('dockerStartCmd'),
  dockerEntrypoint: fromRest('dockerEntrypoint'),
  startScript: { maxLength: 16_384 },
  id: { maxLength: 128 },
};

export const SECRET_INPUT_BOUNDS: Record<'name' | 'value' | 'description', Bound> = {
  name: { minLength: 1, maxLength: 191 },
  value: { maxLength: 65_536 },
  description: { maxLength: 1_024 },
};

/** The first bound `value` breaks, as a message; undefined when it keeps all of them. */
export function boundViolation(value: unknown, bound: Bound): string | undefined {
  if (typeof value === 'string') {
    if (bound.minLength !== undefined && codePointLength(value) < bound.minLength) return `must have at least ${bound.minLength} characters`;
    if (bound.maxLength !== undefined && codePointLength(value) > bound.maxLength) return `must have at most ${bound.maxLength} characters`;
  } else if (typeof value === 'number') {
    if (bound.minimum !== undefined && value < bound.minimum) return `must be >= ${bound.minimum}`;
    if (bound.maximum !== undefined && value > bound.maximum) return `must be <= ${bound.maximum}`;
  } else if (Array.isArray(value) || (value !== null && typeof value === 'object')) {
    const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
    if (bound.maxItems !== undefined && entries.length > bound.maxItems) return `must have at most ${bound.maxItems} entries`;
    for (const [key, item] of entries) {
      if (bound.keyMaxLength !== undefined && (key.length === 0 || codePointLength(key) > bound.keyMaxLength)) return `keys must have 1 to ${bound.keyMaxLength} characters`;
      if (bound.itemMaxLength !== undefined && typeof item === 'string' && codePointLength(item) > bound.itemMaxLength) return `entries must have at most ${bound.itemMaxLength} characters`;
    }
  }
  return undefined;
}

function firstViolation(fields: Record<string, unknown>, bounds: Record<string, Bound>, label: string): Failure | undefined {
  for (const [field, bound] of Object.entries(bounds)) {
    if (fields[field] === undefined || fields[field] === null) continue;
    const problem = boundViolation(fields[field], bound);
    if (problem) return badRequest(`${label}.${field} ${problem}`, `/body/${field}`);
  }
  return undefined;
}

/** saveTemplate input beyond a stated bound (REST input already passed the same bounds in its validator). */
export const templateInputFailure = (fields: Record<string, unknown>): Failure | undefined => firstViolation(fields, TEMPLATE_INPUT_BOUNDS, 'input');

export const secretInputFailure = (fields: { name: string; value: string; description: string | null }): Failure | undefined =>
  firstViolation(fields, SECRET_INPUT_BOUNDS, 'input');
