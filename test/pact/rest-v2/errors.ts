// compute-rest-v2 interactions: the errors every REST v2 caller handles — 401, 404, 422 with one
// `errors[]` line per failed check, 429 with Retry-After — each application/problem+json.
import { MatchersV3, type PactV4 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, NotFoundError, RateLimitError, UnprocessableEntityError } from '../../../src/clients/index.js';
import { PACT_WRONG_API_KEY } from '../../../src/pact/participants.js';
import { STATES } from '../../../src/pact/state-names.js';
import { bearer, problemBody, problemContentType, restV2Client } from '../../../contract-tests/pact/consumer.js';
import { rateLimitHeaders } from '../../../contract-tests/pact/rest-v2-shapes.js';
import { templateInput } from './templates.js';

const { regex } = MatchersV3;

export function errorInteractions(pact: PactV4): void {
  describe('REST v2 client ↔ compute-rest-v2: errors are problem details', () => {
    it('a wrong key → 401 AuthenticationError', async () => {
      await pact
        .addInteraction()
        .uponReceiving('a REST v2 template list with a wrong API key')
        .withRequest('GET', '/v2/templates', (b) => b.headers(bearer(PACT_WRONG_API_KEY)))
        .willRespondWith(401, (b) => b.headers(problemContentType()).jsonBody(problemBody(401, 'invalid API key')))
        .executeTest(async (mock) => {
          const error = await restV2Client(mock.url, { apiKey: PACT_WRONG_API_KEY }).templates.list().catch((e: unknown) => e);
          expect(error).toBeInstanceOf(AuthenticationError);
          expect((error as AuthenticationError).problem?.status).toBe(401);
        });
    });

    it('an unknown id → 404 NotFoundError', async () => {
      await pact
        .addInteraction()
        .uponReceiving('a REST v2 read of an unknown template')
        .withRequest('GET', '/v2/templates/pact-unknown-template', (b) => b.headers(bearer()))
        .willRespondWith(404, (b) => b.headers(problemContentType()).jsonBody(problemBody(404, 'template not found')))
        .executeTest(async (mock) => {
          const error = await restV2Client(mock.url).templates.get('pact-unknown-template').catch((e: unknown) => e);
          expect(error).toBeInstanceOf(NotFoundError);
          expect((error as NotFoundError).problem).toMatchObject({ title: 'Not Found', status: 404 });
        });
    });

    it('a body the spec refuses → 422 with one errors[] line per failed check', async () => {
      // Sent with validateRequests: false — the client would otherwise refuse disk 0 locally.
      const input = { ...templateInput(), disk: 0 };
      await pact
        .addInteraction()
        .uponReceiving('a REST v2 template creation with disk 0')
        .withRequest('POST', '/v2/templates', (b) => b.headers(bearer()).jsonBody(input))
        .willRespondWith(422, (b) =>
          b.headers(problemContentType()).jsonBody(problemBody(422, 'request validation failed', { pattern: '^/body/disk: .+$', example: '/body/disk: must be >= 1' })),
        )
        .executeTest(async (mock) => {
          const error = await restV2Client(mock.url, { validateRequests: false }).templates.create(input).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(UnprocessableEntityError);
          expect((error as UnprocessableEntityError).problem?.errors).toEqual(['/body/disk: must be >= 1']);
        });
    });

    it('past the minute quota → 429 RateLimitError with Retry-After', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2QuotaUsedUp)
        .uponReceiving('a REST v2 template list over the minute quota')
        .withRequest('GET', '/v2/templates', (b) => b.headers(bearer()))
        .willRespondWith(429, (b) =>
          b
            .headers({ ...problemContentType(), 'Retry-After': regex('^\\d+$', '30'), ...rateLimitHeaders() })
            .jsonBody(problemBody(429, 'rate limit exceeded for the minute window')),
        )
        .executeTest(async (mock) => {
          const error = await restV2Client(mock.url).templates.list().catch((e: unknown) => e);
          expect(error).toBeInstanceOf(RateLimitError);
          expect((error as RateLimitError).retryAfterMs).toBe(30_000);
        });
    });
  });
}
