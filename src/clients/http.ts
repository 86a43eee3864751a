/**
 * The throwing layer shared by the REST v1 and queue v2 clients: requests built as openapi-fetch builds
 * them (direct-call.ts; `raw` is openapi-fetch itself, `{data, error, response}`), Bearer auth, retries per
 * call, optional contract validation of requests and responses, and status → error class mapping with
 * secrets redacted.
 */
import createClient, { type Client } from 'openapi-fetch';
import { callDirect, RequestBase } from './direct-call.js';
import { ValidationError, errorFromResponse } from './errors.js';
import { SecretRedactor } from './redact.js';
import { simplePathSerializer } from './path-serializer.js';
import { PreparedRequest } from './prepared-request.js';
import { createRetryFetch, type FetchLike, type RetryFetchOptions, type RetryInfo, type Sleep } from './retry-fetch.js';
import { loadDefaultValidator, loadedSurfaceValidation, type ContractValidator, type RequestParts, type Surface } from '../validation/surface-loader.js';

/** Transport options of every client (REST v1, queue v2, GraphQL). */
export interface TransportOptions {
  apiKey: string;
  /** Underlying fetch (default `globalThis.fetch`); retries are layered on top of it. */
  fetch?: FetchLike;
  /** Retries after the first attempt (429, 408, 5xx, connection errors). Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in ms. Default 60 000. */
  timeoutMs?: number;
  /** Extra headers on every request (e.g. a User-Agent). */
  headers?: Record<string, string>;
  onRetry?: (info: RetryInfo) => void;
  /** Backoff tuning and injectable clock/randomness (tests, simulations). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Largest server-requested wait honoured by sleeping (default 60 000 ms). */
  maxRetryAfterMs?: number;
  sleep?: Sleep;
  random?: () => number;
}

/** Client-wide retry settings from the transport options; a call may override maxRetries, timeoutMs, signal. */
export function retrySettingsOf(o: TransportOptions, redactor: SecretRedactor): RetryFetchOptions {
  return {
    fetch: o.fetch, maxRetries: o.maxRetries, timeoutMs: o.timeoutMs, onRetry: o.onRetry, baseDelayMs: o.baseDelayMs,
    maxDelayMs: o.maxDelayMs, maxRetryAfterMs: o.maxRetryAfterMs, sleep: o.sleep, random: o.random, redactor,
  };
}

/** Options of the REST v1 and queue v2 clients. */
export interface BaseClientOptions extends TransportOptions {
  /** Check request bodies and parameters against the spec before sending. Default true. */
  validateRequests?: boolean;
  /** Check every response against the spec; mismatches raise ContractViolationError. Default false. */
  validateResponses?: boolean;
  /** Replaces the built-in Ajv validator. */
  validator?: ContractValidator;
}

/** Options accepted by every method. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}

export interface OperationSpec {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** OpenAPI path template relative to the surface base, e.g. `/pods/{podId}`. */
  path: string;
  /** Safe to repeat after an ambiguous failure (5xx, reset, timeout). */
  idempotent: boolean;
}

export interface CallContext {
  jobId?: string;
  /** Override path serialisation (the openai pass-through keeps `/` in its path parameter). */
  pathSerializer?: (pathname: string, params: Record<string, unknown>) => string;
}

export function requireOption(value: string | undefined, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${name} is required`);
  return value;
}

export class HttpCore {
  readonly redactor: SecretRedactor;
  /** Base URL and merged headers of every call, computed once (direct-call.ts). */
  private readonly requestBase: RequestBase;

  constructor(
    readonly surface: Surface,
    readonly baseUrl: string,
    private readonly options: BaseClientOptions,
  ) {
    requireOption(options.apiKey, 'apiKey');
    this.redactor = new SecretRedactor([options.apiKey]);
    const { baseUrl: base, headers, pathSerializer } = this.openapiFetchOptions();
    this.requestBase = new RequestBase(base, headers, pathSerializer);
  }

  /**
   * The layer underneath, for callers who want it: an openapi-fetch client typed with the surface's
   * generated `paths`, with the same auth, base URL and retry fetch, answering `{data, error, response}`
   * and never throwing for HTTP statuses (transport failures still raise ConnectionError/TimeoutError).
   */
  rawClient<Paths extends {}>(): Client<Paths> {
    return createClient<Paths>({
      ...this.openapiFetchOptions(),
      fetch: createRetryFetch(retrySettingsOf(this.options, this.redactor)) as (input: Request) => Promise<Response>,
    });
  }

  /** Base URL, auth headers and request building shared by the throwing and the raw layer. */
  private openapiFetchOptions() {
    return {
      baseUrl: this.baseUrl.replace(/\/+$/, ''),
      headers: { ...this.options.headers, Authorization: `Bearer ${this.options.apiKey}`, Accept: 'application/json' },
      // The retry fetch sends the parts itself; see prepared-request.ts.
      Request: PreparedRequest as unknown as typeof Request,
      pathSerializer: simplePathSerializer,
    };
  }

  async call<T>(spec: OperationSpec, parts: RequestParts, callOptions: CallOptions = {}, context: CallContext = {}): Promise<T> {
    const { operationId } = spec;
    const redactor = hasObjectBody(parts.body) ? this.redactor.extend().addFromBody(parts.body) : this.redactor;
    const errorInit = { operationId, jobId: context.jobId, redactor };
    const validateResponses = this.options.validateResponses === true;
    // Once loaded, the surface's validators are used without another await (one microtask less per call).
    const validator =
      this.options.validateRequests !== false || validateResponses
        ? (this.options.validator ?? loadedSurfaceValidation(this.surface) ?? (await loadDefaultValidator(this.surface)))
        : undefined;

    if (validator && this.options.validateRequests !== false) {
      const issues = validator.validateRequest(this.surface, operationId, parts);
      if (issues.length > 0) throw new ValidationError(issues, errorInit);
    }

    // One object literal of a fixed shape per call (a spread of the client-wide settings cost more).
    const o = this.options;
    const retry: RetryFetchOptions = {
      fetch: o.fetch, maxRetries: callOptions.maxRetries ?? o.maxRetries, timeoutMs: callOptions.timeoutMs ?? o.timeoutMs,
      onRetry: o.onRetry, baseDelayMs: o.baseDelayMs, maxDelayMs: o.maxDelayMs, maxRetryAfterMs: o.maxRetryAfterMs,
      sleep: o.sleep, random: o.random, idempotent: spec.idempotent, operationId, jobId: context.jobId, redactor,
    };
    const answer = await callDirect(this.requestBase, {
      method: spec.method, path: spec.path, parts, headers: callOptions.headers, signal: callOptions.signal, retry,
      pathSerializer: context.pathSerializer,
    }, { surface: this.surface, operationId, validator: validateResponses ? validator : undefined, errorInit });
    if (answer.ok) return answer.data as T;
    const { response, body } = answer;
    throw errorFromResponse({ ...errorInit, status: response.status, headers: response.headers, body: normaliseErrorBody(body, response) });
  }
}

function hasObjectBody(body: unknown): boolean {
  return body !== null && typeof body === 'object';
}

/** Error bodies are `{message, errors?}`; a non-JSON body (proxy page, empty) becomes `{message}`. */
function normaliseErrorBody(body: unknown, response: Response): unknown {
  if (body !== null && typeof body === 'object') return body;
  const text = typeof body === 'string' ? body.trim().slice(0, 500) : '';
  return { message: text || response.statusText || `HTTP ${response.status}` };
}

/** Removes undefined entries so optional query parameters are not serialised. */
export function compact<T extends Record<string, unknown>>(value: T | undefined): T | undefined {
  if (!value) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return Object.keys(out).length > 0 ? (out as T) : undefined;
}
