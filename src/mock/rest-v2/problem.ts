// RFC 9457 problem details, the error body of every REST v2 answer (specs/rest-v2 Problem schema).
import { STATUS_CODES } from 'node:http';
import type { Failure } from '../state/store.js';
import type { V2Reply } from './types.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemBody {
  title: string;
  status: number;
  detail: string;
  errors?: string[];
}

export function problemBody(status: number, detail: string, errors?: readonly string[]): ProblemBody {
  const body: ProblemBody = { title: STATUS_CODES[status] ?? 'Error', status, detail };
  if (errors && errors.length > 0) body.errors = [...errors];
  return body;
}

export const problem = (status: number, detail: string, errors?: readonly string[], headers?: Record<string, string>): V2Reply => ({
  status,
  body: problemBody(status, detail, errors),
  contentType: PROBLEM_CONTENT_TYPE,
  ...(headers ? { headers } : {}),
});

/** One line per failed check, `"<path>: <message>"` (the migration map's error rule). */
export const errorLines = (errors: readonly { path: string; message: string }[] | undefined): string[] =>
  (errors ?? []).map((e) => `${e.path}: ${e.message}`);

/** REST v1 / GraphQL field names a store message may carry, and their REST v2 names (the migration map's renames). */
const V1_NAMES: [RegExp, string][] = [
  [/\binput\./g, ''],
  [/\bimageName\b/g, 'image'],
  [/\bcontainerDiskInGb\b/g, 'disk'],
  [/\bcontainerRegistryAuthId\b/g, 'registry'],
  [/\bdockerStartCmd\b/g, 'args'],
  [/\bisServerless\b/g, 'serverless'],
  [/\bisPublic\b/g, 'public'],
  [/\bcontainer registry auth\b/g, 'registry credential'],
];

/** A store message in REST v2's words: REST v2 answers name REST v2 fields only. */
export function inRestV2Names(text: string): string {
  return V1_NAMES.reduce((out, [from, to]) => out.replace(from, to), text);
}

/** A store refusal as a problem; `statusFor` lets an operation answer a documented status instead (e.g. 404 for a missing reference). */
export function problemFromFailure(failure: Failure, status: number = failure.status): V2Reply {
  const reply = problem(status, inRestV2Names(failure.message), errorLines(failure.errors).map(inRestV2Names));
  if (failure.retryAfterSeconds !== undefined) reply.headers = { ...reply.headers, 'retry-after': String(failure.retryAfterSeconds) };
  return reply;
}
