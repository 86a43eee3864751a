// GQL-SDK-INPUT-001: bad input to every GraphQL operation the official SDKs send gets the real API's error
// shape — HTTP 200, errors[0].message naming the problem — never a crash, and stores nothing. Wrong
// types, missing arguments, unknown ids, values beyond the bounds the SDL descriptions state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeAll(async () => (h = await Harness.start()));
afterAll(() => h.close());

const LONG = 'x'.repeat(300);
const HUGE = 'y'.repeat(70_000);

/** Sizes of every resource map: a refused operation must leave them all unchanged. */
function counts(): number[] {
  const s = h.mock.core.store;
  return [s.pods.size, s.endpoints.size, s.templates.size, s.registryAuths.size, s.networkVolumes.size, s.sshKeys.length];
}

async function refused(query: string, variables?: Record<string, unknown>): Promise<string> {
  const before = counts();
  const res = await h.graphql(query, variables);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Array.isArray(res.body.errors) && res.body.errors.length > 0, JSON.stringify(res.body)).toBe(true);
  const message = res.body.errors[0].message as string;
  expect(typeof message === 'string' && message.length > 0).toBe(true);
  expect(counts()).toEqual(before);
  return message;
}

const GPU = 'NVIDIA GeForce RTX 4090';
const deployGpu = (fields: string) => `mutation { podFindAndDeployOnDemand(input: { ${fields} }) { id } }`;
const deployCpu = (fields: string) => `mutation { deployCpuPod(input: { ${fields} }) { id } }`;

describe('GQL-SDK-INPUT-001 bad input to the SDK operations', () => {
  it('wrong argument types are refused by validation (String for Int, Int for String, enum as a string)', async () => {
    expect(await refused(deployGpu(`name: "p", imageName: "i", gpuTypeId: "${GPU}", gpuCount: "two"`))).toMatch(/Int/);
    expect(await refused(deployCpu('name: 5, imageName: "i"'))).toMatch(/String/);
    expect(await refused(deployGpu(`name: "p", imageName: "i", gpuTypeId: "${GPU}", cloudType: "ALL"`))).toMatch(/CloudType/);
    expect(await refused('mutation { podResume(input: {podId: "p", gpuCount: 1.5}) { id } }')).toMatch(/Int/);
    expect(await refused('mutation { saveEndpoint(input: {name: "e", templateId: "t", workersMax: "3"}) { id } }')).toMatch(/Int/);
    expect(await refused('{ gpuTypes(input: {id: 4090}) { id } }')).toMatch(/String/);
    expect(await refused('mutation M($i: SaveRegistryAuthInput!) { saveRegistryAuth(input: $i) { id } }', { i: { name: 'r', username: 'u', password: 7 } })).toMatch(/String/);
  });

  it('missing required arguments and fields are refused', async () => {
    expect(await refused(deployGpu('name: "p", imageName: "i"'))).toMatch(/gpuTypeId/);
    expect(await refused('mutation { podStop { id } }')).toMatch(/input/);
    expect(await refused('mutation { podResume(input: {podId: "p"}) { id } }')).toMatch(/gpuCount/);
    expect(await refused('mutation { podTerminate(input: {}) }')).toMatch(/podId/);
    expect(await refused('{ pod { id } }')).toMatch(/input/);
    expect(await refused('mutation { updateEndpointTemplate(input: {endpointId: "e"}) { id } }')).toMatch(/templateId/);
    expect(await refused('mutation { saveRegistryAuth(input: {name: "r", username: "u"}) { id } }')).toMatch(/password/);
    expect(await refused('mutation { updateRegistryAuth(input: {id: "r", password: "p"}) { id } }')).toMatch(/username/);
    expect(await refused('mutation { deleteRegistryAuth }')).toMatch(/registryAuthId/);
    expect(await refused('mutation { updateUserSettings { id } }')).toMatch(/input/);
    expect(await refused('mutation { saveEndpoint(input: {name: "no template"}) { id } }')).toMatch(/input\.templateId/);
    expect(await refused(deployCpu('name: "p"'))).toMatch(/input\.imageName/);
  });

  it('unknown ids are refused, naming the id', async () => {
    expect(await refused('mutation { podStop(input: {podId: "nope"}) { id } }')).toMatch(/nope/);
    expect(await refused('mutation { podResume(input: {podId: "nope", gpuCount: 1}) { id } }')).toMatch(/nope/);
    expect(await refused('mutation { podTerminate(input: {podId: "nope"}) }')).toMatch(/nope/);
    expect(await refused(deployGpu(`name: "p", imageName: "", templateId: "nope", gpuTypeId: "${GPU}"`))).toMatch(/template nope/);
    expect(await refused(deployGpu(`name: "p", imageName: "i", networkVolumeId: "nope", gpuTypeId: "${GPU}"`))).toMatch(/network volume nope/);
    expect(await refused(deployGpu('name: "p", imageName: "i", gpuTypeId: "NVIDIA Imaginary"'))).toMatch(/input\.gpuTypeId/);
    expect(await refused(deployGpu(`name: "p", imageName: "i", gpuTypeId: "${GPU}", dataCenterId: "XX-NOPE-1"`))).toMatch(/input\.dataCenterId/);
    expect(await refused(deployCpu('name: "p", imageName: "i", instanceId: "cpu9z-2-4"'))).toMatch(/cpu9z/);
    expect(await refused('mutation { saveEndpoint(input: {name: "e", templateId: "nope"}) { id } }')).toMatch(/nope/);
    expect(await refused('mutation { saveEndpoint(input: {id: "nope", name: "e"}) { id } }')).toMatch(/nope/);
    expect(await refused('mutation { updateEndpointTemplate(input: {endpointId: "nope", templateId: "t"}) { id } }')).toMatch(/nope/);
    expect(await refused('mutation { updateRegistryAuth(input: {id: "nope", username: "u", password: "p4ss"}) { id } }')).toMatch(/nope/);
    expect(await refused('mutation { deleteRegistryAuth(registryAuthId: "nope") }')).toMatch(/nope/);
  });

  it('values beyond the bounds the SDL descriptions state are refused, naming the field', async () => {
    expect(await refused(deployGpu(`name: "${LONG}", imageName: "i", gpuTypeId: "${GPU}"`))).toMatch(/input\.name must be at most 191 characters/);
    expect(await refused(deployGpu(`name: "p", imageName: "i", gpuTypeId: "${GPU}", gpuCount: 9`))).toMatch(/input\.gpuCount must be <= 8/);
    expect(await refused(deployGpu(`name: "p", imageName: "i", gpuTypeId: "${GPU}", containerDiskInGb: 0`))).toMatch(/input\.containerDiskInGb must be >= 1/);
    expect(await refused(deployGpu(`name: "p", imageName: "i", gpuTypeId: "${GPU}", dockerArgs: "${HUGE}"`))).toMatch(/input\.dockerArgs/);
    expect(await refused(deployCpu(`name: "p", imageName: "i", env: [{key: "${'k'.repeat(256)}", value: "v"}]`))).toMatch(/input\.env\[0\]\.key must be at most 255 characters/);
    const ports = Array.from({ length: 65 }, (_, i) => `${8000 + i}/http`).join(',');
    expect(await refused(deployCpu(`name: "p", imageName: "i", ports: "${ports}"`))).toMatch(/input\.ports must have at most 64 entries/);
    expect(await refused(`mutation { podStop(input: {podId: "${LONG}"}) { id } }`)).toMatch(/input\.podId must be at most 128 characters/);
    expect(await refused('mutation { podStop(input: {podId: ""}) { id } }')).toMatch(/input\.podId must be at least 1 characters/);
    expect(await refused('mutation { saveEndpoint(input: {name: "e", templateId: "t", workersMax: 101}) { id } }')).toMatch(/input\.workersMax must be <= 100/);
    expect(await refused(`mutation { saveRegistryAuth(input: {name: "${LONG}", username: "u", password: "p4ss"}) { id } }`)).toMatch(/input\.name/);
    expect(await refused(`mutation { updateUserSettings(input: {pubKey: "${'k'.repeat(16_385)}"}) { id } }`)).toMatch(/input\.pubKey must be at most 16384 characters/);
    expect(await refused(`{ gpuTypes(input: {id: "${LONG}"}) { id } }`)).toMatch(/input\.id must be at most 128 characters/);
    expect(await refused(`{ gpuTypes { lowestPrice(input: {gpuCount: 0}) { uninterruptablePrice } } }`)).toMatch(/gpuCount must be >= 1/);
  });

  it('values the catalog or the rules refuse get a message naming the field', async () => {
    expect(await refused(deployCpu('name: "p", imageName: "i", instanceId: "cpu3c-2-5"'))).toMatch(/4 GB/);
    expect(await refused(deployCpu('name: "p", imageName: "i", instanceId: "cpu3c-two"'))).toMatch(/input\.instanceId/);
    expect(await refused(deployCpu('name: "p", imageName: "i", cloudType: COMMUNITY'))).toMatch(/secure cloud/);
    expect(await refused(deployGpu('name: "p", imageName: "i", gpuTypeId: "NVIDIA L4", cloudType: COMMUNITY'))).toMatch(/COMMUNITY/);
    expect(await refused('mutation { updateUserSettings(input: {pubKey: "ssh-ed25519 AAAA ok\\nnot a key"}) { id } }')).toMatch(/input\.pubKey: key 2/);
    expect(await refused(deployGpu(`name: "p", imageName: "i", gpuTypeId: "${GPU}", allowedCudaVersions: ["9.0"]`))).toMatch(/input\.allowedCudaVersions/);
    expect(await refused('mutation { saveEndpoint(input: {name: "e", templateId: "t", gpuIds: "AMPERE_1000"}) { id } }')).toMatch(/AMPERE_1000/);
    expect(await refused('mutation { saveEndpoint(input: {name: "e", templateId: "t", scalerType: "FAST"}) { id } }')).toMatch(/scalerType/);
    expect(await refused('mutation { saveEndpoint(input: {name: "e", templateId: "t", locations: "NOWHERE-1"}) { id } }')).toMatch(/NOWHERE-1/);
  });

  it('a registry password in a refused request is never echoed', async () => {
    const password = 'bad-input-password-1234';
    const message = await refused(`mutation { saveRegistryAuth(input: {name: "r", username: 1, password: "${password}"}) { id } }`);
    expect(message).not.toContain(password);
    const answer = await h.graphql('mutation M($i: UpdateRegistryAuthInput!) { updateRegistryAuth(input: $i) { id } }', { i: { id: 'nope', username: 'u', password } });
    expect(JSON.stringify(answer.body)).not.toContain(password);
  });

  it('a body that is not a GraphQL request, or a huge one, is still a clean answer', async () => {
    const res = await h.request('POST', h.mock.graphqlUrl, { rawBody: '{"query": 5}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(typeof res.body.errors[0].message).toBe('string');
    const big = await h.graphql(deployCpu(`name: "p", imageName: "${'i'.repeat(600_000)}"`));
    expect(big.status).toBe(200);
    expect(big.body.errors[0].message).toMatch(/input\.imageName must be at most 1024 characters/);
  });
});
