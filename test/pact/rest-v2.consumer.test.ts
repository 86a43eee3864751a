// Pact consumer tests of the REST v2 client (createRestV2Client, provider compute-rest-v2): one
// interaction set per resource family, plus the errors every REST v2 caller handles — 401, 404, 422
// with `errors[]`, 429 with Retry-After — each answered as application/problem+json.
import { MatchersV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { AuthenticationError, NotFoundError, RateLimitError, UnprocessableEntityError } from '../../src/clients/index.js';
import { PACT_WRONG_API_KEY } from '../../src/pact/participants.js';
import { GRAPHQL_TEMPLATE, V2_TEMPLATE } from '../../src/pact/rest-v2-fixtures.js';
import { NAMES, STATES } from '../../src/pact/state-names.js';
import { bearer, pactFor, problemBody, problemContentType, restV2Client, statePath } from '../../contract-tests/pact/consumer.js';
import { createPactWorkspace } from '../../contract-tests/pact/pact-files.js';
import { V2_IDS, graphqlTemplateInV2, rateLimitHeaders, v2Template } from '../../contract-tests/pact/rest-v2-shapes.js';

const { regex } = MatchersV3;

const workspace = createPactWorkspace('restV2');
const pact = pactFor('restV2', workspace.dir);

const templatePath = statePath('/v2/templates/${templateId}', `/v2/templates/${V2_IDS.template}`);
const templateInput = () => ({ ...V2_TEMPLATE, ports: [...V2_TEMPLATE.ports], env: { ...V2_TEMPLATE.env } });

afterAll(() => {
  expect(workspace.finish(), 'pacts/ differs from the fresh pact: run `npm test` locally and commit pacts/').not.toBe('stale');
});

describe('REST v2 client ↔ compute-rest-v2: templates', () => {
  it('lists templates (wrapped list) and records the quota headers', async () => {
    await pact
      .addInteraction()
      .given(STATES.v2TemplateExists)
      .uponReceiving('a REST v2 template list')
      .withRequest('GET', '/v2/templates', (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.headers(rateLimitHeaders()).jsonBody({ templates: MatchersV3.eachLike(v2Template()) }))
      .executeTest(async (mock) => {
        const client = restV2Client(mock.url);
        const templates = await client.templates.list();
        expect(templates.map((t) => t.name)).toEqual([NAMES.v2Template]);
        expect(client.rateLimit?.windows.find((w) => w.name === 'minute')).toMatchObject({ remaining: 59, quota: 60 });
      });
  });

  it('creates a template (201)', async () => {
    await pact
      .addInteraction()
      .given(STATES.v2TemplateNameFree)
      .uponReceiving('a REST v2 template creation')
      .withRequest('POST', '/v2/templates', (b) => b.headers(bearer()).jsonBody(templateInput()))
      .willRespondWith(201, (b) => b.jsonBody(v2Template()))
      .executeTest(async (mock) => {
        const created = await restV2Client(mock.url).templates.create(templateInput());
        expect(created).toMatchObject({ id: V2_IDS.template, name: NAMES.v2Template, image: V2_TEMPLATE.image, disk: V2_TEMPLATE.disk });
      });
  });

  it('reads a template', async () => {
    await pact
      .addInteraction()
      .given(STATES.v2TemplateExists)
      .uponReceiving('a REST v2 template read')
      .withRequest('GET', templatePath, (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody(v2Template()))
      .executeTest(async (mock) => {
        const template = await restV2Client(mock.url).templates.get(V2_IDS.template);
        expect(template.env).toEqual(V2_TEMPLATE.env);
      });
  });

  it('updates a template with PATCH (only the fields sent change)', async () => {
    await pact
      .addInteraction()
      .given(STATES.v2TemplateExists)
      .uponReceiving('a REST v2 template update')
      .withRequest('PATCH', templatePath, (b) => b.headers(bearer()).jsonBody({ disk: 20 }))
      .willRespondWith(200, (b) => b.jsonBody(v2Template({ disk: 20 })))
      .executeTest(async (mock) => {
        const updated = await restV2Client(mock.url).templates.update(V2_IDS.template, { disk: 20 });
        expect(updated).toMatchObject({ disk: 20, name: NAMES.v2Template });
      });
  });

  it('reads a template saved through GraphQL under the same id (one state behind every surface)', async () => {
    await pact
      .addInteraction()
      .given(STATES.v2TemplateFromGraphql)
      .uponReceiving('a REST v2 read of a template saved through GraphQL')
      .withRequest('GET', templatePath, (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody(graphqlTemplateInV2()))
      .executeTest(async (mock) => {
        const template = await restV2Client(mock.url).templates.get(V2_IDS.template);
        expect(template).toMatchObject({ name: GRAPHQL_TEMPLATE.name, image: GRAPHQL_TEMPLATE.imageName, disk: GRAPHQL_TEMPLATE.containerDiskInGb });
      });
  });

  it('deletes a template (204)', async () => {
    await pact
      .addInteraction()
      .given(STATES.v2TemplateExists)
      .uponReceiving('a REST v2 template deletion')
      .withRequest('DELETE', templatePath, (b) => b.headers(bearer()))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(restV2Client(mock.url).templates.delete(V2_IDS.template)).resolves.toBeUndefined();
      });
  });
});

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
