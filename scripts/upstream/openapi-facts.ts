// The facts of a public OpenAPI 3.x document and none of its prose: paths, operations, parameters, request
// bodies, responses, schemas and their constraints. Descriptions, summaries, titles, examples, code samples,
// tag texts and x- extensions are left out, so what the repository keeps of RunPod's file is data we test
// against, not their writing. Walked by position (a property named `description` is kept; the keyword is not).
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON Schema keywords whose value is a fact kept as is (numbers, strings, lists of names or values). */
const SCHEMA_VALUES = [
  '$ref', 'type', 'enum', 'const', 'default', 'format', 'pattern', 'contentEncoding', 'contentMediaType',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains',
  'minProperties', 'maxProperties', 'required', 'dependentRequired', 'nullable', 'readOnly', 'writeOnly', 'deprecated',
];
/** Keywords holding one subschema. */
const SCHEMA_ONE = ['items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems'];
/** Keywords holding a list of subschemas. */
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords holding a map of name → subschema. */
const SCHEMA_MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
/** Keywords holding a boolean or a subschema. */
const SCHEMA_BOOL_OR_ONE = ['additionalProperties', 'unevaluatedProperties'];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Bounds a malformed or hostile file: nothing real nests this deep. */
const MAX_DEPTH = 64;

function pick(source: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) if (Object.hasOwn(source, key)) out[key] = structuredClone(source[key]);
  return out;
}

function mapValues(source: unknown, each: (value: unknown, depth: number) => unknown, depth: number): Json | undefined {
  if (!isObject(source)) return undefined;
  return Object.fromEntries(Object.entries(source).map(([name, value]) => [name, each(value, depth + 1)]));
}

function defined(out: Json, key: string, value: unknown): void {
  if (value !== undefined) out[key] = value;
}

export function schemaFacts(schema: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new Error(`schema nesting deeper than ${MAX_DEPTH}`);
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) return undefined;
  const out = pick(schema, SCHEMA_VALUES);
  if (isObject(schema['discriminator'])) out['discriminator'] = pick(schema['discriminator'], ['propertyName', 'mapping']);
  for (const key of SCHEMA_ONE) if (Object.hasOwn(schema, key)) defined(out, key, schemaFacts(schema[key], depth + 1));
  for (const key of SCHEMA_BOOL_OR_ONE) if (Object.hasOwn(schema, key)) defined(out, key, schemaFacts(schema[key], depth + 1));
  for (const key of SCHEMA_LIST) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((item) => schemaFacts(item, depth + 1));
  }
  for (const key of SCHEMA_MAP) defined(out, key, mapValues(schema[key], schemaFacts, depth));
  return out;
}

function contentFacts(content: unknown, depth: number): Json | undefined {
  return mapValues(content, (media, d) => (isObject(media) ? stripUndefined({ schema: schemaFacts(media['schema'], d + 1) }) : {}), depth);
}

function stripUndefined(out: Json): Json {
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}

function parameterFacts(parameter: unknown, depth: number): unknown {
  if (!isObject(parameter)) return undefined;
  if (typeof parameter['$ref'] === 'string') return { $ref: parameter['$ref'] };
  const out = pick(parameter, ['name', 'in', 'required', 'deprecated', 'allowEmptyValue', 'style', 'explode', 'allowReserved']);
  defined(out, 'schema', schemaFacts(parameter['schema'], depth + 1));
  defined(out, 'content', contentFacts(parameter['content'], depth));
  return out;
}

function headerFacts(header: unknown, depth: number): unknown {
  if (!isObject(header)) return undefined;
  if (typeof header['$ref'] === 'string') return { $ref: header['$ref'] };
  const out = pick(header, ['required', 'deprecated', 'style', 'explode']);
  defined(out, 'schema', schemaFacts(header['schema'], depth + 1));
  defined(out, 'content', contentFacts(header['content'], depth));
  return out;
}

function requestBodyFacts(body: unknown, depth: number): unknown {
  if (!isObject(body)) return undefined;
  if (typeof body['$ref'] === 'string') return { $ref: body['$ref'] };
  const out = pick(body, ['required']);
  defined(out, 'content', contentFacts(body['content'], depth));
  return out;
}

function responseFacts(response: unknown, depth: number): unknown {
  if (!isObject(response)) return undefined;
  if (typeof response['$ref'] === 'string') return { $ref: response['$ref'] };
  const out: Json = {};
  defined(out, 'headers', mapValues(response['headers'], headerFacts, depth));
  defined(out, 'content', contentFacts(response['content'], depth));
  return out;
}

function operationFacts(operation: unknown, depth: number): unknown {
  if (!isObject(operation)) return undefined;
  const out = pick(operation, ['operationId', 'tags', 'deprecated', 'security']);
  if (Array.isArray(operation['parameters'])) out['parameters'] = operation['parameters'].map((p) => parameterFacts(p, depth + 1));
  defined(out, 'requestBody', requestBodyFacts(operation['requestBody'], depth + 1));
  defined(out, 'responses', mapValues(operation['responses'], responseFacts, depth));
  return out;
}

function pathItemFacts(item: unknown, depth: number): unknown {
  if (!isObject(item)) return undefined;
  const out: Json = {};
  if (typeof item['$ref'] === 'string') out['$ref'] = item['$ref'];
  if (Array.isArray(item['parameters'])) out['parameters'] = item['parameters'].map((p) => parameterFacts(p, depth + 1));
  for (const method of HTTP_METHODS) defined(out, method, operationFacts(item[method], depth + 1));
  return out;
}

function securitySchemeFacts(scheme: unknown): unknown {
  return isObject(scheme) ? pick(scheme, ['$ref', 'type', 'scheme', 'bearerFormat', 'in', 'name', 'openIdConnectUrl']) : undefined;
}

/** The facts of an OpenAPI 3.x document; throws on a file that is not one. */
export function openApiFacts(document: unknown): Json {
  if (!isObject(document) || typeof document['openapi'] !== 'string' || !/^3\./.test(document['openapi'])) {
    throw new Error('not an OpenAPI 3.x document (no "openapi": "3.…" at the top)');
  }
  if (!isObject(document['paths'])) throw new Error('the document has no "paths" object');
  const info = isObject(document['info']) ? pick(document['info'], ['title', 'version']) : {};
  const components = isObject(document['components']) ? document['components'] : {};
  const out: Json = { openapi: document['openapi'], info };
  if (Array.isArray(document['servers'])) out['servers'] = document['servers'].filter(isObject).map((server) => pick(server, ['url']));
  if (Array.isArray(document['security'])) out['security'] = structuredClone(document['security']);
  out['paths'] = mapValues(document['paths'], pathItemFacts, 0);
  out['components'] = stripUndefined({
    securitySchemes: mapValues(components['securitySchemes'], securitySchemeFacts, 0),
    parameters: mapValues(components['parameters'], parameterFacts, 0),
    headers: mapValues(components['headers'], headerFacts, 0),
    requestBodies: mapValues(components['requestBodies'], requestBodyFacts, 0),
    responses: mapValues(components['responses'], responseFacts, 0),
    schemas: mapValues(components['schemas'], schemaFacts, 0),
  });
  return out;
}

/** Operations of a facts document, as `METHOD /path` → operationId (for the README's summary). */
export function operationCount(facts: Json): number {
  let count = 0;
  for (const item of Object.values(facts['paths'] as Json)) for (const method of HTTP_METHODS) if (isObject((item as Json)[method])) count++;
  return count;
}
