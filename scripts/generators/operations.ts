// The operations table (method, path, scope, limits …) read from x- extensions, so no code re-types them.
import { listOperations, resolveLocal, surfaces, type OpenApiDocument, type SurfaceName } from './specs.js';

export type OperationInfo = {
  surface: SurfaceName;
  operationId: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  requiredScope: string;
  successStatus: number;
  source: string;
  hasBody: boolean;
  /** False when the request body is optional (`requestBody.required` not true, e.g. NoInput). */
  bodyRequired: boolean;
  rateLimit?: { requestsPer10s: number; concurrent: number | null };
  maxBodyBytes?: number;
  resultRetentionMs?: number;
  deleteDelayMs?: number;
  synonymOf?: string;
  /** x-invalid-body-status: a body breaking the schema is answered this (REST v2 default 422). */
  invalidBodyStatus?: number;
};

export function operationsTable(surface: SurfaceName, doc: OpenApiDocument): OperationInfo[] {
  return listOperations(doc).map(({ path, method, op }) => {
    const body = op.requestBody === undefined ? undefined : resolveLocal<{ required?: boolean }>(doc, op.requestBody);
    const success = Object.keys(op.responses as object).map(Number).filter((s) => s >= 200 && s < 300);
    const rate = op['x-rate-limit'] as { requestsPer10s: number; concurrent: number | null } | undefined;
    const info: OperationInfo = {
      surface,
      operationId: String(op.operationId),
      method: method.toUpperCase(),
      path,
      tag: String((op.tags as string[] | undefined)?.[0] ?? ''),
      summary: String(op.summary ?? ''),
      requiredScope: String(op['x-required-scope'] ?? ''),
      successStatus: Math.min(...success),
      source: String(op['x-source'] ?? ''),
      hasBody: body !== undefined,
      bodyRequired: body?.required === true,
    };
    if (rate) info.rateLimit = { requestsPer10s: rate.requestsPer10s, concurrent: rate.concurrent ?? null };
    if (typeof op['x-max-body-bytes'] === 'number') info.maxBodyBytes = op['x-max-body-bytes'];
    if (typeof op['x-result-retention-ms'] === 'number') info.resultRetentionMs = op['x-result-retention-ms'];
    if (typeof op['x-delete-delay-ms'] === 'number') info.deleteDelayMs = op['x-delete-delay-ms'];
    if (typeof op['x-synonym-of'] === 'string') info.synonymOf = op['x-synonym-of'];
    if (typeof op['x-invalid-body-status'] === 'number') info.invalidBodyStatus = op['x-invalid-body-status'];
    return info;
  });
}

export function operationsModule(all: OperationInfo[], queueRoot: OpenApiDocument, restV2Root: OpenApiDocument): string {
  const policy = queueRoot['x-rate-limit-policy'] as Record<string, unknown> | undefined;
  const rateLimitPolicy = {
    windowMs: Number(policy?.windowMs ?? 10_000),
    requestsPerWorkerPer10s: Number(policy?.requestsPerWorkerPer10s ?? 0),
  };
  const windows = (restV2Root['x-rate-limit-windows'] as { windows?: { name: string; limit: number; seconds: number }[] } | undefined)?.windows;
  if (!windows?.length) throw new Error('specs/rest-v2/openapi.yaml lacks x-rate-limit-windows');
  const restV2RateLimitWindows = windows.map((w) => ({ name: String(w.name), limit: Number(w.limit), seconds: Number(w.seconds) }));
  return [
    `export type Surface = ${Object.keys(surfaces).map((k) => `'${k}'`).join(' | ')};`,
    `export type OperationInfo = {`,
    `  surface: Surface; operationId: string; method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';`,
    `  path: string; tag: string; summary: string; requiredScope: string; successStatus: number;`,
    `  source: string; hasBody: boolean; bodyRequired: boolean;`,
    `  rateLimit?: { requestsPer10s: number; concurrent: number | null };`,
    `  maxBodyBytes?: number; resultRetentionMs?: number; deleteDelayMs?: number; synonymOf?: string;`,
    `  invalidBodyStatus?: number;`,
    `};`,
    `export const operations: readonly OperationInfo[] = ${JSON.stringify(all, null, 2)};`,
    `/** Dynamic rate limit: effective = max(base, running workers × requestsPerWorkerPer10s). */`,
    `export const rateLimitPolicy = ${JSON.stringify(rateLimitPolicy)} as const;`,
    `/** REST v2 per-caller quota windows (x-rate-limit-windows): RateLimit / RateLimit-Policy, 429 past any. */`,
    `export const restV2RateLimitWindows = ${JSON.stringify(restV2RateLimitWindows)} as const;`,
    `export type RestV1OperationId = ${union(all, 'restV1')};`,
    `export type QueueV2OperationId = ${union(all, 'queueV2')};`,
    `export type RestV2OperationId = ${union(all, 'restV2')};`,
    '',
  ].join('\n');
}

function union(all: OperationInfo[], surface: string): string {
  const ids = all.filter((o) => o.surface === surface).map((o) => JSON.stringify(o.operationId));
  return ids.length ? ids.join(' | ') : 'never';
}
