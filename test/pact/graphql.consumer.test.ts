// Pact consumer tests of the GraphQL client (pact-js GraphQL interactions): the four template and secret
// mutations, the podTemplate query, a 401, and the pod, endpoint and registry mutations the official SDKs
// send. The key travels as `?api_key=` like the client sends it by default.
import { MatchersV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/clients/index.js';
import {
  DeleteRegistryAuthDocument,
  DeleteTemplateDocument,
  DeployCpuPodDocument,
  GetPodTemplateDocument,
  PodFindAndDeployOnDemandDocument,
  PodResumeDocument,
  PodStopDocument,
  PodTerminateDocument,
  SaveEndpointDocument,
  SaveRegistryAuthDocument,
  UpdateEndpointTemplateDocument,
  UpdateRegistryAuthDocument,
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
const POD_ID = 'pactpod000001';
const ENDPOINT_ID = 'pactendpoint01';
const AUTH_ID = 'pactregistry01';
/** What every caller of a pod mutation may rely on: the non-null Pod fields and the asked-for state. */
const pod = (desiredStatus: 'RUNNING' | 'EXITED', extra: Record<string, unknown> = {}) => ({
  id: like(POD_ID), desiredStatus, gpuCount: integer(0), env: [], name: like(NAMES.gqlPod), imageName: like('pact/worker:1.0'),
  memoryInGb: like(4), ...extra,
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

  it('podFindAndDeployOnDemand deploys a GPU pod', async () => {
    const input = { name: NAMES.gqlPod, imageName: 'pact/worker:1.0', gpuTypeId: 'NVIDIA GeForce RTX 4090', gpuCount: 1, cloudType: 'SECURE' as const, env: [{ key: 'A', value: '1' }] };
    await pact
      .addGraphQLInteraction()
      .given(STATES.gqlPodNameFree)
      .uponReceiving('a podFindAndDeployOnDemand mutation')
      .withOperation('PodFindAndDeployOnDemand')
      .withVariables({ input })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(PodFindAndDeployOnDemandDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { podFindAndDeployOnDemand: pod('RUNNING', { gpuCount: 1, env: ['A=1'], machine: { podHostId: like(`${POD_ID}-64411eb2`) } }) } }))
      .executeTest(async (mock) => {
        const deployed = await graphqlClient(mock.url).deployGpuPod(input);
        expect(deployed).toMatchObject({ id: POD_ID, desiredStatus: 'RUNNING', gpuCount: 1, env: ['A=1'] });
      });
  });

  it('deployCpuPod deploys a CPU pod', async () => {
    const input = { name: NAMES.gqlPod, imageName: 'pact/worker:1.0', instanceId: 'cpu3c-2-4' };
    await pact
      .addGraphQLInteraction()
      .given(STATES.gqlPodNameFree)
      .uponReceiving('a deployCpuPod mutation')
      .withOperation('DeployCpuPod')
      .withVariables({ input })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(DeployCpuPodDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { deployCpuPod: pod('RUNNING', { vcpuCount: like(2) }) } }))
      .executeTest(async (mock) => {
        expect(await graphqlClient(mock.url).deployCpuPod(input)).toMatchObject({ id: POD_ID, gpuCount: 0, memoryInGb: 4 });
      });
  });

  it('podStop stops a running pod', async () => {
    await pact
      .addGraphQLInteraction()
      .given(STATES.gqlRunningPod)
      .uponReceiving('a podStop mutation')
      .withOperation('PodStop')
      .withVariables({ input: { podId: fromProviderState('${podId}', POD_ID) } })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(PodStopDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { podStop: pod('EXITED') } }))
      .executeTest(async (mock) => {
        expect((await graphqlClient(mock.url).podStop(POD_ID)).desiredStatus).toBe('EXITED');
      });
  });

  it('podResume starts a stopped pod', async () => {
    await pact
      .addGraphQLInteraction()
      .given(STATES.gqlStoppedPod)
      .uponReceiving('a podResume mutation')
      .withOperation('PodResume')
      .withVariables({ input: { podId: fromProviderState('${podId}', POD_ID), gpuCount: 0 } })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(PodResumeDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { podResume: pod('RUNNING') } }))
      .executeTest(async (mock) => {
        expect((await graphqlClient(mock.url).podResume(POD_ID, 0)).desiredStatus).toBe('RUNNING');
      });
  });

  it('podTerminate terminates a pod', async () => {
    await pact
      .addGraphQLInteraction()
      .given(STATES.gqlRunningPod)
      .uponReceiving('a podTerminate mutation')
      .withOperation('PodTerminate')
      .withVariables({ input: { podId: fromProviderState('${podId}', POD_ID) } })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(PodTerminateDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { podTerminate: null } }))
      .executeTest(async (mock) => {
        await expect(graphqlClient(mock.url).podTerminate(POD_ID)).resolves.toBeUndefined();
      });
  });

  it('saveEndpoint creates a serverless endpoint', async () => {
    const input = { name: NAMES.endpoint, templateId: fromProviderState('${templateId}', TEMPLATE_ID), gpuIds: 'AMPERE_16', workersMin: 0, workersMax: 1 };
    await pact
      .addGraphQLInteraction()
      .given(STATES.templateExists)
      .uponReceiving('a saveEndpoint mutation creating an endpoint')
      .withOperation('SaveEndpoint')
      .withVariables({ input })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(SaveEndpointDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { saveEndpoint: { id: like(ENDPOINT_ID), name: NAMES.endpoint, templateId: like(TEMPLATE_ID), gpuIds: 'AMPERE_16', workersMax: 1, env: [] } } }))
      .executeTest(async (mock) => {
        const saved = await graphqlClient(mock.url).saveEndpoint({ ...input, templateId: TEMPLATE_ID });
        expect(saved).toMatchObject({ id: ENDPOINT_ID, templateId: TEMPLATE_ID, gpuIds: 'AMPERE_16' });
      });
  });

  it('updateEndpointTemplate points an endpoint at another template', async () => {
    const variables = { input: { endpointId: fromProviderState('${endpointId}', ENDPOINT_ID), templateId: fromProviderState('${templateId}', TEMPLATE_ID) } };
    await pact
      .addGraphQLInteraction()
      .given(STATES.gqlEndpointAndSecondTemplate)
      .uponReceiving('an updateEndpointTemplate mutation')
      .withOperation('UpdateEndpointTemplate')
      .withVariables(variables)
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(UpdateEndpointTemplateDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { updateEndpointTemplate: { id: like(ENDPOINT_ID), templateId: like(TEMPLATE_ID), env: [] } } }))
      .executeTest(async (mock) => {
        expect(await graphqlClient(mock.url).updateEndpointTemplate(ENDPOINT_ID, TEMPLATE_ID)).toMatchObject({ id: ENDPOINT_ID, templateId: TEMPLATE_ID });
      });
  });

  it('saveRegistryAuth saves a credential; the password is never returned', async () => {
    const input = { name: NAMES.registryAuth, username: 'pact-user', password: 'pact-password' };
    await pact
      .addGraphQLInteraction()
      .given(STATES.registryAuthNameFree)
      .uponReceiving('a saveRegistryAuth mutation')
      .withOperation('SaveRegistryAuth')
      .withVariables({ input })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(SaveRegistryAuthDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { saveRegistryAuth: { id: like(AUTH_ID), name: NAMES.registryAuth } } }))
      .executeTest(async (mock) => {
        const saved = await graphqlClient(mock.url).saveRegistryAuth(input);
        expect(saved).toEqual({ id: AUTH_ID, name: NAMES.registryAuth });
      });
  });

  it('updateRegistryAuth replaces username and password', async () => {
    const input = { id: fromProviderState('${containerRegistryAuthId}', AUTH_ID), username: 'pact-user-2', password: 'pact-password-2' };
    await pact
      .addGraphQLInteraction()
      .given(STATES.registryAuthExists)
      .uponReceiving('an updateRegistryAuth mutation')
      .withOperation('UpdateRegistryAuth')
      .withVariables({ input })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(UpdateRegistryAuthDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { updateRegistryAuth: { id: like(AUTH_ID), name: NAMES.registryAuth } } }))
      .executeTest(async (mock) => {
        const updated = await graphqlClient(mock.url).updateRegistryAuth({ id: AUTH_ID, username: 'pact-user-2', password: 'pact-password-2' });
        expect(updated).toEqual({ id: AUTH_ID, name: NAMES.registryAuth });
      });
  });

  it('deleteRegistryAuth deletes a credential', async () => {
    await pact
      .addGraphQLInteraction()
      .given(STATES.registryAuthExists)
      .uponReceiving('a deleteRegistryAuth mutation')
      .withOperation('DeleteRegistryAuth')
      .withVariables({ registryAuthId: fromProviderState('${containerRegistryAuthId}', AUTH_ID) })
      .withRequest('POST', '/graphql', withKey())
      .withMutation(String(DeleteRegistryAuthDocument))
      .willRespondWith(200, (b) => b.jsonBody({ data: { deleteRegistryAuth: null } }))
      .executeTest(async (mock) => {
        await expect(graphqlClient(mock.url).deleteRegistryAuth(AUTH_ID)).resolves.toBeUndefined();
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
