/**
 * The checks over ONE surface's generated validator table (coercion of query/path strings, body presence,
 * documented statuses). `index.ts` applies them to every surface at once; the per-surface entries in
 * `surfaces/` apply them to one, so a client loads only its own surface's validators.
 */
import type { OperationValidators, Validator } from '../../generated/validators/types.js';
import type { Surface } from '../../generated/operations.js';
import { toIssues, type ValidationIssue } from './issues.js';

export type RequestParts = {
  body?: unknown;
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
};

/** What `generated/validators/<surface>.index.ts` exports. */
export interface SurfaceTable {
  validate: Record<string, OperationValidators>;
  schemas: Record<string, Validator<unknown>>;
  webhooks: Record<string, Validator<unknown>>;
  requiredBodies: ReadonlySet<string>;
}

/**
 * The checks of one surface. Request and response checks take the surface like the clients'
 * ContractValidator does, so a client uses this object as is; another surface is refused.
 */
export interface SurfaceValidation {
  surface: Surface;
  validateRequest(surface: Surface, operationId: string, parts: RequestParts): ValidationIssue[];
  validateResponse(surface: Surface, operationId: string, status: number, body: unknown): ValidationIssue[];
  validateSchema(schemaName: string, value: unknown): ValidationIssue[];
  /** A webhook payload the surface's service sends (queue v2: `jobCompleted`). */
  validateWebhook(name: string, payload: unknown): ValidationIssue[];
}

export function surfaceValidation(own: Surface, table: SurfaceTable): SurfaceValidation {
  const validatorsOf = (surface: Surface, operationId: string): OperationValidators => {
    if (surface !== own) throw new Error(`the ${own} validators were asked about ${surface}`);
    const v = Object.hasOwn(table.validate, operationId) ? table.validate[operationId] : undefined;
    if (!v) throw new Error(`Unknown ${own} operation "${operationId}"`);
    return v;
  };
  return {
    surface: own,
    /**
     * Checks a request against the spec. Query and path values may be strings (as they arrive over HTTP);
     * they are coerced on a copy. An empty array means valid.
     */
    validateRequest(surface, operationId, parts) {
      const v = validatorsOf(surface, operationId);
      const issues: ValidationIssue[] = [];
      const params = { path: { ...(parts.path ?? {}) }, query: { ...(parts.query ?? {}) } };
      if (!v.params(params)) issues.push(...toIssues(v.params.errors, ''));
      if (v.body) {
        // An optional body (requestBody.required false, e.g. NoInput) may be absent; present, it must be valid.
        if (parts.body === undefined) {
          if (table.requiredBodies.has(operationId)) issues.push({ path: '/body', message: 'is required' });
        } else if (!v.body(parts.body)) issues.push(...toIssues(v.body.errors, '/body'));
      } else if (parts.body !== undefined && parts.body !== null && parts.body !== '') {
        issues.push({ path: '/body', message: 'this operation takes no body' });
      }
      return issues;
    },
    /** Checks a response status and body against the spec; an undocumented status is an issue. */
    validateResponse(surface, operationId, status, body) {
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
    },
    /** Validates a value against a named component schema of the surface. */
    validateSchema(schemaName, value) {
      const validator = Object.hasOwn(table.schemas, schemaName) ? table.schemas[schemaName] : undefined;
      if (!validator) throw new Error(`Unknown ${own} schema "${schemaName}"`);
      return validator(value) ? [] : toIssues(validator.errors, '');
    },
    validateWebhook: (name, payload) => checkWebhook(table.webhooks, name, payload),
  };
}

/** Validates a webhook payload (e.g. the job-completion POST) against the spec. */
export function checkWebhook(webhooks: Record<string, Validator<unknown>>, name: string, payload: unknown): ValidationIssue[] {
  const validator = Object.hasOwn(webhooks, name) ? webhooks[name] : undefined;
  if (!validator) throw new Error(`Unknown webhook "${name}"`);
  return validator(payload) ? [] : toIssues(validator.errors, '/body');
}
