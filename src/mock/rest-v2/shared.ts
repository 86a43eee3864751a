// Helpers every REST v2 resource module uses: store results as replies, the v1 → v2 value renames
// shared by several resources, and the marker of records created through REST v2.
import { shellQuote } from '../../migration/index.js';
import { splitShellWords } from '../graphql/docker-args.js';
import type { Failure, Result } from '../state/store.js';
import { problemFromFailure } from './problem.js';
import type { V2Reply } from './types.js';

export type Body = Record<string, unknown>;

/** A store result: success rendered with `status`, a refusal as a problem (optionally with another documented status). */
export function fromResult<T>(result: Result<T>, status: number, render: (value: T) => unknown, refusalStatus?: (f: Failure) => number): V2Reply {
  if (!result.ok) return problemFromFailure(result, refusalStatus?.(result) ?? result.status);
  return status === 204 ? { status } : { status, body: render(result.value) };
}

/** Store refusal paths are REST v1 names (`/body/imageName`); REST v2 callers sent other names. */
export function renameErrorPaths(failure: Failure, renames: Record<string, string>): Failure {
  if (!failure.errors) return failure;
  return { ...failure, errors: failure.errors.map((e) => ({ ...e, path: renames[e.path] ?? e.path })) };
}

/** REST v2 `args` (one command line) ⇄ stored `dockerStartCmd` (words), as the migration map's shellJoin. */
const argsCache = new WeakMap<readonly unknown[], string>();
/** Cached per stored array: records replace (never mutate) their arrays, and lists render every record. */
export function argsFromWords(words: unknown): string {
  if (!Array.isArray(words)) return '';
  let args = argsCache.get(words);
  if (args === undefined) argsCache.set(words, (args = words.map((w) => shellQuote(String(w))).join(' ')));
  return args;
}
export const wordsFromArgs = (args: string): string[] => splitShellWords(args);

/** Copies `from[v2Key]` to `to[storeKey]` when present (PATCH semantics: absent keeps the stored value). */
export function copyPresent(from: Body, to: Body, renames: Record<string, string>): void {
  for (const [v2Key, storeKey] of Object.entries(renames)) if (from[v2Key] !== undefined) to[storeKey] = from[v2Key];
}
