/**
 * A `fetch` with retries, backoff + jitter, `Retry-After`, per-attempt timeouts and AbortSignal, passed
 * to openapi-fetch / graphql-request as their `fetch` (retries belong in fetch, not middleware: the body
 * must be replayable and the caller's signal must cut the waits too).
 *
 * Policy (Stainless-like, adapted to job queues):
 * - idempotent requests (GET/HEAD/PUT/PATCH/DELETE, or marked idempotent) retry on 408, 429, 5xx,
 *   connection errors and attempt timeouts;
 * - other POSTs (job submissions, creates, GraphQL mutations) retry only where the request cannot
 *   have run: 429 and connections refused / unresolved before anything was sent;
 * - `x-should-retry: true|false` from the server overrides the status rule of an error status (≥ 400);
 * - wait = `retry-after-ms` / `Retry-After` (seconds or HTTP date) when within `maxRetryAfterMs`, else
 *   exponential backoff 0.5 s → 8 s with jitter in [50 %, 100 %] of the step. A Retry-After beyond
 *   `maxRetryAfterMs` is not slept on: the 429 is returned so the caller sees `RateLimitError.retryAfterMs`.
 */
import { ConnectionError, RequestAbortedError, TimeoutError, parseRetryAfterMs } from './errors.js';
import { PreparedRequest, replayableBody } from './prepared-request.js';
import type { SecretRedactor } from './redact.js';

export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
/** What the retry fetch accepts: anything `fetch` does, plus the clients' PreparedRequest. */
export type RetryFetch = (input: Request | PreparedRequest | URL | string, init?: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryInfo {
  /** 1-based number of the retry about to happen. */
  retry: number;
  delayMs: number;
  status?: number;
  error?: unknown;
  method: string;
  url: string;
}

export interface RetrySettings {
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in ms (headers received). Default 60 000; 0 disables. */
  timeoutMs?: number;
  /** First backoff step. Default 500 ms. */
  baseDelayMs?: number;
  /** Largest backoff step. Default 8000 ms. */
  maxDelayMs?: number;
  /** Largest server-requested wait honoured by sleeping. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** Force the idempotency decision instead of deriving it from the method. */
  idempotent?: boolean;
  signal?: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryFetchOptions extends RetrySettings {
  fetch?: FetchLike;
  /** Injectable for deterministic tests. */
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  operationId?: string;
  /** Job the request is about: carried by the transport errors (ConnectionError, TimeoutError, abort). */
  jobId?: string;
  redactor?: SecretRedactor;
}

type ErrorContext = { operationId?: string; jobId?: string; redactor?: SecretRedactor };

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 60_000;
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);
/** Errors raised before a single byte left: safe to retry even for job submissions. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT']);

/** Abortable sleep; rejects with the signal's reason. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Backoff step for retry n (1-based): min(base·2^(n-1), max), jittered into [50 %, 100 %]. */
export function backoffDelayMs(retry: number, random: () => number = Math.random, baseDelayMs = 500, maxDelayMs = 8000): number {
  const step = Math.min(baseDelayMs * 2 ** (retry - 1), maxDelayMs);
  return Math.round(step * (0.5 + 0.5 * random()));
}

export function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function statusIsRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function createRetryFetch(options: RetryFetchOptions = {}): RetryFetch {
  return async function retryFetch(input, init) {
    const request =
      (input instanceof PreparedRequest || input instanceof Request) && init === undefined ? input : new Request(input as Request | URL | string, init);
    const callerSignal = options.signal ?? (init?.signal ?? undefined) ?? request.signal;
    // Buffer the body once so every attempt can send it again.
    const pendingBody = replayableBody(request);
    const body = pendingBody instanceof Promise ? await pendingBody : pendingBody;
    return sendWithRetries(options, { url: request.url, method: request.method, headers: request.headers, body, redirect: request.redirect }, callerSignal);
  };
}

/** One request as the retry loop sends it: every attempt is `fetch(url, { method, headers, body, redirect, signal })`. */
export interface OutgoingRequest {
  url: string;
  method: string;
  headers: HeadersInit;
  /** Replayable: sent again as is by every attempt. */
  body?: BodyInit;
  redirect?: RequestRedirect;
}

const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * The retry loop itself, for callers that already hold the request's parts (the REST v1 / queue v2
 * transport builds them directly): no Request object, no per-call fetch closure.
 */
export async function sendWithRetries(options: RetryFetchOptions, request: OutgoingRequest, callerSignal: AbortSignal | undefined): Promise<Response> {
  const baseFetch = options.fetch ?? globalFetch;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const method = request.method.toUpperCase();
  const idempotent = options.idempotent ?? IDEMPOTENT_METHODS.has(method);
  const errorInit: ErrorContext = { operationId: options.operationId, jobId: options.jobId, redactor: options.redactor };

  for (let attempt = 0; ; attempt++) {
    if (callerSignal?.aborted) throw new RequestAbortedError({ ...errorInit, cause: callerSignal.reason });
    let response: Response;
    try {
      response = await attemptOnce(baseFetch, request, callerSignal, timeoutMs);
    } catch (error) {
      const failure = classify(error, callerSignal, errorInit);
      const retryable =
        !(failure instanceof RequestAbortedError) && (idempotent || NOT_SENT_CODES.has(errorCode(error) ?? ''));
      if (!retryable || attempt >= maxRetries) throw failure;
      const delayMs = backoffDelayMs(attempt + 1, random, options.baseDelayMs, options.maxDelayMs);
      options.onRetry?.({ retry: attempt + 1, delayMs, error: failure, method, url: request.url });
      await sleepOrAbort(sleep, delayMs, callerSignal, errorInit);
      continue;
    }

    // A success or a redirect is never retried: no header is read on the hot path.
    if (response.status < 400 || attempt >= maxRetries) return response;
    const hint = response.headers.get('x-should-retry');
    const retryable =
      hint === 'true' ? true : hint === 'false' ? false : idempotent ? statusIsRetryable(response.status) : response.status === 429;
    if (!retryable) return response;
    const retryAfterMs = parseRetryAfterMs(response.headers, (options.now ?? Date.now)());
    if (retryAfterMs !== undefined && retryAfterMs > (options.maxRetryAfterMs ?? 60_000)) return response;
    const delayMs = retryAfterMs ?? backoffDelayMs(attempt + 1, random, options.baseDelayMs, options.maxDelayMs);
    await response.body?.cancel().catch(() => undefined);
    options.onRetry?.({ retry: attempt + 1, delayMs, status: response.status, method, url: request.url });
    await sleepOrAbort(sleep, delayMs, callerSignal, errorInit);
  }
}

class AttemptTimeout extends Error {}

async function attemptOnce(baseFetch: FetchLike, request: OutgoingRequest, callerSignal: AbortSignal | undefined, timeoutMs: number): Promise<Response> {
  const init: RequestInit = { method: request.method, headers: request.headers, body: request.body, redirect: request.redirect ?? 'follow' };
  if (!(timeoutMs > 0)) {
    init.signal = callerSignal ?? null;
    return baseFetch(request.url, init);
  }
  // Combine the caller's signal with a per-attempt timer; the timer stops once headers arrive.
  const controller = new AbortController();
  const onAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), timeoutMs);
  init.signal = controller.signal;
  try {
    return await baseFetch(request.url, init);
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason instanceof AttemptTimeout) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onAbort);
  }
}

function classify(error: unknown, callerSignal: AbortSignal | undefined, init: ErrorContext) {
  if (error instanceof AttemptTimeout) return new TimeoutError({ ...init, message: 'Request timed out' });
  if (callerSignal?.aborted) return new RequestAbortedError({ ...init, cause: callerSignal.reason });
  if (error instanceof ConnectionError || error instanceof TimeoutError || error instanceof RequestAbortedError) return error;
  const code = errorCode(error);
  return new ConnectionError({ ...init, message: `Connection error${code ? ` (${code})` : ''}`, cause: sanitizeCause(error) });
}

/** Keeps the code chain of a network failure but not messages that could carry a URL with api_key. */
function sanitizeCause(error: unknown): unknown {
  const code = errorCode(error);
  const cause = new Error(code ?? (error instanceof Error ? error.name : 'network failure'));
  if (code) (cause as Error & { code?: string }).code = code;
  return cause;
}

async function sleepOrAbort(sleep: Sleep, ms: number, signal: AbortSignal | undefined, init: ErrorContext) {
  try {
    await sleep(ms, signal);
  } catch (error) {
    throw new RequestAbortedError({ ...init, cause: signal?.reason ?? error });
  }
}
