/**
 * Request/response validation as the package root offers it: the same synchronous functions as
 * `compute-contract/validation` (./index.ts), but each surface's generated Ajv validators are loaded on
 * its first use, so a caller who only checks queue v2 requests never loads REST v2's 1.5 MB of validators.
 *
 * The functions are synchronous, so the first use of a surface loads its module with `require()` — Node
 * ≥ 20.19 loads an ES module that way (require(esm)). Bundles and other runtimes without it call
 * `await loadValidators(surface)` once first; the clients load theirs with `import()` and share this cache.
 */
import { createRequire } from 'node:module';
import type { Surface } from '../../generated/operations.js';
import type { webhooks } from '../../generated/validators/index.js';
import { loadDefaultValidator, loadedSurfaceValidation, rememberSurfaceValidation } from './surface-loader.js';
import type { RequestParts, SurfaceValidation } from './surface-check.js';
import type { ValidationIssue } from './issues.js';

export { toIssues, formatIssues, type ValidationIssue } from './issues.js';
export type { Surface, OperationInfo } from '../../generated/operations.js';
export type { RequestParts, SurfaceValidation } from './surface-check.js';
export type { Validator, JsonBody, JsonResponse } from '../../generated/validators/types.js';

/**
 * The surface modules beside this module: src/validation/surfaces/ in a clone; installed, this code is in
 * dist/esm/index.js and the build puts the surfaces in dist/esm/surfaces/ (scripts/build/package.mjs).
 */
const SURFACE_MODULES: Record<Surface, string> = {
  restV1: './surfaces/rest-v1.js',
  queueV2: './surfaces/queue-v2.js',
  restV2: './surfaces/rest-v2.js',
};

let requireHere: NodeRequire | undefined;

function isSurface(surface: unknown): surface is Surface {
  return typeof surface === 'string' && Object.hasOwn(SURFACE_MODULES, surface);
}

/** The loaded validators of a surface; the first call for a surface loads them synchronously. */
function surfaceNow(surface: Surface): SurfaceValidation {
  if (!isSurface(surface)) throw new Error(`Unknown surface "${String(surface)}"`);
  const loaded = loadedSurfaceValidation(surface);
  if (loaded) return loaded;
  let module: { validation: SurfaceValidation };
  try {
    requireHere ??= createRequire(import.meta.url);
    module = requireHere(SURFACE_MODULES[surface]) as { validation: SurfaceValidation };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(
      `compute-contract: the ${surface} validators could not be loaded synchronously (${reason}); ` +
        `call \`await loadValidators('${surface}')\` once before the synchronous checks (needed in bundles, and on Node < 20.19)`,
    );
  }
  return rememberSurfaceValidation(module.validation);
}

/** Loads a surface's validators ahead of use with `import()` (bundlers split them into a chunk per surface). */
export async function loadValidators(surface: Surface): Promise<void> {
  if (!isSurface(surface)) throw new Error(`Unknown surface "${String(surface)}"`);
  await loadDefaultValidator(surface);
}

export { getOperation } from './operation-lookup.js';

/**
 * Checks a request against the spec. Query and path values may be strings (as they arrive over HTTP);
 * they are coerced on a copy. An empty array means valid.
 */
export function validateRequest(surface: Surface, operationId: string, parts: RequestParts): ValidationIssue[] {
  return surfaceNow(surface).validateRequest(surface, operationId, parts);
}

/** Checks a response status and body against the spec; an undocumented status is an issue. */
export function validateResponse(surface: Surface, operationId: string, status: number, body: unknown): ValidationIssue[] {
  return surfaceNow(surface).validateResponse(surface, operationId, status, body);
}

/** Validates a value against a named component schema of a surface. */
export function validateSchema(surface: Surface, schemaName: string, value: unknown): ValidationIssue[] {
  return surfaceNow(surface).validateSchema(schemaName, value);
}

/** Validates a webhook payload (queue v2's job-completion POST, `jobCompleted`) against the spec. */
export function validateWebhook(name: keyof typeof webhooks, payload: unknown): ValidationIssue[] {
  return surfaceNow('queueV2').validateWebhook(name, payload);
}
