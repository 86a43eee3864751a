// The pact ↔ spec check: every interaction of a pact must be something the OpenAPI specs (and the
// GraphQL SDL) allow — method and path of a documented operation, request parameters and body
// valid, response status documented, response body valid under the generated validators, documented
// required response headers present. The same idea as pactflow/openapi-pact-comparator, done over
// our own generated Ajv validators (no extra dependency, OpenAPI 3.1 + our extensions understood).
import { readFileSync } from 'node:fs';
import { operations, type OperationInfo } from '../../generated/operations.js';
import { validateRequest, validateResponse, type Surface } from '../validation/index.js';
import { checkGraphqlExchange } from './graphql-check.js';
import type { SpecIssue } from './spec-issue.js';
import { SURFACE_PREFIX, surfaceOfProvider, type PactSurface } from './participants.js';
import { packageFile } from '../contract/package-files.js';
import { SecretRedactor } from '../clients/index.js';

export type { SpecIssue };

export interface InteractionReport {
  description: string;
  /** `restV1:getEndpoint`, `queueV2:runJob`, `graphql:SaveTemplate` … when one was matched. */
  operation?: string;
  issues: SpecIssue[];
}

interface PactBody {
  content?: unknown;
  contentType?: string;
  encoded?: boolean | string;
}
interface PactInteraction {
  type?: string;
  description: string;
  request: { method: string; path: string; query?: Record<string, string[]>; headers?: Record<string, string[] | string>; body?: PactBody };
  response: { status: number; headers?: Record<string, string[] | string>; body?: PactBody };
}
export interface PactDocument {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata?: { pactSpecification?: { version?: string } };
}

/** Facts of each documented response (`surface:operationId:status`), read once from the bundled specs. */
interface ResponseFacts {
  /** Headers the spec marks `required`. */
  requiredHeaders: string[];
  /** Media types of the documented body (`application/problem+json` for REST v2 errors); empty without a body. */
  mediaTypes: string[];
}
const BUNDLED_SPECS = { restV1: 'rest-v1', queueV2: 'queue-v2', restV2: 'rest-v2' } as const;
const responseFacts = loadResponseFacts();

function loadResponseFacts(): Map<string, ResponseFacts> {
  const map = new Map<string, ResponseFacts>();
  for (const [surface, file] of Object.entries(BUNDLED_SPECS)) {
    const spec = JSON.parse(readFileSync(packageFile(`generated/${file}/openapi.json`), 'utf8')) as OpenApiDoc;
    for (const item of Object.values(spec.paths)) {
      for (const op of Object.values(item)) {
        if (!op || typeof op !== 'object' || !('operationId' in op)) continue;
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const resolved = deref(spec, response) as { headers?: Record<string, unknown>; content?: Record<string, unknown> };
          const requiredHeaders = Object.entries(resolved.headers ?? {})
            .filter(([, header]) => (deref(spec, header) as { required?: boolean }).required === true)
            .map(([name]) => name);
          map.set(`${surface}:${op.operationId}:${status}`, { requiredHeaders, mediaTypes: Object.keys(resolved.content ?? {}) });
        }
      }
    }
  }
  return map;
}
type OpenApiDoc = { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };
function deref(spec: unknown, node: unknown): unknown {
  let current = node as { $ref?: string } | undefined;
  for (let depth = 0; current?.$ref && depth < 10; depth++) {
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec) as { $ref?: string };
  }
  return current ?? {};
}

/** Path templates compiled per surface; `x-multi-segment` parameters (openaiPath) may span `/`. */
const matchers = operations.map((op) => ({
  op,
  names: [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
  regex: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'openaiPath' ? '(.+)' : '([^/]+)'))}$`),
}));

export function findOperation(surface: Surface, method: string, relativePath: string): { op: OperationInfo; path: Record<string, string> } | undefined {
  for (const candidate of matchers) {
    if (candidate.op.surface !== surface || candidate.op.method !== method.toUpperCase()) continue;
    const match = candidate.regex.exec(relativePath);
    if (!match) continue;
    const path: Record<string, string> = {};
    candidate.names.forEach((name, i) => (path[name] = decodeURIComponent(match[i + 1]!)));
    return { op: candidate.op, path };
  }
  return undefined;
}

/**
 * The operation path inside a pact path: `/v1/endpoints` → `/endpoints`; `/v2/{endpointId}/run` →
 * `/run`; REST v2 keeps `/v2/templates` (its spec paths carry `/v2`); undefined when the prefix is wrong.
 */
export function relativePath(surface: 'restV1' | 'queueV2' | 'restV2', pactPath: string): string | undefined {
  const prefix = SURFACE_PREFIX[surface];
  if (!pactPath.startsWith(`${prefix}/`)) return undefined;
  if (surface === 'restV2') return pactPath;
  const rest = pactPath.slice(prefix.length);
  if (surface === 'restV1') return rest;
  const match = /^\/[^/]+(\/.*)$/.exec(rest);
  return match?.[1];
}

const jsonContent = (body: PactBody | undefined): unknown => {
  if (!body || body.content === undefined) return undefined;
  if (body.encoded) return undefined;
  return body.content;
};
const headerValue = (headers: PactInteraction['response']['headers'], name: string): string | undefined => {
  const entry = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  return Array.isArray(entry) ? entry[0] : entry;
};

export function checkInteraction(surface: PactSurface, interaction: PactInteraction): InteractionReport {
  const report: InteractionReport = { description: interaction.description, issues: [] };
  if (interaction.type !== undefined && interaction.type !== 'Synchronous/HTTP') {
    report.issues.push({ path: '/type', message: `${interaction.type} interactions have no OpenAPI counterpart` });
    return report;
  }
  const { request, response } = interaction;
  report.issues.push(...checkNoCredentialEcho(request, response));
  if (surface === 'graphql') {
    const body = jsonContent(request.body) as { operationName?: string } | undefined;
    report.operation = `graphql:${body?.operationName ?? 'anonymous'}`;
    if (request.method.toUpperCase() !== 'POST' || request.path !== SURFACE_PREFIX.graphql) {
      report.issues.push({ path: '/request', message: `GraphQL requests are POST ${SURFACE_PREFIX.graphql}, not ${request.method} ${request.path}` });
    }
    if (!request.query?.api_key?.[0] && !headerValue(request.headers, 'authorization')) {
      report.issues.push({ path: '/request', message: 'carries no key (?api_key= or Authorization: Bearer)' });
    }
    report.issues.push(...checkGraphqlExchange({ status: response.status, body: jsonContent(response.body), requestBody: body }));
    return report;
  }

  const rel = relativePath(surface, request.path);
  if (rel === undefined) {
    report.issues.push({ path: '/request/path', message: `${request.path} is not under ${SURFACE_PREFIX[surface]}${surface === 'queueV2' ? '/{endpointId}' : ''}/` });
    return report;
  }
  const found = findOperation(surface, request.method, rel);
  if (!found) {
    report.issues.push({ path: '/request', message: `no ${surface} operation documents ${request.method.toUpperCase()} ${rel}` });
    return report;
  }
  const { op, path } = found;
  report.operation = `${surface}:${op.operationId}`;
  if (!/^Bearer \S+$/.test(headerValue(request.headers, 'authorization') ?? '')) {
    report.issues.push({ path: '/request/headers/Authorization', message: 'the spec requires Bearer auth on every operation' });
  }
  const query = Object.fromEntries(Object.entries(request.query ?? {}).map(([key, values]) => [key, values.length === 1 ? values[0] : values]));
  const requestIssues = validateRequest(surface, op.operationId, { path, query, body: jsonContent(request.body) });
  if (isNegative(surface, response.status)) report.issues.push(...checkNegativeRequest(requestIssues, jsonContent(response.body)));
  else for (const issue of requestIssues) report.issues.push({ path: `/request${issue.path}`, message: issue.message });
  for (const issue of validateResponse(surface, op.operationId, response.status, jsonContent(response.body))) {
    report.issues.push({ path: issue.path === '/status' ? '/response/status' : `/response${issue.path}`, message: issue.message });
  }
  const facts = responseFacts.get(`${surface}:${op.operationId}:${response.status}`);
  for (const name of facts?.requiredHeaders ?? []) {
    if (headerValue(response.headers, name) === undefined) {
      report.issues.push({ path: `/response/headers/${name}`, message: `is required on ${response.status} by the spec` });
    }
  }
  report.issues.push(...checkContentType(response, facts?.mediaTypes ?? []));
  return report;
}

/**
 * No answer may carry a credential its request sent (a registry password, a secret's value, the API
 * key): the contract would teach consumers to expect the leak. The issue never quotes the value.
 */
function checkNoCredentialEcho(request: PactInteraction['request'], response: PactInteraction['response']): SpecIssue[] {
  const body = jsonContent(response.body);
  if (body === undefined) return [];
  const text = JSON.stringify(body);
  const redactor = new SecretRedactor().addFromBody(jsonContent(request.body));
  return redactor.text(text) === text ? [] : [{ path: '/response/body', message: 'echoes a credential (password, secret value or key) the request sent' }];
}

/** 400 (and REST v2's 422) interactions send a bad request on purpose. */
const isNegative = (surface: PactSurface, status: number): boolean => status === 400 || (surface === 'restV2' && status === 422);

/**
 * A response with a body must say which media type it is, and it must be one the spec documents
 * for that status — so a REST v2 error the pact expects is `application/problem+json`, and the
 * verifier holds the provider to that header.
 */
function checkContentType(response: PactInteraction['response'], documented: readonly string[]): SpecIssue[] {
  if (documented.length === 0 || jsonContent(response.body) === undefined) return [];
  const declared = headerValue(response.headers, 'content-type');
  if (declared === undefined) return [{ path: '/response/headers/Content-Type', message: `is missing; the spec documents ${documented.join(', ')}` }];
  const mediaType = declared.split(';')[0]!.trim().toLowerCase();
  if (documented.includes(mediaType)) return [];
  return [{ path: '/response/headers/Content-Type', message: `${declared} is not documented for ${response.status} (documented: ${documented.join(', ')})` }];
}

/**
 * A 400 (REST v2: 422) interaction sends a bad request on purpose. When its answer lists error paths, each
 * listed path must be one the spec itself rejects — the 400 the pact expects is the one the spec
 * predicts — and the request must be invalid at all.
 */
function checkNegativeRequest(requestIssues: SpecIssue[], responseBody: unknown): SpecIssue[] {
  const listed = ((responseBody as { errors?: unknown[] } | undefined)?.errors ?? [])
    .map(errorPath)
    .filter((p): p is string => p !== undefined);
  if (listed.length === 0) return [];
  const rejected = new Set(requestIssues.map((issue) => issue.path));
  return listed
    .filter((p) => !rejected.has(p))
    .map((p) => ({ path: '/response/body/errors', message: `lists ${p}, but the spec accepts the request there` }));
}

/** `errors[]` entries name a path: `{path, message}` (REST v1, queue v2) or `"<path>: <message>"` (REST v2 problems). */
function errorPath(entry: unknown): string | undefined {
  if (typeof entry === 'string') return /^(\/[^:\s]*):/.exec(entry)?.[1];
  const path = (entry as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : undefined;
}

/** Checks every interaction of a pact; the provider name decides the surface. */
export function checkPact(pact: PactDocument): InteractionReport[] {
  const surface = surfaceOfProvider(pact.provider?.name);
  if (!surface) {
    return [{ description: '(pact)', issues: [{ path: '/provider/name', message: `unknown provider "${pact.provider?.name}"` }] }];
  }
  return pact.interactions.map((interaction) => checkInteraction(surface, interaction));
}

export function checkPactFile(file: string): InteractionReport[] {
  return checkPact(JSON.parse(readFileSync(file, 'utf8')) as PactDocument);
}

/** One line per issue: `description: /path message`. Empty when the pact conforms. */
export function formatReports(reports: readonly InteractionReport[]): string[] {
  return reports.flatMap((report) => report.issues.map((issue) => `${report.description}${report.operation ? ` (${report.operation})` : ''}: ${issue.path} ${issue.message}`));
}
