// Shared pieces of the Pact consumer tests: one PactV4 per provider, the clients under test pointed
// at the Pact mock server, and the matchers every interaction uses.
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { createGraphqlClient, createQueueClient, createRestClient } from '../../src/clients/index.js';
import { createRestV2Client } from '../../src/clients/rest-v2/index.js';
import type { FetchLike } from '../../src/clients/retry-fetch.js';
import { recordedByMockServer } from './mock-server-record.js';
import { CONSUMER, PACT_API_KEY, PACT_DIR, PROVIDERS, type PactSurface } from '../../src/pact/participants.js';

const { regex, like, eachLike, fromProviderState } = MatchersV3;

// The Pact core otherwise reports usage to an analytics host; tests talk to loopback only.
process.env.PACT_DO_NOT_TRACK ??= 'true';

export function pactFor(surface: PactSurface, dir: string = PACT_DIR): PactV4 {
  return new PactV4({
    consumer: CONSUMER,
    provider: PROVIDERS[surface],
    dir,
    spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
    logLevel: 'error',
  });
}

/** A queue endpoint id as the pacts show it; the verifier substitutes the target's (provider state). */
export const EXAMPLE_ENDPOINT_ID = 'pact-endpoint';
/** Job ids as the pacts show them: a plain one and a /runsync one (opaque, never a UUID by contract). */
export const EXAMPLE_JOB_ID = '60902e6c-4b2a-4a5c-9f3d-1a2b3c4d5e6f-u1';
export const EXAMPLE_SYNC_JOB_ID = 'sync-79164ff4-5c27-4e8b-9f1a-2b1c5d6e7f80-u1';

/**
 * Job ids are opaque: `sync-` prefixes and `-u1` / `-e1` suffixes occur. The spec's pattern, with its
 * length bound, and nothing narrower (no UUID shape).
 */
export const JOB_ID_PATTERN = '^[A-Za-z0-9_-]{1,128}$';
export const jobId = (example: string = EXAMPLE_JOB_ID) => regex(JOB_ID_PATTERN, example);

const STATUSES = ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'] as const;
type Status = (typeof STATUSES)[number];
/** Any status out of a set, e.g. a fresh submission is IN_QUEUE or already IN_PROGRESS. */
export const statusOneOf = (allowed: readonly Status[], example: Status = allowed[0]!) =>
  regex(`^(${allowed.join('|')})$`, example);
export const NOT_TERMINAL: readonly Status[] = ['IN_QUEUE', 'IN_PROGRESS'];

/** An RFC 3339 timestamp with a fixed example (no generator, so the pact file never changes). */
export const rfc3339 = (example = '2025-01-01T12:00:00.000Z') =>
  regex('^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$', example);

/** `Authorization: Bearer <key>`; the key in the pact is the placeholder the verifier replaces. */
export const bearer = (key: string = PACT_API_KEY) => ({ Authorization: regex('^Bearer \\S+$', `Bearer ${key}`) });

/** The error body every REST v1 / queue v2 error carries; the clients read `message` (and `errors[]` for 400). */
export const errorBody = (message: string) => ({ message: like(message) });

/** `Content-Type` of every REST v2 error answer (RFC 9457); parameters such as `charset` may follow. */
export const problemContentType = () => ({ 'Content-Type': regex('^application/problem\\+json(;.*)?$', 'application/problem+json') });

const STATUS_TITLES: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found', 422: 'Unprocessable Entity', 429: 'Too Many Requests' };
/**
 * REST v2 problem details: `status` repeats the HTTP status exactly, `title`/`detail` are any text,
 * and `errors` (422) is a list of `"<path>: <message>"` lines, each matching `errorLine`.
 */
export const problemBody = (status: number, detail: string, errorLine?: { pattern: string; example: string }) => ({
  title: like(STATUS_TITLES[status] ?? 'Error'),
  status,
  detail: like(detail),
  ...(errorLine ? { errors: eachLike(regex(errorLine.pattern, errorLine.example)) } : {}),
});

/** A path holding provider-state values, e.g. `/v2/${endpointId}/status/${jobId}`. */
export const statePath = (expression: string, example: string) => fromProviderState(expression, example);

/** Queue paths: `/v2/{endpointId}/…` with the endpoint id from the provider state. */
export const queuePath = (rest: string, exampleRest: string = rest) =>
  statePath(`/v2/\${endpointId}${rest}`, `/v2/${EXAMPLE_ENDPOINT_ID}${exampleRest}`);

/**
 * One transport-level retry under the clients: a connection the Pact mock server refused or dropped
 * before answering never produced an answer, so trying once more cannot hide a contract problem (if the
 * first request did arrive, Pact reports the extra one). The error is logged so such a flake is visible.
 */
const pactFetch: FetchLike = async (input, init) => {
  const spare = input instanceof Request ? input.clone() : input;
  try {
    return await recordedByMockServer(input, () => fetch(input, init));
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    console.warn(`[pact consumer] transport error (${cause?.code ?? cause?.message ?? String(error)}); retrying once`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return fetch(spare, init);
  }
};

/** Client options that make one call one request: no retries (Pact counts requests). */
const NO_RETRIES = { maxRetries: 0, fetch: pactFetch } as const;

export function restClient(mockUrl: string, overrides: { apiKey?: string; validateRequests?: boolean } = {}) {
  return createRestClient({ baseUrl: `${mockUrl}/v1`, apiKey: PACT_API_KEY, ...NO_RETRIES, ...overrides });
}

export function queueClient(mockUrl: string, overrides: { apiKey?: string; validateRequests?: boolean } = {}) {
  return createQueueClient<{ prompt: string }, { echo?: { prompt: string } }, string>({
    endpointBaseUrl: `${mockUrl}/v2`,
    endpointId: EXAMPLE_ENDPOINT_ID,
    apiKey: PACT_API_KEY,
    ...NO_RETRIES,
    ...overrides,
  });
}

/** REST v2 client: its base URL is the origin (the Pact mock server's), the paths carry `/v2`. */
export function restV2Client(mockUrl: string, overrides: { apiKey?: string; validateRequests?: boolean } = {}) {
  return createRestV2Client({ baseUrl: mockUrl, apiKey: PACT_API_KEY, ...NO_RETRIES, ...overrides });
}

export function graphqlClient(mockUrl: string, overrides: { apiKey?: string } = {}) {
  return createGraphqlClient({ graphqlUrl: `${mockUrl}/graphql`, apiKey: PACT_API_KEY, ...NO_RETRIES, ...overrides });
}
