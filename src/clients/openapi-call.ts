// One call through openapi-fetch with the per-call retry fetch, then the optional response check
// against the spec: the REST v2 transport's request path. The REST v1 / queue v2 transport builds its
// requests itself (direct-call.ts) and shares the answer types and the check's inputs declared here.
import type { Client } from 'openapi-fetch';
import { ApiError, ContractViolationError, type ApiErrorInit } from './errors.js';
import type { ContractValidator, RequestParts, Surface } from '../validation/surface-loader.js';

export interface OpenapiCall {
  method: string;
  path: string;
  parts: RequestParts;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  fetch: unknown;
  /** The operation's query lists as the spec declares them (src/contract/query-style.ts); openapi-fetch's default explodes every list. */
  querySerializer?: (query: Record<string, unknown>) => string;
}

export interface AnswerCheck {
  surface: Surface;
  operationId: string;
  /** Set when answers are to be checked against the spec (`validateResponses: true`). */
  validator?: ContractValidator;
  errorInit: ApiErrorInit;
}

export type CallAnswer = { ok: true; data: unknown; response: Response } | { ok: false; body: unknown; response: Response };

export async function callThroughOpenapiFetch(client: Client<never>, call: OpenapiCall, check: AnswerCheck): Promise<CallAnswer> {
  let result: { data?: unknown; error?: unknown; response: Response };
  try {
    result = await client.request(call.method.toLowerCase() as never, call.path as never, {
      params: { path: call.parts.path, query: call.parts.query },
      body: call.parts.body,
      headers: call.headers,
      signal: call.signal,
      fetch: call.fetch,
      // Left undefined, openapi-fetch uses the client's own serializer.
      querySerializer: call.querySerializer,
    } as never);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // openapi-fetch only throws for transport errors (already ApiError) or an unparsable success body.
    throw new ApiError({ ...check.errorInit, message: `Invalid response body: ${error instanceof Error ? error.message : String(error)}` });
  }
  const { response } = result;
  const body = response.ok ? result.data : result.error;
  if (check.validator) {
    const issues = check.validator.validateResponse(check.surface, check.operationId, response.status, body === '' ? undefined : body);
    if (issues.length > 0) {
      throw new ContractViolationError(issues, { ...check.errorInit, status: response.status, headers: response.headers, body });
    }
  }
  return response.ok ? { ok: true, data: result.data, response } : { ok: false, body, response };
}
