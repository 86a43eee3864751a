/**
 * The REST v1 / queue v2 clients' request path. It builds the request exactly as openapi-fetch does
 * (URL = base + path template filled by the path serializer + query from openapi-fetch's own default
 * query serializer, JSON body with `Content-Type: application/json`, headers merged by its
 * `mergeHeaders`) and reads the answer by the same rules, but without openapi-fetch's per-call set-up
 * (middleware list, serializer creation, a Request object, two header merges): on a loopback `status()`
 * that set-up was the largest share of the client's own cost. `client.raw` is still openapi-fetch.
 */
import { createQuerySerializer, mergeHeaders } from 'openapi-fetch';
import { ApiError, ContractViolationError } from './errors.js';
import type { AnswerCheck, CallAnswer } from './openapi-call.js';
import { sendWithRetries, type RetryFetchOptions } from './retry-fetch.js';
import type { RequestParts } from '../validation/surface-loader.js';

/** openapi-fetch's default: arrays `form` + explode (`a=1&a=2`), objects `deepObject`. */
const defaultQuerySerializer = /* @__PURE__ */ createQuerySerializer();

type PathSerializer = (url: string, params: Record<string, unknown>) => string;

/** What a client computes once: base URL and the merged headers, with and without a JSON body. */
export class RequestBase {
  private readonly plain: Record<string, string>;
  private readonly json: Record<string, string>;

  constructor(
    readonly baseUrl: string,
    private readonly headers: Record<string, string>,
    private readonly pathSerializer: PathSerializer,
  ) {
    // Merged like openapi-fetch (case-insensitive, later wins), then kept as a plain record: each call
    // gets a copy, so a custom fetch that edits its headers cannot change the next call's.
    this.plain = recordOf(mergeHeaders(headers));
    this.json = recordOf(mergeHeaders({ 'Content-Type': 'application/json' }, headers));
  }

  url(pathTemplate: string, parts: RequestParts, pathSerializer: PathSerializer = this.pathSerializer): string {
    let url = `${this.baseUrl}${pathTemplate}`;
    if (parts.path) url = pathSerializer(url, parts.path);
    let search = parts.query ? defaultQuerySerializer(parts.query) : '';
    if (search.startsWith('?')) search = search.slice(1);
    return search ? `${url}?${search}` : url;
  }

  headersFor(hasBody: boolean, callHeaders: Record<string, string> | undefined): HeadersInit {
    if (callHeaders) return mergeHeaders(hasBody ? { 'Content-Type': 'application/json' } : {}, this.headers, callHeaders);
    return { ...(hasBody ? this.json : this.plain) };
  }
}

function recordOf(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}

export interface DirectCall {
  method: string;
  path: string;
  parts: RequestParts;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  pathSerializer?: PathSerializer;
  retry: RetryFetchOptions;
}

export async function callDirect(base: RequestBase, call: DirectCall, check: AnswerCheck): Promise<CallAnswer> {
  const method = call.method.toUpperCase();
  const hasBody = call.parts.body !== undefined;
  const response = await sendWithRetries(
    call.retry,
    {
      url: base.url(call.path, call.parts, call.pathSerializer),
      method,
      headers: base.headersFor(hasBody, call.headers),
      body: hasBody ? JSON.stringify(call.parts.body) : undefined,
    },
    call.signal,
  );
  let body: unknown;
  try {
    body = await readBody(response, method);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // Only an unparsable success body gets here (transport failures are ApiErrors already).
    throw new ApiError({ ...check.errorInit, message: `Invalid response body: ${error instanceof Error ? error.message : String(error)}` });
  }
  if (check.validator) {
    const issues = check.validator.validateResponse(check.surface, check.operationId, response.status, body === '' ? undefined : body);
    if (issues.length > 0) {
      throw new ContractViolationError(issues, { ...check.errorInit, status: response.status, headers: response.headers, body });
    }
  }
  return response.ok ? { ok: true, data: body, response } : { ok: false, body, response };
}

/**
 * openapi-fetch's reading rules: no body for 204 and HEAD, nor for an empty one (its `Content-Length: 0`
 * case); JSON for a success; an error's text parsed as JSON when it is JSON. Reading the text and parsing
 * it covers both of openapi-fetch's success paths (`json()` with a length, text without) without a header lookup.
 */
async function readBody(response: Response, method: string): Promise<unknown> {
  if (response.status === 204 || method === 'HEAD') {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const text = await response.text();
  if (!text) return undefined;
  if (response.ok) return JSON.parse(text);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
