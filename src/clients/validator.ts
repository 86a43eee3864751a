/**
 * Contract validation used by the clients: request checks before sending (on by default) and response
 * checks (`validateResponses: true`). The Ajv validators are large, so they are loaded on first use
 * with a dynamic import; a client that switches validation off never loads them.
 */
import type { ValidationIssue } from './errors.js';

export type Surface = 'restV1' | 'queueV2' | 'restV2';

// Type-only: the validators themselves are loaded lazily below.
import type { RequestParts } from '../validation/index.js';
export type { RequestParts };

/** What the clients need from `src/validation`; injectable (e.g. a stricter or a no-op validator). */
export interface ContractValidator {
  validateRequest(surface: Surface, operationId: string, parts: RequestParts): ValidationIssue[];
  validateResponse(surface: Surface, operationId: string, status: number, body: unknown): ValidationIssue[];
  /** Job-completion webhook body check; optional for custom validators (then the webhook is not checked). */
  validateWebhook?(name: 'jobCompleted', payload: unknown): ValidationIssue[];
}

let defaultValidator: Promise<ContractValidator> | undefined;

/** The package's own validator (`src/validation`), imported once, lazily. */
export function loadDefaultValidator(): Promise<ContractValidator> {
  defaultValidator ??= import('../validation/index.js').then((module) => ({
    validateRequest: (surface, operationId, parts) => module.validateRequest(surface, operationId, parts),
    validateResponse: (surface, operationId, status, body) => module.validateResponse(surface, operationId, status, body),
    validateWebhook: (name, payload) => module.validateWebhook(name, payload),
  }));
  return defaultValidator;
}

export function resolveValidator(option: ContractValidator | undefined): Promise<ContractValidator> {
  return option ? Promise.resolve(option) : loadDefaultValidator();
}
