// `--retire-rest-v1`: REST v1 as the real service serves it since 2026-11-15 — every request answered
// 410 Gone (before authentication: a retired API serves no traffic at all) with the REST v1 error body,
// whose message names the REST v2 replacement from the migration map, or says there is none.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isNone, migrationMap } from '../../migration/index.js';
import { sendError } from '../http.js';
import type { Router } from '../router.js';

/** The date the real service retired REST v1 (specs/rest-v1 x-retired). */
export const REST_V1_RETIRED_ON = '2026-11-15';

export function retiredMessage(router: Router, method: string, relPath: string): string {
  const head = `REST v1 was retired on ${REST_V1_RETIRED_ON}`;
  const match = router.match('restV1', method, relPath);
  if (match === undefined || match === 'method') return `${head}; use REST v2 (https://api.runpod.io/v2)`;
  const mapping = migrationMap.operations[match.op.operationId];
  if (!mapping) return `${head}; use REST v2 (https://api.runpod.io/v2)`;
  if (isNone(mapping.v2)) return `${head}; ${match.op.operationId} has no REST v2 replacement: ${mapping.v2.none}`;
  return `${head}; use ${mapping.v2.method} ${mapping.v2.path} (REST v2 ${mapping.v2.operationId}) instead`;
}

export function answerRetired(router: Router, req: IncomingMessage, res: ServerResponse, relPath: string): void {
  req.resume();
  sendError(res, 410, retiredMessage(router, req.method ?? 'GET', relPath));
}
