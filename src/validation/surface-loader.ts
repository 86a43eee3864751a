/**
 * Contract validation used by the clients: request checks before sending (on by default) and response
 * checks (`validateResponses: true`). The Ajv validators are large, so they are loaded on first use
 * with a dynamic import, one surface at a time: a queue client loads queue v2's validators only, never
 * REST v1's or REST v2's. A client that switches validation off loads none.
 */
import type { ValidationIssue } from './issues.js';
// Type-only: the validators themselves are loaded lazily below.
import type { RequestParts, SurfaceValidation } from './surface-check.js';

export type Surface = 'restV1' | 'queueV2' | 'restV2';
export type { RequestParts };

/** What the clients need from this folder; injectable (e.g. a stricter or a no-op validator). */
export interface ContractValidator {
  validateRequest(surface: Surface, operationId: string, parts: RequestParts): ValidationIssue[];
  validateResponse(surface: Surface, operationId: string, status: number, body: unknown): ValidationIssue[];
  /** Job-completion webhook body check; optional for custom validators (then the webhook is not checked). */
  validateWebhook?(name: 'jobCompleted', payload: unknown): ValidationIssue[];
}

// One literal specifier per surface, so bundlers emit one lazily loaded chunk per surface. Each module's
// `validation` has ContractValidator's shape and refuses questions about another surface.
const surfaceLoaders: Record<Surface, () => Promise<{ validation: SurfaceValidation }>> = {
  restV1: () => import('./surfaces/rest-v1.js'),
  queueV2: () => import('./surfaces/queue-v2.js'),
  restV2: () => import('./surfaces/rest-v2.js'),
};

const defaultValidators = new Map<Surface, Promise<ContractValidator>>();
/** Surfaces whose validators have finished loading: the package root's synchronous functions use them as is. */
const settledValidators = new Map<Surface, SurfaceValidation>();

/** The package's own validator for one surface, imported once, lazily. */
export function loadDefaultValidator(surface: Surface): Promise<ContractValidator> {
  let validator = defaultValidators.get(surface);
  if (!validator) {
    validator = surfaceLoaders[surface]().then(({ validation }) => rememberSurfaceValidation(validation));
    // A failed import (e.g. a chunk that could not be fetched) is not cached: the next call retries.
    validator.catch(() => defaultValidators.delete(surface));
    defaultValidators.set(surface, validator);
  }
  return validator;
}

/** A surface's validators if already loaded (by a client, `loadValidators` or a synchronous check), else undefined. */
export function loadedSurfaceValidation(surface: Surface): SurfaceValidation | undefined {
  return settledValidators.get(surface);
}

/** Records a surface's validators loaded by other means (the root's synchronous loader), so both paths share one. */
export function rememberSurfaceValidation(validation: SurfaceValidation): SurfaceValidation {
  const known = settledValidators.get(validation.surface);
  if (known) return known;
  settledValidators.set(validation.surface, validation);
  defaultValidators.set(validation.surface, Promise.resolve(validation));
  return validation;
}

/** The caller's validator, else the package's own for `surface` (loaded on first use). */
export function resolveValidator(option: ContractValidator | undefined, surface: Surface): Promise<ContractValidator> {
  return option ? Promise.resolve(option) : loadDefaultValidator(surface);
}
