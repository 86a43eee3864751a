// Facts of the bundled OpenAPI documents the judgement needs beyond the validators: per operation and
// status, the media types of the answer and its required headers; per surface, the x-secret properties.
import { readFileSync } from 'node:fs';
import type { Surface } from '../../generated/operations.js';
import { packageFile } from '../contract/package-files.js';

type Json = Record<string, any>;

const DOC_FILE: Record<Surface, string> = {
  restV1: 'generated/rest-v1/openapi.json',
  queueV2: 'generated/queue-v2/openapi.json',
  restV2: 'generated/rest-v2/openapi.json',
};

export interface RequiredHeader {
  /** Lower-case header name. */
  name: string;
  schema: Json | undefined;
}

export interface AnswerFacts {
  /** Media types the spec documents for this status; empty when it documents no body. */
  mediaTypes: string[];
  requiredHeaders: RequiredHeader[];
}

interface SurfaceFacts {
  /** `${operationId} ${status}` → facts; a missing key is an undocumented status. */
  answers: Map<string, AnswerFacts>;
  secretFields: Set<string>;
}

const cache = new Map<Surface, SurfaceFacts>();

function resolve(doc: Json, node: Json | undefined): Json | undefined {
  let current = node;
  for (let hops = 0; current && typeof current['$ref'] === 'string' && hops < 16; hops++) {
    const ref = current['$ref'] as string;
    if (!ref.startsWith('#/')) return undefined;
    current = ref.slice(2).split('/').reduce<Json | undefined>((n, key) => n?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current;
}

function secretFieldsOf(node: unknown, into: Set<string>, depth = 0): void {
  if (!node || typeof node !== 'object' || depth > 64) return;
  const properties = (node as Json)['properties'];
  if (properties && typeof properties === 'object') {
    for (const [name, schema] of Object.entries(properties as Json)) if ((schema as Json | null)?.['x-secret'] === true) into.add(name);
  }
  for (const value of Object.values(node)) secretFieldsOf(value, into, depth + 1);
}

function load(surface: Surface): SurfaceFacts {
  const doc = JSON.parse(readFileSync(packageFile(DOC_FILE[surface]), 'utf8')) as Json;
  const answers = new Map<string, AnswerFacts>();
  for (const item of Object.values((doc['paths'] ?? {}) as Json)) {
    for (const operation of Object.values(item as Json)) {
      const opId = (operation as Json | null)?.['operationId'];
      if (typeof opId !== 'string') continue;
      for (const [status, raw] of Object.entries(((operation as Json)['responses'] ?? {}) as Json)) {
        const response = resolve(doc, raw as Json) ?? {};
        const requiredHeaders: RequiredHeader[] = [];
        for (const [name, rawHeader] of Object.entries((response['headers'] ?? {}) as Json)) {
          const header = resolve(doc, rawHeader as Json);
          if (header?.['required'] === true) requiredHeaders.push({ name: name.toLowerCase(), schema: resolve(doc, header['schema'] as Json | undefined) });
        }
        answers.set(`${opId} ${status}`, { mediaTypes: Object.keys((response['content'] ?? {}) as Json), requiredHeaders });
      }
    }
  }
  const secretFields = new Set<string>();
  secretFieldsOf(doc['components'], secretFields);
  return { answers, secretFields };
}

const facts = (surface: Surface) => cache.get(surface) ?? (cache.set(surface, load(surface)), cache.get(surface)!);

/** Facts of one documented answer; undefined when the spec does not document that status. */
export function answerFacts(surface: Surface, operationId: string, status: number): AnswerFacts | undefined {
  return facts(surface).answers.get(`${operationId} ${status}`);
}

/** Property names marked x-secret in any surface's request schemas (password, accessSecret). */
let allSecretFields: Set<string> | undefined;
export function secretFieldNames(): ReadonlySet<string> {
  if (allSecretFields) return allSecretFields;
  allSecretFields = new Set<string>();
  for (const surface of Object.keys(DOC_FILE) as Surface[]) for (const name of facts(surface).secretFields) allSecretFields.add(name);
  return allSecretFields;
}

/** True for JSON media types (application/json, application/problem+json, …). */
export const isJsonMediaType = (mediaType: string) => /^application\/([\w.-]+\+)?json\b/i.test(mediaType.trim());
