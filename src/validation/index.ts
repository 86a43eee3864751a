// Request/response validation over the generated standalone Ajv validators (no schema compiled at run time),
// for every surface at once. The checks themselves live in surface-check.ts; the clients load one surface's
// validators lazily through surfaces/<surface>.ts instead of this module.
import { validate, schemas, webhooks, requiredBodies } from '../../generated/validators/index.js';
import type { Surface } from '../../generated/operations.js';
import { checkWebhook, surfaceValidation, type RequestParts, type SurfaceValidation } from './surface-check.js';
import type { ValidationIssue } from './issues.js';

export { validate, schemas, webhooks } from '../../generated/validators/index.js';
export type { Validator, JsonBody, JsonResponse } from '../../generated/validators/index.js';
export { toIssues, formatIssues, type ValidationIssue } from './issues.js';
export type { Surface, OperationInfo } from '../../generated/operations.js';
export type { RequestParts } from './surface-check.js';

export { getOperation } from './operation-lookup.js';

const bySurface = new Map<Surface, SurfaceValidation>();

function surfaceOf(surface: Surface): SurfaceValidation {
  let checks = bySurface.get(surface);
  if (!checks) {
    if (!Object.hasOwn(validate, surface)) throw new Error(`Unknown surface "${String(surface)}"`);
    checks = surfaceValidation(surface, { validate: validate[surface], schemas: schemas[surface], webhooks, requiredBodies: requiredBodies[surface] });
    bySurface.set(surface, checks);
  }
  return checks;
}

/**
 * Checks a request against the spec. Query and path values may be strings (as they arrive over HTTP);
 * they are coerced on a copy. An empty array means valid.
 */
export function validateRequest(surface: Surface, operationId: string, parts: RequestParts): ValidationIssue[] {
  return surfaceOf(surface).validateRequest(surface, operationId, parts);
}

/** Checks a response status and body against the spec; an undocumented status is an issue. */
export function validateResponse(surface: Surface, operationId: string, status: number, body: unknown): ValidationIssue[] {
  return surfaceOf(surface).validateResponse(surface, operationId, status, body);
}

/** Validates a value against a named component schema of a surface. */
export function validateSchema(surface: Surface, schemaName: string, value: unknown): ValidationIssue[] {
  return surfaceOf(surface).validateSchema(schemaName, value);
}

/** Validates a webhook payload (e.g. the job-completion POST) against the spec. */
export function validateWebhook(name: keyof typeof webhooks, payload: unknown): ValidationIssue[] {
  return checkWebhook(webhooks, name, payload);
}
