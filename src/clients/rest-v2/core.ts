/**
 * The REST v2 transport: openapi-fetch typed with the generated `paths` underneath, Bearer auth, the
 * shared retry fetch (Retry-After honoured) per call, optional contract validation, RFC 9457 problem
 * bodies mapped onto the shared error classes, rate-limit headers recorded from every answer, and the
 * connection step of the SSE log streams.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths as RestV2Paths } from '../../../generated/rest-v2/types.js';
import { restV2QueryStyles } from '../../../generated/query-styles.js';
import { ApiError, ValidationError, errorFromResponse, type ApiErrorInit } from '../errors.js';
import { callThroughOpenapiFetch } from '../openapi-call.js';
import type { CallOptions, TransportOptions } from '../http.js';
import { simplePathSerializer } from '../path-serializer.js';
import { PreparedRequest } from '../prepared-request.js';
// The serialising half only, with REST v2's own table: the parser and the other surfaces' tables stay out of the bundle.
import { operationQueryStyles, querySuffix, serializeQuery } from '../../contract/query-style-serialize.js';
import { SecretRedactor } from '../redact.js';
import { createRetryFetch, type FetchLike, type RetryFetchOptions } from '../retry-fetch.js';
import { resolveValidator, type ContractValidator, type RequestParts } from '../../validation/surface-loader.js';
import { REST_V2_OPERATIONS, type RestV2OperationId } from './operations.js';
import { parseRateLimit, type RateLimitState } from './rate-limit.js';

/** Origin of the REST v2 management API; every operation path starts with `/v2`. (Queue v2 jobs live elsewhere: `https://api.runpod.ai/v2/{endpointId}`.) */
export const REST_V2_DEFAULT_BASE_URL = 'https://api.runpod.io';

export interface RestV2ClientOptions extends TransportOptions {
  /**
   * Origin of the management API, without `/v2` (the operation paths carry it). Default
   * `https://api.runpod.io`. A value ending in `/v2` is rejected: that is the shape of the queue's
   * `https://api.runpod.ai/v2`, a different service.
   */
  baseUrl?: string;
  /** Check bodies and parameters against the spec before sending. Default true. */
  validateRequests?: boolean;
  /** Check every JSON answer against the spec; mismatches raise ContractViolationError. Default false. */
  validateResponses?: boolean;
  /** Replaces the built-in Ajv validator (loaded lazily on the first validated call). */
  validator?: ContractValidator;
}

const JSON_ACCEPT = 'application/json, application/problem+json';

export class RestV2Core {
  readonly redactor: SecretRedactor;
  readonly baseUrl: string;
  /** Last `RateLimit` / `RateLimit-Policy` pair seen on any answer (retry attempts included). */
  rateLimit: RateLimitState | undefined;
  private readonly fetch: FetchLike;
  private readonly client: Client<RestV2Paths>;

  constructor(private readonly options: RestV2ClientOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw new TypeError('apiKey is required');
    const baseUrl = (options.baseUrl ?? REST_V2_DEFAULT_BASE_URL).replace(/\/+$/, '');
    if (/\/v2$/i.test(baseUrl)) {
      throw new TypeError(`baseUrl is the REST v2 origin without /v2 (paths carry it), e.g. ${REST_V2_DEFAULT_BASE_URL}; got ${baseUrl}`);
    }
    this.baseUrl = baseUrl;
    this.redactor = new SecretRedactor([options.apiKey]);
    const inner: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.fetch = async (input, init) => {
      const response = await inner(input, init);
      this.rateLimit = parseRateLimit(response.headers) ?? this.rateLimit;
      return response;
    };
    this.client = createClient<RestV2Paths>(this.clientOptions());
  }

  private clientOptions() {
    return {
      baseUrl: this.baseUrl,
      headers: { ...this.options.headers, Authorization: `Bearer ${this.options.apiKey}`, Accept: JSON_ACCEPT },
      Request: PreparedRequest as unknown as typeof Request,
      pathSerializer: simplePathSerializer,
    };
  }

  /** openapi-fetch typed with the REST v2 paths, same auth, retry fetch and rate-limit tracking; never throws for a status. */
  rawClient(): Client<RestV2Paths> {
    return createClient<RestV2Paths>({
      ...this.clientOptions(),
      fetch: createRetryFetch(this.retryOptions({}, this.redactor)) as (input: Request) => Promise<Response>,
    });
  }

  /**
   * The retry fetch's options as one object literal of a fixed shape, as the REST v1 / queue v2 transport
   * builds them (a spread of the client-wide settings into a new object on every call cost more). Without
   * an operation (the raw layer) the method decides idempotency.
   */
  private retryOptions(callOptions: CallOptions, redactor: SecretRedactor, operationId?: string, idempotent?: boolean): RetryFetchOptions {
    const o = this.options;
    return {
      fetch: this.fetch, maxRetries: callOptions.maxRetries ?? o.maxRetries, timeoutMs: callOptions.timeoutMs ?? o.timeoutMs,
      onRetry: o.onRetry, baseDelayMs: o.baseDelayMs, maxDelayMs: o.maxDelayMs, maxRetryAfterMs: o.maxRetryAfterMs,
      sleep: o.sleep, random: o.random, idempotent, signal: callOptions.signal, operationId, redactor,
    };
  }

  private async validator(): Promise<ContractValidator | undefined> {
    const wanted = this.options.validateRequests !== false || this.options.validateResponses === true;
    return wanted ? resolveValidator(this.options.validator, 'restV2') : undefined;
  }

  private async checkRequest(operationId: string, parts: RequestParts, errorInit: ApiErrorInit): Promise<ContractValidator | undefined> {
    const validator = await this.validator();
    if (validator && this.options.validateRequests !== false) {
      const issues = validator.validateRequest('restV2', operationId, parts);
      if (issues.length > 0) throw new ValidationError(issues, errorInit);
    }
    return validator;
  }

  async call<T>(operationId: RestV2OperationId, parts: RequestParts, callOptions: CallOptions = {}): Promise<T> {
    const [method, path] = REST_V2_OPERATIONS[operationId];
    const redactor = parts.body !== null && typeof parts.body === 'object' ? this.redactor.extend().addFromBody(parts.body) : this.redactor;
    const errorInit = { operationId, redactor };
    const validator = await this.checkRequest(operationId, parts, errorInit);
    const fetch = createRetryFetch(this.retryOptions(callOptions, redactor, operationId, isIdempotent(method, operationId, parts.body)));

    const styles = operationQueryStyles(restV2QueryStyles, operationId);
    // Through unknown: asserting Client<RestV2Paths> to Client<never> directly makes the compiler measure the
    // variance of openapi-fetch's Client over the whole paths table (~3 s of every type check).
    const answer = await callThroughOpenapiFetch(this.client as unknown as Client<never>, {
      method, path, parts, headers: callOptions.headers, signal: callOptions.signal, fetch,
      querySerializer: (query) => serializeQuery(query, styles),
    }, { surface: 'restV2', operationId, validator: this.options.validateResponses === true ? validator : undefined, errorInit });
    if (answer.ok) return answer.data as T;
    throw problemError(answer.response, answer.body, errorInit);
  }

  /**
   * Opens an SSE operation once (retrying 429/5xx like any GET); resolves the OK response with its
   * body unread, or throws the mapped error. Used by the resumable iterator on every (re)connect.
   */
  async connect(operationId: RestV2OperationId, parts: RequestParts, lastEventId: string | undefined, callOptions: CallOptions = {}): Promise<Response> {
    const [method, path] = REST_V2_OPERATIONS[operationId];
    const errorInit = { operationId, redactor: this.redactor };
    await this.checkRequest(operationId, parts, errorInit);
    const search = querySuffix(parts.query, operationQueryStyles(restV2QueryStyles, operationId));
    const headers: Record<string, string> = {
      ...this.options.headers,
      ...callOptions.headers,
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: 'text/event-stream',
      'Cache-Control': 'no-cache',
    };
    if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
    const fetch = createRetryFetch(this.retryOptions(callOptions, this.redactor, operationId, true));
    const response = await fetch(`${this.baseUrl}${simplePathSerializer(path, parts.path ?? {})}${search}`, { method, headers });
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: normalised below
    }
    throw problemError(response, body, errorInit);
  }
}

/** POSTs are not repeated after an ambiguous failure, except the state setters start/stop of podAction. */
function isIdempotent(method: string, operationId: string, body: unknown): boolean {
  if (method !== 'POST') return true;
  const action = operationId === 'podAction' ? (body as { action?: unknown } | undefined)?.action : undefined;
  return action === 'start' || action === 'stop';
}

/**
 * An HTTP error answer as its ApiError subclass (403 PermissionDeniedError, 422 UnprocessableEntityError…),
 * `problem` = {title, status, detail, errors?}. A body that is not problem details (a proxy page, empty)
 * becomes one from the status line and the first 500 characters of text.
 */
export function problemError(response: Response, body: unknown, init: ApiErrorInit): ApiError {
  type Loose = { title?: unknown; status?: unknown; detail?: unknown; errors?: unknown; message?: unknown };
  const problem: Loose =
    body !== null && typeof body === 'object'
      ? (body as Loose)
      : {
          title: response.statusText || `HTTP ${response.status}`,
          status: response.status,
          detail: (typeof body === 'string' ? body.trim().slice(0, 500) : '') || response.statusText || `HTTP ${response.status}`,
        };
  const detail = typeof problem.detail === 'string' ? problem.detail : typeof problem.message === 'string' ? problem.message : undefined;
  const errors = Array.isArray(problem.errors) ? problem.errors.filter((item: unknown) => typeof item === 'string') : [];
  const reason = detail ?? (typeof problem.title === 'string' ? problem.title : undefined);
  const message = reason !== undefined && errors.length > 0 ? `${reason}: ${errors.join('; ')}` : reason;
  return errorFromResponse({ ...init, message, status: response.status, headers: response.headers, body: problem });
}
