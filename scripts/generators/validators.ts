// Ajv (draft 2020-12, strict) standalone validators for every request body, parameter set and response.
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { useValidatorRuntime } from './validator-runtime.js';
import { _ } from 'ajv';
import { transformSync } from 'esbuild';
import { listOperations, resolveLocal, type OpenApiDocument, type SurfaceName } from './specs.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default;

/** Keywords OpenAPI allows in schemas that JSON Schema 2020-12 does not define. */
const openApiKeywords = ['example', 'discriminator', 'xml', 'externalDocs'];

type Json = Record<string, unknown>;
export type ValidatorIndexEntry = {
  operationId: string;
  body?: string;
  /** `requestBody.required` (an optional body may be absent; present, it must be valid). */
  bodyRequired: boolean;
  params?: string;
  responses: Record<string, string | null>;
};
export type SurfaceValidators = {
  surface: SurfaceName;
  module: string;
  paramsModule: string;
  exportNames: string[];
  paramsExportNames: string[];
  entries: ValidatorIndexEntry[];
  schemaNames: string[];
};

export function createAjv(extensions: string[], extra: Partial<Options> = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    inlineRefs: false,
    code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    ...extra,
  });
  addFormats(ajv);
  for (const keyword of [...openApiKeywords, ...extensions]) ajv.addKeyword({ keyword, valid: true });
  return ajv;
}

export function buildValidators(surface: SurfaceName, doc: OpenApiDocument, extensions: string[]): SurfaceValidators {
  const baseId = `https://compute-contract.dev/schemas/${surface}.json`;
  const rewrite = (node: unknown): unknown => rewriteRefs(node, baseId);
  const defs = rewrite(doc.components?.schemas ?? {}) as Json;
  const ajv = createAjv(extensions);
  const paramsAjv = createAjv(extensions, { coerceTypes: 'array' });
  // Each component schema is its own top-level schema so every reference shares one compiled function.
  for (const [name, schema] of Object.entries(defs)) {
    ajv.addSchema({ ...(schema as Json), $id: `${baseId}/defs/${name}` });
    paramsAjv.addSchema({ ...(schema as Json), $id: `${baseId}/defs/${name}` });
  }

  const exportsMap: Record<string, string> = {};
  const paramsExports: Record<string, string> = {};
  const add = (name: string, schema: Json, target = ajv, map = exportsMap): string => {
    const id = `${baseId}/${name}`;
    target.addSchema({ ...schema, $id: id });
    map[name] = id;
    return name;
  };

  const schemaNames = Object.keys(defs);
  for (const name of schemaNames) exportsMap[`schema__${name}`] = `${baseId}/defs/${name}`;

  const entries: ValidatorIndexEntry[] = [];
  for (const { op, path } of listOperations(doc)) {
    const operationId = String(op.operationId);
    const body = op.requestBody ? resolveLocal<Json>(doc, op.requestBody) : undefined;
    const entry: ValidatorIndexEntry = { operationId, bodyRequired: body?.required === true, responses: {} };
    const bodySchema = (body?.content as Json | undefined)?.['application/json'] as Json | undefined;
    if (bodySchema?.schema) entry.body = add(`${operationId}__body`, rewrite(bodySchema.schema) as Json);
    entry.params = add(`${operationId}__params`, paramsSchema(doc, path, op, rewrite), paramsAjv, paramsExports);
    for (const [status, response] of Object.entries(op.responses as Json)) {
      const resolved = resolveLocal<Json>(doc, response);
      const media = jsonMedia(resolved.content as Json | undefined);
      entry.responses[status] = media?.schema ? add(`${operationId}__r${status}`, rewrite(media.schema) as Json) : null;
    }
    entries.push(entry);
  }
  for (const [name, hook] of Object.entries((doc.webhooks ?? {}) as Json)) {
    const post = resolveLocal<Json>(doc, (hook as Json).post);
    const media = ((resolveLocal<Json>(doc, post.requestBody).content as Json)['application/json'] as Json).schema;
    add(`webhook__${name}`, rewrite(media) as Json);
  }

  return {
    surface,
    module: esmModule(standaloneCode(ajv, exportsMap)),
    paramsModule: esmModule(standaloneCode(paramsAjv, paramsExports)),
    exportNames: Object.keys(exportsMap),
    paramsExportNames: Object.keys(paramsExports),
    entries,
    schemaNames,
  };
}

/**
 * The JSON media type object of a content map: `application/json`, else a `+json` type such as REST v2's
 * `application/problem+json` (RFC 9457). Other types (e.g. `text/event-stream`) have no body validator.
 */
function jsonMedia(content: Json | undefined): Json | undefined {
  if (!content) return undefined;
  const type = 'application/json' in content ? 'application/json' : Object.keys(content).find((t) => /^application\/[\w.-]+\+json$/.test(t));
  return type === undefined ? undefined : (content[type] as Json);
}

/** One object schema `{path, query}` per operation; query values arrive as strings and are coerced. */
function paramsSchema(doc: OpenApiDocument, path: string, op: Json, rewrite: (n: unknown) => unknown): Json {
  const groups: Record<'path' | 'query', { properties: Json; required: string[] }> = {
    path: { properties: {}, required: [] },
    query: { properties: {}, required: [] },
  };
  for (const raw of (op.parameters as unknown[] | undefined) ?? []) {
    const p = resolveLocal<Json>(doc, raw);
    const where = p.in as 'path' | 'query';
    if (where !== 'path' && where !== 'query') continue;
    groups[where].properties[String(p.name)] = rewrite(p.schema ?? {});
    if (p.required) groups[where].required.push(String(p.name));
  }
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const missing = pathNames.filter((n) => n && !(n in groups.path.properties));
  if (missing.length) throw new Error(`${String(op.operationId)}: path parameters not declared: ${missing.join(', ')}`);
  return {
    type: 'object',
    properties: {
      path: { type: 'object', properties: groups.path.properties, required: groups.path.required, additionalProperties: false },
      query: { type: 'object', properties: groups.query.properties, required: groups.query.required },
    },
  };
}

function rewriteRefs(node: unknown, baseId: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, baseId));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      out[key] = `${baseId}/defs/${value.slice('#/components/schemas/'.length)}`;
    } else out[key] = rewriteRefs(value, baseId);
  }
  return out;
}

/** Ajv's ESM output still calls require() for runtime helpers and formats; give it one. String lengths use ours. */
function esmModule(code: string): string {
  const formatted = useValidatorRuntime(transformSync(code, { format: 'esm', target: 'es2022', legalComments: 'none' }).code);
  return `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${formatted}`;
}

export function declarations(names: string[]): string {
  const lines = names.map((n) => `export declare const ${n}: ValidateFunction;`);
  return `import type { ValidateFunction } from 'ajv';\n${lines.join('\n')}\n`;
}
