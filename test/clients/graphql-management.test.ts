// The GraphQL client's management calls (the operations the official SDKs send) against the reference
// mock on 127.0.0.1:0: typed answers, the key as ?api_key= or Bearer, local variable checks, errors[].
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLResponseError, ValidationError, createGraphqlClient } from '../../src/clients/index.js';
import { Harness, KEY } from '../mock/harness.js';

let h: Harness;
beforeAll(async () => (h = await Harness.start()));
afterAll(() => h.close());

const client = (auth: 'query' | 'header' = 'query') => createGraphqlClient({ graphqlUrl: h.mock.graphqlUrl, apiKey: KEY, auth, maxRetries: 0 });

describe('GraphQL client: management operations the SDKs send', () => {
  it('deploys, stops, resumes and terminates a GPU pod; myself lists it (Bearer auth)', async () => {
    const gql = client('header');
    const pod = await gql.deployGpuPod({ name: 'client-pod', imageName: 'repo/app:1', gpuTypeId: 'NVIDIA GeForce RTX 4090', gpuCount: 1, ports: '22/tcp', env: [{ key: 'A', value: '1' }] });
    expect(pod).toMatchObject({ name: 'client-pod', imageName: 'repo/app:1', desiredStatus: 'RUNNING', gpuCount: 1, env: ['A=1'], ports: '22/tcp' });
    expect(pod.runtime?.ports).toEqual([expect.objectContaining({ privatePort: 22, type: 'tcp', isIpPublic: true })]);
    expect((await gql.myself()).pods.map((p) => p.id)).toContain(pod.id);
    expect((await gql.podStop(pod.id)).desiredStatus).toBe('EXITED');
    expect((await gql.podResume(pod.id, 1)).desiredStatus).toBe('RUNNING');
    await gql.podTerminate(pod.id);
    expect(await gql.pod(pod.id)).toBeNull();
  });

  it('deploys a CPU pod from an instance id; its RAM is the flavour\'s', async () => {
    const pod = await client().deployCpuPod({ name: 'cpu', imageName: 'repo/cpu:1', instanceId: 'cpu3m-4-32' });
    expect(pod).toMatchObject({ gpuCount: 0, vcpuCount: 4, memoryInGb: 32, machine: { gpuDisplayName: null } });
  });

  it('lists GPU types, one by id with its lowest price for a GPU count', async () => {
    const gql = client();
    expect((await gql.gpuTypes()).length).toBeGreaterThan(10);
    const [one, ...rest] = await gql.gpuTypes({ id: 'NVIDIA GeForce RTX 4090', gpuCount: 8 });
    expect(rest).toEqual([]);
    expect(one).toMatchObject({ id: 'NVIDIA GeForce RTX 4090', displayName: 'RTX 4090', lowestPrice: { uninterruptablePrice: 0.69 } });
  });

  it('saves an endpoint and points it at another template', async () => {
    const gql = client();
    const first = await gql.saveTemplate({ name: 'client-sls-1', imageName: 'w:1', containerDiskInGb: 5, volumeInGb: 0, isServerless: true });
    const second = await gql.saveTemplate({ name: 'client-sls-2', imageName: 'w:2', containerDiskInGb: 5, volumeInGb: 0, isServerless: true });
    const endpoint = await gql.saveEndpoint({ name: 'client-ep', templateId: first.id, gpuIds: 'AMPERE_24', workersMax: 2 });
    expect(endpoint).toMatchObject({ name: 'client-ep', templateId: first.id, gpuIds: 'AMPERE_24', workersMax: 2, version: 0 });
    const changed = await gql.updateEndpointTemplate(endpoint.id, second.id);
    expect(changed).toMatchObject({ id: endpoint.id, templateId: second.id });
    const renamed = await gql.saveEndpoint({ id: endpoint.id, name: 'client-ep-2' });
    expect(renamed).toMatchObject({ id: endpoint.id, name: 'client-ep-2', templateId: second.id });
  });

  it('saves, updates and deletes a registry credential; no answer has a password', async () => {
    const gql = client();
    const saved = await gql.saveRegistryAuth({ name: 'client-registry', username: 'u', password: 'client-pw-1' });
    expect(Object.keys(saved).sort()).toEqual(['id', 'name']);
    const updated = await gql.updateRegistryAuth({ id: saved.id, username: 'u2', password: 'client-pw-2' });
    expect(updated).toEqual({ id: saved.id, name: 'client-registry' });
    await gql.deleteRegistryAuth(saved.id);
    const error = await gql.deleteRegistryAuth(saved.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphQLResponseError);
  });

  it('updateUserSettings replaces the SSH keys myself shows', async () => {
    const gql = client();
    expect(await gql.updateUserSettings('ssh-ed25519 AAAA one\nssh-ed25519 BBBB two')).toMatchObject({ pubKey: 'ssh-ed25519 AAAA one\nssh-ed25519 BBBB two' });
    expect((await gql.myself()).pubKey).toBe('ssh-ed25519 AAAA one\nssh-ed25519 BBBB two');
  });

  it('checks variables locally (a missing gpuTypeId never leaves the client) and maps errors[] to GraphQLResponseError', async () => {
    const gql = client();
    const invalid = await gql.deployGpuPod({ name: 'x' } as never).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    const unknown = await gql.podStop('no-such-pod').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(GraphQLResponseError);
    expect((unknown as GraphQLResponseError).message).toMatch(/no-such-pod/);
  });
});
