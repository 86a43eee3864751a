// Requests of path parameters only (no query string, no body) that passed validation, remembered per
// operation: a polled `/status/{jobId}` is validated once per recent path instead of on every poll. The
// validation of such a request depends on its operation and path alone, so the answer is the same.
import type { OperationInfo } from './types.js';

/** Paths remembered per operation; the oldest is forgotten first. */
const MAX_PATHS_PER_OPERATION = 256;

const validPaths = new WeakMap<OperationInfo, Set<string>>();

export function isKnownValidPath(op: OperationInfo, relPath: string): boolean {
  return validPaths.get(op)?.has(relPath) === true;
}

export function rememberValidPath(op: OperationInfo, relPath: string): void {
  let paths = validPaths.get(op);
  if (!paths) validPaths.set(op, (paths = new Set()));
  else if (paths.size >= MAX_PATHS_PER_OPERATION) paths.delete(paths.values().next().value!);
  paths.add(relPath);
}
