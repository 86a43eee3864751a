// Every operation of the bundled REST v1, queue v2 and REST v2 documents (generated/*/openapi.json) as the
// fuzzer sees it: method, path, parameters with their schemas, the request body and the documented
// statuses. Read at run time, so a bound added to a spec is followed without code changes.
import { readFileSync } from 'node:fs';
import { packageFile } from '../contract/package-files.js';
import { queryStylesOf, type QueryStyles } from '../contract/query-style.js';
import { resolverFor, type Resolver, type Schema } from './schema.js';

export type AgreementSurface = 'restV1' | 'queueV2' | 'restV2' | 'graphql';
export type OpenApiSurface = Exclude<AgreementSurface, 'graphql'>;

export interface ParamModel {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
  /** x-multi-segment: the value keeps its slashes (openaiPath). */
  multiSegment: boolean;
}

export interface BodyModel {
  schema: Schema;
  required: boolean;
}

export interface OperationModel {
  surface: AgreementSurface;
  operationId: string;
  method: string;
  /** Path template relative to the surface base, e.g. /pods/{podId} (REST v2: without the spec's /v2). */
  path: string;
  params: ParamModel[];
  /** How list-valued query parameters travel (style/explode of the spec). */
  queryStyles: QueryStyles;
  body?: BodyModel;
  /** Documented HTTP statuses. */
  statuses: number[];
  /** REST v2: status of a body breaking its schema where the operation states one (x-invalid-body-status; else 422). */
  invalidBodyStatus?: number;
  /** REST v2 event streams: the component schema each event's `data:` matches (x-sse-data of the 200 text/event-stream). */
  eventData?: string;
  resolve: Resolver;
  /** GraphQL operations only: the document to send and its operation name. */
  graphql?: { document: string; operationName: string; rootField: string; nullableVariables: string[] };
}

const DOCS: Record<OpenApiSurface, string> = {
  restV1: 'generated/rest-v1/openapi.json',
  queueV2: 'generated/queue-v2/openapi.json',
  restV2: 'generated/rest-v2/openapi.json',
};
/** REST v2 paths carry /v2 in the spec; a target's REST v2 base URL ends in it. */
const BASE_PREFIX: Record<OpenApiSurface, string> = { restV1: '', queueV2: '', restV2: '/v2' };
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

type Json = Record<string, unknown>;

/** The models of each surface, built once per process (the documents are generated files; nothing changes them while it runs). */
const loaded = new Map<OpenApiSurface, readonly OperationModel[]>();

/** Every operation of a surface's bundled document (a new array each call; the models are shared and never changed). */
export function loadOpenApiOperations(surface: OpenApiSurface): OperationModel[] {
  let models = loaded.get(surface);
  if (!models) loaded.set(surface, (models = buildOpenApiOperations(surface)));
  return [...models];
}

function buildOpenApiOperations(surface: OpenApiSurface): OperationModel[] {
  const doc = JSON.parse(readFileSync(packageFile(DOCS[surface]), 'utf8')) as Json;
  const resolve = resolverFor(doc);
  const deref = <T>(node: unknown): T => resolve(node as Schema) as unknown as T;
  const out: OperationModel[] = [];
  for (const [path, rawItem] of Object.entries(doc['paths'] as Record<string, Json>)) {
    const item = deref<Json>(rawItem);
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const params: ParamModel[] = [];
      for (const raw of [...((item['parameters'] as unknown[]) ?? []), ...((op['parameters'] as unknown[]) ?? [])]) {
        const p = deref<Json>(raw);
        if (p['in'] !== 'path' && p['in'] !== 'query') continue;
        params.push({
          name: String(p['name']),
          in: p['in'],
          required: p['required'] === true,
          schema: (p['schema'] as Schema | undefined) ?? {},
          multiSegment: p['x-multi-segment'] === true,
        });
      }
      let body: BodyModel | undefined;
      if (op['requestBody']) {
        const rb = deref<Json>(op['requestBody']);
        const media = (rb['content'] as Record<string, Json> | undefined)?.['application/json'];
        if (media) body = { schema: (media['schema'] as Schema | undefined) ?? {}, required: rb['required'] === true };
      }
      const ok = deref<Json | undefined>((op['responses'] as Json | undefined)?.['200'] ?? {});
      const eventData = ((ok?.['content'] as Record<string, Json> | undefined)?.['text/event-stream'])?.['x-sse-data'];
      out.push({
        surface,
        operationId: String(op['operationId']),
        method: method.toUpperCase(),
        path: path.startsWith(BASE_PREFIX[surface]) ? path.slice(BASE_PREFIX[surface].length) : path,
        params,
        queryStyles: queryStylesOf(surface, String(op['operationId'])),
        ...(body ? { body } : {}),
        statuses: Object.keys((op['responses'] as Json | undefined) ?? {}).map(Number).filter(Number.isInteger),
        ...(typeof op['x-invalid-body-status'] === 'number' ? { invalidBodyStatus: op['x-invalid-body-status'] } : {}),
        ...(typeof eventData === 'string' ? { eventData } : {}),
        resolve,
      });
    }
  }
  return out;
}
