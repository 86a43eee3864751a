// Pact consumer tests of the GraphQL client (pact-js GraphQL interactions): the four mutations, the
// podTemplate query and a 401. The key travels as `?api_key=` like the client sends it.
import { MatchersV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/clients/index.js';
import {
  DeleteTemplateDocument,
  GetPodTemplateDocument,
  SaveTemplateDocument,
  SecretCreateDocument,
  SecretDeleteDocument,
} from '../../generated/graphql/graphql.js';
import { PACT_API_KEY, PACT_WRONG_API_KEY } from '../../src/pact/participants.js';
import { NAMES, STATES } from '../../src/pact/state-names.js';
import { graphqlClient, pactFor } from '../../contract-tests/pact/consumer.js';
import { createPactWorkspace } from '../../contract-tests/pact/pact-files.js';

const { like, integer, fromProviderState } = MatchersV3;

const workspace = createPactWorkspace('graphql');
const pact = pactFor('graphql', workspace.dir);

const TEMPLATE_ID = '30zmvf89kd';
const SECRET_ID = 'cm0l1secret0001';
const withKey = (key: string = PACT_API_KEY) => (b: { query(q: Record<string, string>): unknown }) => {
  b.query({ api_key: key });
};
/** The non-null fields of PodTemplate: what every caller may rely on. */
const template = (name: string = NAMES.template) => ({
  id: like(TEMPLATE_ID),
  name: like(name),
  imageName: like('pact/worker:1.0'),
  containerDiskInGb: integer(10),
  volumeInGb: integer(0),
});
const templateInput = { name: NAMES.template, imageName: 'pact/worker:1.0', containerDiskInGb: 10, volumeInGb: 0, isServerless: true };

afterAll(() => {
  expect(workspace.finish(), 'pacts/ differs from the fresh pact: run `npm test` locally and commit pacts/').not.toBe('stale');
});

describe('GraphQL client ↔ compute-graphql', () => {
  it('saveTemplate creates a template', async () => {
    await pact
      .addGraphQLInteraction()
      .given(STATES.templateNameFree)
      .uponReceiving('a saveTemplate mutation creating a template')
      .withOperation('SaveTemplate')
      .withVariables({ input: templateInput })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(SaveTemplateDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { saveTemplate: template() } }))
      .executeTest(async (mock) => {
        const saved = await graphqlClient(mock.url).saveTemplate(templateInput);
        expect(saved).toMatchObject({ id: TEMPLATE_ID, name: NAMES.template });
      });
  });

  it('deleteTemplate deletes an unused template by name', async () => {
    await pact
      .addGraphQLInteraction()
      .given(STATES.namedTemplateExists)
      .uponReceiving('a deleteTemplate mutation')
      .withOperation('DeleteTemplate')
      .withVariables({ templateName: NAMES.template })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(DeleteTemplateDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { deleteTemplate: null } }))
      .executeTest(async (mock) => {
        await expect(graphqlClient(mock.url).deleteTemplate(NAMES.template)).resolves.toBeUndefined();
      });
  });

  it('secretCreate creates a secret; the value is never returned', async () => {
    const input = { name: NAMES.secret, value: 'pact-secret-value', description: 'made by a pact' };
    await pact
      .addGraphQLInteraction()
      .given(STATES.secretNameFree)
      .uponReceiving('a secretCreate mutation')
      .withOperation('SecretCreate')
      .withVariables({ input })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(SecretCreateDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { secretCreate: { id: like(SECRET_ID), name: NAMES.secret } } }))
      .executeTest(async (mock) => {
        const secret = await graphqlClient(mock.url).secretCreate(input);
        expect(secret).toMatchObject({ id: SECRET_ID, name: NAMES.secret });
        expect(secret).not.toHaveProperty('value');
      });
  });

  it('secretDelete deletes a secret by id', async () => {
    await pact
      .addGraphQLInteraction()
      .given(STATES.secretExists)
      .uponReceiving('a secretDelete mutation')
      .withOperation('SecretDelete')
      .withVariables({ id: fromProviderState('${secretId}', SECRET_ID) })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(SecretDeleteDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { secretDelete: null } }))
      .executeTest(async (mock) => {
        await expect(graphqlClient(mock.url).secretDelete(SECRET_ID)).resolves.toBeUndefined();
      });
  });

  it('podTemplate reads a template by id', async () => {
    await pact
      .addGraphQLInteraction()
      .given(STATES.templateExists)
      .uponReceiving('a podTemplate query')
      .withOperation('GetPodTemplate')
      .withVariables({ id: fromProviderState('${templateId}', TEMPLATE_ID) })
      .withRequest('POST', '/graphql', withKey())
      .withQuery(String(GetPodTemplateDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { podTemplate: template('pact-serverless-template') } }))
      .executeTest(async (mock) => {
        const found = await graphqlClient(mock.url).podTemplate(TEMPLATE_ID);
        expect(found?.id).toBe(TEMPLATE_ID);
      });
  });

  it('GQL-AUTH a wrong api_key → 401 AuthenticationError', async () => {
    await pact
      .addGraphQLInteraction()
      .uponReceiving('a secretDelete mutation with a wrong API key')
      .withOperation('SecretDelete')
      .withVariables({ id: SECRET_ID })
      .withRequest('POST', '/graphql', withKey(PACT_WRONG_API_KEY))
      .withMutation(String(SecretDeleteDocument))
      .willRespondWith(401, (b) => b.jsonBody({ errors: [{ message: like('Unauthorized') }] }))
      .executeTest(async (mock) => {
        const error = await graphqlClient(mock.url, { apiKey: PACT_WRONG_API_KEY }).secretDelete(SECRET_ID).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AuthenticationError);
      });
  });
});
