/**
 * One error hierarchy for the REST v1, queue v2 and GraphQL clients.
 *
 *   ApiError
 *   ├─ BadRequestError 400 ── ValidationError (rejected locally before sending)
 *   ├─ AuthenticationError 401, PermissionDeniedError 403
 *   ├─ NotFoundError 404 ── JobExpiredError (job vanished after ttl / result retention)
 *   ├─ ConflictError 409, UnprocessableEntityError 422, RateLimitError 429 (retryAfterMs), InternalServerError 5xx
 *   ├─ ConnectionError (no response) ; TimeoutError (attempt timeout, 408, waitFor budget)
 *   ├─ RequestAbortedError (caller's AbortSignal)
 *   ├─ ContractViolationError (response does not match the spec)
 *   ├─ GraphQLResponseError (GraphQL `errors[]`) ; JobFailedError (job ended FAILED/CANCELLED/TIMED_OUT)
 *
 * Every message, body and header set is passed through a SecretRedactor at construction, so the API
 * key, passwords, accessSecret and secret values cannot leak through message, toString() or toJSON().
 */
import { SecretRedactor } from './redact.js';

import type { ValidationIssue } from '../validation/index.js';
export type { ValidationIssue };

export interface ApiErrorInit {
  message?: string;
  status?: number;
  headers?: Headers;
  body?: unknown;
  operationId?: string;
  jobId?: string;
  cause?: unknown;
  redactor?: SecretRedactor;
}

const defaultRedactor = new SecretRedactor();

/** RFC 9457 problem details, the error body of REST v2 (`application/problem+json`). */
export interface ProblemDetails {
  title: string;
  status: number;
  detail: string;
  /** One line per failed validation check. */
  errors?: string[];
}

function problemOf(body: unknown): ProblemDetails | undefined {
  const candidate = body as Partial<ProblemDetails> | null | undefined;
  if (candidate === null || typeof candidate !== 'object') return undefined;
  if (typeof candidate.title !== 'string' || typeof candidate.status !== 'number' || typeof candidate.detail !== 'string') return undefined;
  const errors = Array.isArray(candidate.errors) ? candidate.errors.filter((item): item is string => typeof item === 'string') : undefined;
  return { title: candidate.title, status: candidate.status, detail: candidate.detail, ...(errors ? { errors } : {}) };
}

function describe(init: ApiErrorInit, fallback: string): string {
  const body = init.body as { message?: unknown } | undefined;
  const reason = init.message ?? (typeof body?.message === 'string' ? body.message : undefined) ?? fallback;
  const where = [init.operationId, init.jobId !== undefined ? `job ${init.jobId}` : undefined].filter(Boolean).join(' ');
  // A 2xx status adds nothing (GraphQL errors, contract violations on success answers).
  const status = init.status !== undefined && init.status >= 300 ? `${init.status} ` : '';
  return `${status}${reason}${where ? ` (${where})` : ''}`;
}

export class ApiError extends Error {
  override name: string = 'ApiError';
  /** HTTP status; undefined when no response was received. */
  readonly status: number | undefined;
  /** Response headers, credentials removed. */
  readonly headers: Headers | undefined;
  /** Parsed error body (`{message, errors?}` on REST v1 / queue v2), secrets removed. */
  readonly body: unknown;
  readonly operationId: string | undefined;
  readonly jobId: string | undefined;
  /** Value of `x-request-id` when the server sent one. */
  readonly requestId: string | undefined;
  /** `{title, status, detail, errors?}` when the body is RFC 9457 problem details (REST v2), secrets removed. */
  readonly problem: ProblemDetails | undefined;

  constructor(init: ApiErrorInit = {}, fallbackMessage = 'API error') {
    const redactor = init.redactor ?? defaultRedactor;
    super(redactor.text(describe(init, fallbackMessage)), init.cause !== undefined ? { cause: init.cause } : undefined);
    this.status = init.status;
    this.headers = redactor.headers(init.headers);
    this.body = redactor.value(init.body);
    this.operationId = init.operationId;
    this.jobId = init.jobId;
    this.requestId = init.headers?.get('x-request-id') ?? undefined;
    this.problem = problemOf(this.body);
  }

  override toString(): string {
    return `${this.name}: ${this.message}`;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, status: this.status, operationId: this.operationId, jobId: this.jobId, body: this.body };
  }
}

export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
  /** `errors[]` of the body: one `{path, message}` per offending input location (REST v2's plain strings become `{path: '', message}`). */
  get issues(): ValidationIssue[] {
    const errors = (this.body as { errors?: unknown } | undefined)?.errors;
    if (!Array.isArray(errors)) return [];
    return errors.map((item) => (typeof item === 'string' ? { path: '', message: item } : (item as ValidationIssue)));
  }
}

/** A request rejected by client-side validation; nothing was sent. Shaped like a server 400. */
export class ValidationError extends BadRequestError {
  override name = 'ValidationError';
  constructor(issues: ValidationIssue[], init: Omit<ApiErrorInit, 'body' | 'status'> = {}) {
    const summary = issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ');
    super({ ...init, status: 400, message: `Invalid request: ${summary}`, body: { message: 'Invalid request', errors: issues } });
  }
}

export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/** 422: well-formed but failed the server's validation; `problem.errors` lists each failure (REST v2). */
export class UnprocessableEntityError extends ApiError {
  override name = 'UnprocessableEntityError';
}
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}

export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** Wait the server asked for (`Retry-After` seconds or date, or `retry-after-ms`); undefined if absent. */
  readonly retryAfterMs: number | undefined;
  constructor(init: ApiErrorInit, now: number = Date.now()) {
    super(init);
    this.retryAfterMs = parseRetryAfterMs(init.headers, now);
  }
}

export class ConnectionError extends ApiError {
  override name = 'ConnectionError';
  constructor(init: ApiErrorInit = {}) {
    super(init, 'Connection error');
  }
}

export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
  /** Last job status seen before a waitFor/stream budget ran out. */
  readonly lastStatus: string | undefined;
  constructor(init: ApiErrorInit & { lastStatus?: string } = {}) {
    super(init, 'Request timed out');
    this.lastStatus = init.lastStatus;
  }
}

export class RequestAbortedError extends ApiError {
  override name = 'AbortError';
  constructor(init: ApiErrorInit = {}) {
    super(init, 'Request aborted');
  }
}

/** 404 on a job that existed: deleted after its ttl, or its result expired after retention. Unrecoverable. */
export class JobExpiredError extends NotFoundError {
  override name = 'JobExpiredError';
  readonly lastStatus: string | undefined;
  constructor(init: ApiErrorInit & { lastStatus?: string }) {
    super({
      ...init,
      message:
        init.message ??
        `Job vanished (404): deleted after its ttl or its result expired after retention${init.lastStatus ? `; last status ${init.lastStatus}` : ''}`,
    });
    this.lastStatus = init.lastStatus;
  }
}

/** A job reached FAILED, CANCELLED or TIMED_OUT where the caller asked for its output. */
export class JobFailedError extends ApiError {
  override name = 'JobFailedError';
  readonly jobStatus: string;
  /** The job's `error` field as the service returned it (string or JSON). */
  readonly jobError: unknown;
  constructor(init: ApiErrorInit & { jobStatus: string; jobError?: unknown }) {
    const detail = typeof init.jobError === 'string' ? `: ${init.jobError}` : '';
    super({ ...init, message: init.message ?? `Job ended ${init.jobStatus}${detail}` });
    this.jobStatus = init.jobStatus;
    this.jobError = (init.redactor ?? defaultRedactor).value(init.jobError);
  }
}

/** Response (status, headers or body) not allowed by the spec. Raised when `validateResponses: true`. */
export class ContractViolationError extends ApiError {
  override name = 'ContractViolationError';
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[], init: ApiErrorInit) {
    const summary = issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ');
    super({ ...init, message: `Response violates the contract: ${summary}` });
    this.issues = issues;
  }
}

export interface GraphQLErrorEntry {
  message: string;
  path?: ReadonlyArray<string | number>;
  locations?: ReadonlyArray<{ line: number; column: number }>;
  extensions?: Record<string, unknown>;
}

/** A GraphQL answer carrying `errors[]` (possibly with partial data). */
export class GraphQLResponseError extends ApiError {
  override name = 'GraphQLResponseError';
  readonly errors: GraphQLErrorEntry[];
  readonly data: unknown;
  constructor(errors: GraphQLErrorEntry[], init: ApiErrorInit & { data?: unknown }) {
    const redactor = init.redactor ?? defaultRedactor;
    const safe = errors.map((entry) => redactor.value(entry));
    const first = safe[0];
    const where = first?.path ? ` at ${first.path.join('.')}` : '';
    const more = safe.length > 1 ? ` (+${safe.length - 1} more)` : '';
    super({ ...init, message: init.message ?? `${first?.message ?? 'GraphQL error'}${where}${more}` });
    this.errors = safe;
    this.data = redactor.value(init.data);
  }
}

/** `retry-after-ms`, else `Retry-After` (delta seconds or HTTP date) in ms; undefined when absent or invalid. */
export function parseRetryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Maps an HTTP error answer to its class. */
export function errorFromResponse(init: ApiErrorInit & { status: number }, now?: number): ApiError {
  const { status } = init;
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 408) return new TimeoutError(init);
  if (status === 409) return new ConflictError(init);
  if (status === 422) return new UnprocessableEntityError(init);
  if (status === 429) return new RateLimitError(init, now);
  if (status >= 500) return new InternalServerError(init);
  return new ApiError(init);
}
