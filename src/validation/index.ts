// Request/response validation over the generated standalone Ajv validators (no schema compiled at run time).
import { validate, schemas, webhooks, type OperationValidators } from '../../generated/validators/index.js';
import { operations, type OperationInfo, type Surface } from '../../generated/operations.js';
import { toIssues, type ValidationIssue } from './issues.js';

export { validate, schemas, webhooks } from '../../generated/validators/index.js';
export type { Validator, JsonBody, JsonResponse } from '../../generated/validators/index.js';
export { toIssues, formatIssues, type ValidationIssue } from './issues.js';
export type { Surface, OperationInfo } from '../../generated/operations.js';

export type RequestParts = {
  body?: unknown;
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
};

const byId = new Map(operations.map((o) => [`${o.surface}:${o.operationId}`, o]));

export function getOperation(surface: Surface, operationId: string): OperationInfo {
  const op = byId.get(`${surface}:${operationId}`);
  if (!op) throw new Error(`Unknown ${surface} operation "${operationId}"`);
  return op;
}

function validatorsOf(surface: Surface, operationId: string): OperationValidators {
  const v = (validate[surface] as Record<string, OperationValidators>)[operationId];
  if (!v) throw new Error(`Unknown ${surface} operation "${operationId}"`);
  return v;
}

/**
 * Checks a request against the spec. Query and path values may be strings (as they arrive over HTTP);
 * they are coerced on a copy. An empty array means valid.
 */
export function validateRequest(surface: Surface, operationId: string, parts: RequestParts): ValidationIssue[] {
  const v = validatorsOf(surface, operationId);
  const issues: ValidationIssue[] = [];
  const params = { path: { ...(parts.path ?? {}) }, query: { ...(parts.query ?? {}) } };
  if (!v.params(params)) issues.push(...toIssues(v.params.errors, ''));
  if (v.body) {
    // An optional body (requestBody.required false, e.g. NoInput) may be absent; present, it must be valid.
    if (parts.body === undefined) {
      if (getOperation(surface, operationId).bodyRequired) issues.push({ path: '/body', message: 'is required' });
    } else if (!v.body(parts.body)) issues.push(...toIssues(v.body.errors, '/body'));
  } else if (parts.body !== undefined && parts.body !== null && parts.body !== '') {
    issues.push({ path: '/body', message: 'this operation takes no body' });
  }
  return issues;
}

/** Checks a response status and body against the spec; an undocumented status is an issue. */
export function validateResponse(surface: Surface, operationId: string, status: number, body: unknown): ValidationIssue[] {
  const v = validatorsOf(surface, operationId);
  const key = String(status);
  if (!(key in v.responses)) {
    return [{ path: '/status', message: `${status} is not a documented status of ${operationId} (documented: ${Object.keys(v.responses).join(', ')})` }];
  }
  const validator = v.responses[key];
  if (validator === null || validator === undefined) {
    return body === undefined || body === null || body === '' ? [] : [{ path: '/body', message: `status ${status} has no body` }];
  }
  return validator(body) ? [] : toIssues(validator.errors, '/body');
}

/** Validates a value against a named component schema of a surface. */
export function validateSchema(surface: Surface, schemaName: string, value: unknown): ValidationIssue[] {
  const validator = (schemas[surface] as unknown as Record<string, typeof schemas.restV1.Pod | undefined>)[schemaName];
  if (!validator) throw new Error(`Unknown ${surface} schema "${schemaName}"`);
  return validator(value) ? [] : toIssues(validator.errors, '');
}

/** Validates a webhook payload (e.g. the job-completion POST) against the spec. */
export function validateWebhook(name: keyof typeof webhooks, payload: unknown): ValidationIssue[] {
  const validator = webhooks[name];
  return validator(payload) ? [] : toIssues(validator.errors, '/body');
}
