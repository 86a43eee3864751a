// Pact consumer tests of the REST v1 client: container registry auths and serverless endpoints,
// plus 401 and 404. Ids the provider assigns come from provider states (`fromProviderState`).
import { MatchersV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { AuthenticationError, NotFoundError } from '../../src/clients/index.js';
import { PACT_WRONG_API_KEY } from '../../src/pact/participants.js';
import { NAMES, STATES } from '../../src/pact/state-names.js';
import { bearer, errorBody, pactFor, restClient, statePath } from '../../contract-tests/pact/consumer.js';
import { createPactWorkspace } from '../../contract-tests/pact/pact-files.js';

const { like, eachLike, integer, fromProviderState } = MatchersV3;

const workspace = createPactWorkspace('restV1');
const pact = pactFor('restV1', workspace.dir);

const AUTH_ID = 'clzdaifot0001l90809257ynb';
const TEMPLATE_ID = '30zmvf89kd';
const ENDPOINT_ID = 'jpnw0v75y3qoql';

/** The fields every Endpoint carries (spec `required`) — all the client's callers read. */
const endpoint = (fields: { workersMax?: number; name?: string } = {}) => ({
  id: like(ENDPOINT_ID),
  name: like(fields.name ?? NAMES.endpoint),
  templateId: like(TEMPLATE_ID),
  workersMin: integer(0),
  workersMax: integer(fields.workersMax ?? 1),
  idleTimeout: integer(5),
});
const endpointPath = statePath('/v1/endpoints/${endpointId}', `/v1/endpoints/${ENDPOINT_ID}`);
const authPath = statePath('/v1/containerregistryauth/${containerRegistryAuthId}', `/v1/containerregistryauth/${AUTH_ID}`);

afterAll(() => {
  expect(workspace.finish(), 'pacts/ differs from the fresh pact: run `npm test` locally and commit pacts/').not.toBe('stale');
});

describe('REST v1 client ↔ compute-rest-v1: container registry auths', () => {
  it('lists registry auths (no password)', async () => {
    await pact
      .addInteraction()
      .given(STATES.registryAuthExists)
      .uponReceiving('a list of container registry auths')
      .withRequest('GET', '/v1/containerregistryauth', (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody(eachLike({ id: like(AUTH_ID), name: like(NAMES.registryAuth) })))
      .executeTest(async (mock) => {
        const auths = await restClient(mock.url).containerRegistryAuths.list();
        expect(auths).toEqual([{ id: AUTH_ID, name: NAMES.registryAuth }]);
      });
  });

  it('creates a registry auth; the password is write-only', async () => {
    const input = { name: NAMES.registryAuth, username: 'pact-user', password: 'pact-password' };
    await pact
      .addInteraction()
      .given(STATES.registryAuthNameFree)
      .uponReceiving('a container registry auth creation')
      .withRequest('POST', '/v1/containerregistryauth', (b) => b.headers(bearer()).jsonBody(input))
      .willRespondWith(200, (b) => b.jsonBody({ id: like(AUTH_ID), name: NAMES.registryAuth }))
      .executeTest(async (mock) => {
        const auth = await restClient(mock.url).containerRegistryAuths.create(input);
        expect(auth).toEqual({ id: AUTH_ID, name: NAMES.registryAuth });
      });
  });

  it('reads one registry auth', async () => {
    await pact
      .addInteraction()
      .given(STATES.registryAuthExists)
      .uponReceiving('a read of a container registry auth')
      .withRequest('GET', authPath, (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody({ id: like(AUTH_ID), name: like(NAMES.registryAuth) }))
      .executeTest(async (mock) => {
        const auth = await restClient(mock.url).containerRegistryAuths.get(AUTH_ID);
        expect(auth.name).toBe(NAMES.registryAuth);
      });
  });

  it('deletes a registry auth (204)', async () => {
    await pact
      .addInteraction()
      .given(STATES.registryAuthExists)
      .uponReceiving('a deletion of a container registry auth')
      .withRequest('DELETE', authPath, (b) => b.headers(bearer()))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(restClient(mock.url).containerRegistryAuths.delete(AUTH_ID)).resolves.toBeUndefined();
      });
  });

  it('AUTH-002 a wrong key → 401 AuthenticationError', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a list of container registry auths with a wrong API key')
      .withRequest('GET', '/v1/containerregistryauth', (b) => b.headers(bearer(PACT_WRONG_API_KEY)))
      .willRespondWith(401, (b) => b.jsonBody(errorBody('Unauthorized')))
      .executeTest(async (mock) => {
        const error = await restClient(mock.url, { apiKey: PACT_WRONG_API_KEY }).containerRegistryAuths.list().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AuthenticationError);
      });
  });
});

describe('REST v1 client ↔ compute-rest-v1: serverless endpoints', () => {
  it('lists endpoints', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointExists)
      .uponReceiving('a list of endpoints')
      .withRequest('GET', '/v1/endpoints', (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody(eachLike(endpoint())))
      .executeTest(async (mock) => {
        const endpoints = await restClient(mock.url).endpoints.list();
        expect(endpoints[0]?.id).toBe(ENDPOINT_ID);
      });
  });

  it('creates an endpoint from a template', async () => {
    await pact
      .addInteraction()
      .given(STATES.templateExists)
      .uponReceiving('an endpoint creation')
      .withRequest('POST', '/v1/endpoints', (b) =>
        b.headers(bearer()).jsonBody({
          templateId: fromProviderState('${templateId}', TEMPLATE_ID),
          name: NAMES.endpoint,
          gpuTypeIds: ['NVIDIA A40'],
          workersMax: 1,
        }),
      )
      .willRespondWith(200, (b) => b.jsonBody(endpoint()))
      .executeTest(async (mock) => {
        const created = await restClient(mock.url).endpoints.create({
          templateId: TEMPLATE_ID,
          name: NAMES.endpoint,
          gpuTypeIds: ['NVIDIA A40'],
          workersMax: 1,
        });
        expect(created).toMatchObject({ id: ENDPOINT_ID, templateId: TEMPLATE_ID });
      });
  });

  it('reads one endpoint', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointExists)
      .uponReceiving('a read of an endpoint')
      .withRequest('GET', endpointPath, (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody(endpoint()))
      .executeTest(async (mock) => {
        const found = await restClient(mock.url).endpoints.get(ENDPOINT_ID);
        expect(found.workersMax).toBe(1);
      });
  });

  it('updates an endpoint with PATCH', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointExists)
      .uponReceiving('an endpoint update (PATCH)')
      .withRequest('PATCH', endpointPath, (b) => b.headers(bearer()).jsonBody({ workersMax: 3 }))
      .willRespondWith(200, (b) => b.jsonBody(endpoint({ workersMax: 3 })))
      .executeTest(async (mock) => {
        const updated = await restClient(mock.url).endpoints.update(ENDPOINT_ID, { workersMax: 3 });
        expect(updated.workersMax).toBe(3);
      });
  });

  it('updates an endpoint with the POST …/update synonym', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointExists)
      .uponReceiving('an endpoint update (POST synonym)')
      .withRequest('POST', statePath('/v1/endpoints/${endpointId}/update', `/v1/endpoints/${ENDPOINT_ID}/update`), (b) =>
        b.headers(bearer()).jsonBody({ name: 'pact-endpoint-renamed' }),
      )
      .willRespondWith(200, (b) => b.jsonBody(endpoint({ name: 'pact-endpoint-renamed' })))
      .executeTest(async (mock) => {
        const updated = await restClient(mock.url).request('updateEndpointViaPost', {
          path: { endpointId: ENDPOINT_ID },
          body: { name: 'pact-endpoint-renamed' },
        });
        expect(updated.name).toBe('pact-endpoint-renamed');
      });
  });

  it('deletes an endpoint (204)', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointExists)
      .uponReceiving('an endpoint deletion')
      .withRequest('DELETE', endpointPath, (b) => b.headers(bearer()))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(restClient(mock.url).endpoints.delete(ENDPOINT_ID)).resolves.toBeUndefined();
      });
  });

  it('an unknown endpoint id → 404 NotFoundError', async () => {
    await pact
      .addInteraction()
      .uponReceiving('a read of an unknown endpoint')
      .withRequest('GET', '/v1/endpoints/pact-unknown-endpoint', (b) => b.headers(bearer()))
      .willRespondWith(404, (b) => b.jsonBody(errorBody('endpoint not found')))
      .executeTest(async (mock) => {
        const error = await restClient(mock.url).endpoints.get('pact-unknown-endpoint').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NotFoundError);
      });
  });
});
