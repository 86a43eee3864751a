// Facts the mock reads from the specs instead of re-typing them: operations, rate-limit policy,
// webhook retry policy, and the property names of REST v1 response schemas (to render records).
import { readFileSync } from 'node:fs';
import { operations, rateLimitPolicy } from '../../generated/operations.js';
import type { OperationInfo, RateLimitPolicy } from './types.js';
import type { WebhookPolicy } from './jobs/webhooks.js';
import { packageFile } from '../contract/package-files.js';

interface OpenApiDoc {
  components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
  webhooks?: Record<string, Record<string, unknown>>;
}

function readJson(relative: string): OpenApiDoc {
  return JSON.parse(readFileSync(packageFile(relative), 'utf8')) as OpenApiDoc;
}

const restV1Doc = readJson('generated/rest-v1/openapi.json');
const queueV2Doc = readJson('generated/queue-v2/openapi.json');

export const mockOperations: readonly OperationInfo[] = operations as readonly OperationInfo[];

export const mockRateLimitPolicy: RateLimitPolicy = rateLimitPolicy;

export function operation(surface: OperationInfo['surface'], operationId: string): OperationInfo {
  const op = mockOperations.find((o) => o.surface === surface && o.operationId === operationId);
  if (!op) throw new Error(`operation ${surface}:${operationId} is missing from generated/operations.ts`);
  return op;
}

export const webhookPolicy: WebhookPolicy = (() => {
  const retry = queueV2Doc.webhooks?.['jobCompleted']?.['x-retry'] as Partial<WebhookPolicy> | undefined;
  if (!retry || retry.retries === undefined || retry.intervalMs === undefined || retry.successStatus === undefined) {
    throw new Error('queue-v2 spec lacks webhooks.jobCompleted.x-retry');
  }
  return { retries: retry.retries, intervalMs: retry.intervalMs, successStatus: retry.successStatus };
})();

/** Property names of a REST v1 component schema (records are rendered through these). */
export function restV1Properties(schema: string): ReadonlySet<string> {
  const props = restV1Doc.components?.schemas?.[schema]?.properties;
  if (!props) throw new Error(`rest-v1 spec lacks schema ${schema}`);
  return new Set(Object.keys(props));
}
