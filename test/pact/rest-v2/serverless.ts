// compute-rest-v2 interactions: serverless endpoints — create from a template, read, list builds.
import type { PactV4 } from '@pact-foundation/pact';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { v2EndpointInput } from '../../../src/pact/rest-v2-fixtures.js';
import { NAMES, STATES } from '../../../src/pact/state-names.js';
import { bearer, restV2Client, statePath } from '../../../contract-tests/pact/consumer.js';
import { V2_IDS, v2Endpoint } from '../../../contract-tests/pact/rest-v2-shapes.js';

const { fromProviderState } = MatchersV3;
const TEMPLATE_ID = 'pact-serverless-template-id';

export function serverlessInteractions(pact: PactV4): void {
  describe('REST v2 client ↔ compute-rest-v2: serverless endpoints', () => {
    it('creates a queue endpoint from a template (201)', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2ServerlessTemplateExists)
        .uponReceiving('a REST v2 serverless endpoint creation')
        .withRequest('POST', '/v2/serverless', (b) =>
          b.headers(bearer()).jsonBody({ ...v2EndpointInput(TEMPLATE_ID), templateId: fromProviderState('${templateId}', TEMPLATE_ID) }),
        )
        .willRespondWith(201, (b) => b.jsonBody(v2Endpoint()))
        .executeTest(async (mock) => {
          const endpoint = await restV2Client(mock.url).serverless.create(v2EndpointInput(TEMPLATE_ID));
          expect(endpoint).toMatchObject({ id: V2_IDS.endpoint, name: NAMES.v2Endpoint, workers: { min: 0, max: 1 } });
        });
    });

    it('reads an endpoint', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2EndpointExists)
        .uponReceiving('a REST v2 serverless endpoint read')
        .withRequest('GET', statePath('/v2/serverless/${endpointId}', `/v2/serverless/${V2_IDS.endpoint}`), (b) => b.headers(bearer()))
        .willRespondWith(200, (b) => b.jsonBody(v2Endpoint()))
        .executeTest(async (mock) => {
          const endpoint = await restV2Client(mock.url).serverless.get(V2_IDS.endpoint);
          expect(endpoint.scaling).toEqual({ type: 'QUEUE_DELAY', queueDelay: 4 });
        });
    });

    it('lists the builds of an endpoint, not paginated (a new endpoint has none)', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2EndpointExists)
        .uponReceiving('a REST v2 build list of an endpoint')
        .withRequest('GET', statePath('/v2/serverless/${endpointId}/builds', `/v2/serverless/${V2_IDS.endpoint}/builds`), (b) => b.headers(bearer()))
        .willRespondWith(200, (b) => b.jsonBody({ builds: [] }))
        .executeTest(async (mock) => {
          expect(await restV2Client(mock.url).serverless.builds.list(V2_IDS.endpoint)).toEqual([]);
        });
    });
  });
}
