// compute-rest-v2 interactions: templates (CRUD, wrapped list with the quota headers, and a template
// saved through GraphQL read through REST v2 under the same id).
import { MatchersV3, type PactV4 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_TEMPLATE, V2_TEMPLATE } from '../../../src/pact/rest-v2-fixtures.js';
import { NAMES, STATES } from '../../../src/pact/state-names.js';
import { bearer, restV2Client, statePath } from '../../../contract-tests/pact/consumer.js';
import { V2_IDS, graphqlTemplateInV2, rateLimitHeaders, v2Template } from '../../../contract-tests/pact/rest-v2-shapes.js';

const templatePath = statePath('/v2/templates/${templateId}', `/v2/templates/${V2_IDS.template}`);
export const templateInput = () => ({ ...V2_TEMPLATE, ports: [...V2_TEMPLATE.ports], env: { ...V2_TEMPLATE.env } });

export function templateInteractions(pact: PactV4): void {
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
}
