// The pact ↔ spec check: every interaction of a pact must be something the OpenAPI specs (and the
// GraphQL SDL) allow — method and path of a documented operation, request parameters and body
// valid, response status documented, response body valid under the generated validators, documented
// required response headers present. The same idea as pactflow/openapi-pact-comparator, done over
// our own generated Ajv validators (no extra dependency, OpenAPI 3.1 + our extensions understood).
import { readFileSync } from 'node:fs';
import { operations, type OperationInfo } from '../../generated/operations.js';
import { validateRequest, validateResponse, type Surface } from '../validation/index.js';
import { checkGraphqlExchange } from './graphql-check.js';
import { SURFACE_PREFIX, surfaceOfProvider, type PactSurface } from './participants.js';
import { packageFile } from '../package-files.js';

export interface SpecIssue {
  path: string;
  message: string;
}

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

/** Response headers the specs mark `required` (by status); read once from the bundled specs. */
const requiredHeaders = loadRequiredHeaders();

function loadRequiredHeaders(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const surface of ['restV1', 'queueV2'] as const) {
    const file = surface === 'restV1' ? 'rest-v1' : 'queue-v2';
    const spec = JSON.parse(readFileSync(packageFile(`generated/${file}/openapi.json`), 'utf8')) as OpenApiDoc;
    for (const item of Object.values(spec.paths)) {
      for (const op of Object.values(item)) {
        if (!op || typeof op !== 'object' || !('operationId' in op)) continue;
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const resolved = deref(spec, response) as { headers?: Record<string, unknown> };
          const names = Object.entries(resolved.headers ?? {})
            .filter(([, header]) => (deref(spec, header) as { required?: boolean }).required === true)
            .map(([name]) => name);
          if (names.length > 0) map.set(`${surface}:${op.operationId}:${status}`, names);
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
// REST v2 has no Pact participant yet: its behaviour (and pacts) come with issue 13.
const matchers = operations.filter((op) => op.surface !== 'restV2').map((op) => ({
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

/** `/v1/endpoints` → `/endpoints`; `/v2/{endpointId}/run` → `/run`; undefined when the prefix is wrong. */
export function relativePath(surface: 'restV1' | 'queueV2', pactPath: string): string | undefined {
  const prefix = SURFACE_PREFIX[surface];
  if (!pactPath.startsWith(`${prefix}/`)) return undefined;
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
  if (response.status === 400) report.issues.push(...checkNegativeRequest(requestIssues, jsonContent(response.body)));
  else for (const issue of requestIssues) report.issues.push({ path: `/request${issue.path}`, message: issue.message });
  for (const issue of validateResponse(surface, op.operationId, response.status, jsonContent(response.body))) {
    report.issues.push({ path: issue.path === '/status' ? '/response/status' : `/response${issue.path}`, message: issue.message });
  }
  for (const name of requiredHeaders.get(`${surface}:${op.operationId}:${response.status}`) ?? []) {
    if (headerValue(response.headers, name) === undefined) {
      report.issues.push({ path: `/response/headers/${name}`, message: `is required on ${response.status} by the spec` });
    }
  }
  return report;
}

/**
 * A 400 interaction sends a bad request on purpose. When its answer lists `errors[].path`, each
 * listed path must be one the spec itself rejects — the 400 the pact expects is the one the spec
 * predicts — and the request must be invalid at all.
 */
function checkNegativeRequest(requestIssues: SpecIssue[], responseBody: unknown): SpecIssue[] {
  const listed = ((responseBody as { errors?: { path?: unknown }[] } | undefined)?.errors ?? [])
    .map((e) => e.path)
    .filter((p): p is string => typeof p === 'string');
  if (listed.length === 0) return [];
  const rejected = new Set(requestIssues.map((issue) => issue.path));
  return listed
    .filter((p) => !rejected.has(p))
    .map((p) => ({ path: '/response/body/errors', message: `lists ${p}, but the spec accepts the request there` }));
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
