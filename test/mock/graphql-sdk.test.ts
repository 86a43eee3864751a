// The GraphQL operations the official SDKs send, over the one store every surface shares: what GraphQL
// creates is what REST v1 and REST v2 show, and the other way round; the same rules hold whichever
// surface acts; a registry password goes in and never comes out.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

const POD = 'id name imageName desiredStatus gpuCount vcpuCount memoryInGb env ports volumeInGb volumeMountPath machine { gpuDisplayName podHostId } runtime { ports { ip isIpPublic privatePort publicPort type } }';
const v2 = (method: string, path: string, body?: unknown) => h.request(method, `${h.mock.url}/v2${path}`, { body });

async function ok(query: string, field: string): Promise<any> {
  const res = await h.graphql(query);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data[field];
}

describe('GQL-SDK-004 GQL-SDK-005 pods deployed through GraphQL are the pods of every surface', () => {
  it('a GPU pod: REST v1 and REST v2 show the same id, image, GPU, RAM, ports and data centre', async () => {
    const pod = await ok(`mutation { podFindAndDeployOnDemand(input: { name: "g", imageName: "repo/app:1", gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCount: 2, cloudType: SECURE, ports: "8888/http,22/tcp", minMemoryInGb: 100, volumeInGb: 30, volumeMountPath: "/data", env: [{key: "K", value: "V"}] }) { ${POD} } }`, 'podFindAndDeployOnDemand');
    expect(pod).toMatchObject({ gpuCount: 2, memoryInGb: 100, volumeInGb: 30, volumeMountPath: '/data', env: ['K=V'], machine: { gpuDisplayName: 'RTX 4090' } });
    expect(pod.runtime.ports).toEqual([
      { ip: null, isIpPublic: false, privatePort: 8888, publicPort: null, type: 'http' },
      { ip: '100.64.0.10', isIpPublic: true, privatePort: 22, publicPort: 10341, type: 'tcp' },
    ]);
    const v1 = (await h.rest('GET', `/pods/${pod.id}`)).body;
    expect(v1).toMatchObject({ id: pod.id, image: 'repo/app:1', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 2 }, memoryInGb: 100, volumeInGb: 30, env: { K: 'V' }, ports: ['8888/http', '22/tcp'] });
    const view = (await v2('GET', `/pods/${pod.id}`)).body;
    expect(view).toMatchObject({ id: pod.id, image: 'repo/app:1', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 2 }, cloud: 'SECURE', mounts: { persistent: { size: 30, path: '/data' } } });
    expect(typeof view.dataCenterId).toBe('string');
  });

  it('a CPU pod from RunPod\'s public runpod-ubuntu template (what the SDK sends by default) names it on every surface', async () => {
    const pod = await ok('mutation { deployCpuPod(input: { name: "c", imageName: "", cloudType: ALL, templateId: "runpod-ubuntu", instanceId: "cpu5m-4-32" }) { id imageName gpuCount vcpuCount memoryInGb } }', 'deployCpuPod');
    expect(pod).toMatchObject({ imageName: 'runpod/base:0.6.2-cpu', gpuCount: 0, vcpuCount: 4, memoryInGb: 32 });
    expect((await h.rest('GET', `/pods/${pod.id}`)).body).toMatchObject({ templateId: 'runpod-ubuntu', cpuFlavorId: 'cpu5m', memoryInGb: 32, vcpuCount: 4 });
    expect((await v2('GET', `/pods/${pod.id}`)).body).toMatchObject({ template: 'runpod-ubuntu', cpu: { id: 'cpu5m', vcpuCount: 4, memory: 32 } });
  });

  it('a network volume places the pod in its data centre; a dataCenterId elsewhere is refused', async () => {
    const volume = (await h.rest('POST', '/networkvolumes', { name: 'v', size: 10, dataCenterId: 'EU-RO-1' })).body;
    const pod = await ok(`mutation { podFindAndDeployOnDemand(input: { name: "v", imageName: "i:1", gpuTypeId: "NVIDIA GeForce RTX 4090", networkVolumeId: "${volume.id}" }) { id volumeInGb volumeMountPath } }`, 'podFindAndDeployOnDemand');
    expect(pod).toMatchObject({ volumeInGb: 0, volumeMountPath: '/runpod-volume' });
    expect((await v2('GET', `/pods/${pod.id}`)).body).toMatchObject({ dataCenterId: 'EU-RO-1', mounts: { network: [{ volumeId: volume.id, path: '/runpod-volume' }] } });
    const refused = await h.graphql(`mutation { podFindAndDeployOnDemand(input: { name: "v", imageName: "i:1", gpuTypeId: "NVIDIA GeForce RTX 4090", networkVolumeId: "${volume.id}", dataCenterId: "US-GA-1" }) { id } }`);
    expect(refused.body.errors[0].message).toMatch(/input\.dataCenterId/);
  });

  it('pods created through REST v1 and REST v2 are listed by myself and managed by podStop / podResume / podTerminate', async () => {
    const v1 = (await h.rest('POST', '/pods', { name: 'one', imageName: 'i:1', gpuCount: 1 })).body;
    const two = (await v2('POST', '/pods', { name: 'two', image: 'i:2', cpu: { id: 'cpu3c', vcpuCount: 2 } })).body;
    const listed = await ok('query myPods { myself { pods { id name } } }', 'myself');
    expect(listed.pods.map((p: { id: string }) => p.id).sort()).toEqual([v1.id, two.id].sort());
    expect((await ok(`mutation { podStop(input: { podId: "${v1.id}" }) { desiredStatus } }`, 'podStop')).desiredStatus).toBe('EXITED');
    expect((await h.rest('GET', `/pods/${v1.id}`)).body.desiredStatus).toBe('EXITED');
    expect((await ok(`mutation { podStop(input: { podId: "${v1.id}" }) { desiredStatus } }`, 'podStop')).desiredStatus).toBe('EXITED');
    const resumed = await ok(`mutation { podResume(input: { podId: "${v1.id}", gpuCount: 2 }) { desiredStatus gpuCount } }`, 'podResume');
    expect(resumed).toEqual({ desiredStatus: 'RUNNING', gpuCount: 2 });
    expect((await h.rest('GET', `/pods/${v1.id}`)).body).toMatchObject({ desiredStatus: 'RUNNING', gpu: { count: 2 } });
    expect(await ok(`mutation { podTerminate(input: { podId: "${two.id}" }) }`, 'podTerminate')).toBeNull();
    expect((await v2('GET', `/pods/${two.id}`)).status).toBe(404);
  });

  it('the rules REST v2 enforces hold through GraphQL too: a locked pod is not terminated, a resume beyond the GPU type\'s count is refused', async () => {
    const pod = (await v2('POST', '/pods', { name: 'locked', image: 'i:1', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 1 } })).body;
    expect((await v2('PATCH', `/pods/${pod.id}`, { locked: true })).status).toBe(200);
    const refused = await h.graphql(`mutation { podTerminate(input: { podId: "${pod.id}" }) }`);
    expect(refused.body.errors[0].message).toMatch(/locked/);
    expect((await v2('GET', `/pods/${pod.id}`)).status).toBe(200);
    await ok(`mutation { podStop(input: { podId: "${pod.id}" }) { id } }`, 'podStop');
    const tooMany = await h.graphql(`mutation { podResume(input: { podId: "${pod.id}", gpuCount: 0 }) { id } }`);
    expect(tooMany.body.errors[0].message).toMatch(/input\.gpuCount/);
  });

  it('pod(input: {podId}) reads any pod, null for an unknown id', async () => {
    const created = (await h.rest('POST', '/pods', { name: 'r', imageName: 'i:1' })).body;
    expect(await ok(`query pod { pod(input: {podId: "${created.id}"}) { id name imageName } }`, 'pod')).toEqual({ id: created.id, name: 'r', imageName: 'i:1' });
    expect(await ok('query pod { pod(input: {podId: "nope"}) { id } }', 'pod')).toBeNull();
  });
});

describe('GQL-SDK-006 a template a GraphQL pod uses is guarded on every surface', () => {
  it('REST v1 and GraphQL deleteTemplate are refused while the pod exists, allowed once it is gone', async () => {
    const template = await ok('mutation { saveTemplate(input: { name: "guarded", imageName: "t:1", dockerArgs: "python app.py", containerDiskInGb: 5, volumeInGb: 0, ports: "22/tcp", env: [{key: "T", value: "1"}] }) { id } }', 'saveTemplate');
    const pod = await ok(`mutation { deployCpuPod(input: { name: "p", imageName: "", templateId: "${template.id}", dockerArgs: "", env: [{key: "P", value: "2"}] }) { id imageName env ports } }`, 'deployCpuPod');
    expect(pod).toMatchObject({ imageName: 't:1', env: ['T=1', 'P=2'], ports: '22/tcp' });
    expect((await h.rest('GET', `/pods/${pod.id}`)).body).toMatchObject({ templateId: template.id, dockerStartCmd: ['python', 'app.py'] });
    expect((await h.rest('DELETE', `/templates/${template.id}`)).status).toBe(400);
    expect((await h.graphql('mutation { deleteTemplate(templateName: "guarded") }')).body.errors[0].message).toMatch(/in use/);
    await ok(`mutation { podTerminate(input: { podId: "${pod.id}" }) }`, 'podTerminate');
    await h.advance(120_000);
    expect((await h.rest('DELETE', `/templates/${template.id}`)).status).toBe(204);
  });
});

describe('GQL-SDK-001 GQL-SDK-002 the account', () => {
  it('updateUserSettings and REST v2 account/ssh-keys are one key set; startSsh pods get it as PUBLIC_KEY', async () => {
    const settings = await ok('mutation { updateUserSettings(input: { pubKey: "ssh-ed25519 AAAA one\\nssh-ed25519 BBBB two\\n" }) { id pubKey } }', 'updateUserSettings');
    expect(settings.pubKey).toBe('ssh-ed25519 AAAA one\nssh-ed25519 BBBB two');
    expect((await v2('GET', '/account/ssh-keys')).body.keys).toEqual(['ssh-ed25519 AAAA one', 'ssh-ed25519 BBBB two']);
    await v2('PUT', '/account/ssh-keys', { keys: ['ssh-ed25519 CCCC three'] });
    expect((await ok('query myself { myself { pubKey } }', 'myself')).pubKey).toBe('ssh-ed25519 CCCC three');
    const pod = await ok('mutation { deployCpuPod(input: { name: "s", imageName: "i:1", startSsh: true }) { env } }', 'deployCpuPod');
    expect(pod.env).toContain('PUBLIC_KEY=ssh-ed25519 CCCC three');
    expect((await ok('mutation { updateUserSettings(input: { pubKey: "" }) { pubKey } }', 'updateUserSettings')).pubKey).toBeNull();
  });

  it('myself lists the network volumes and endpoints of REST v1', async () => {
    const volume = (await h.rest('POST', '/networkvolumes', { name: 'vol', size: 25, dataCenterId: 'EU-SE-1' })).body;
    const endpointId = await h.endpoint();
    const me = await ok('query myself { myself { id networkVolumes { id name size dataCenterId } endpoints { id gpuIds flashBootType env { key value } networkVolume { id } } } }', 'myself');
    expect(me.networkVolumes).toEqual([{ id: volume.id, name: 'vol', size: 25, dataCenterId: 'EU-SE-1' }]);
    expect(me.endpoints).toEqual([expect.objectContaining({ id: endpointId, flashBootType: 'OFF', env: [], networkVolume: null })]);
  });
});

describe('GQL-SDK-003 gpuTypes', () => {
  it('lists the REST v2 catalog; one id filters; lowestPrice is the cheaper cloud able to take that many GPUs', async () => {
    const catalog = (await v2('GET', '/catalog/gpus')).body.gpus as { id: string }[];
    const all = await ok('{ gpuTypes { id } }', 'gpuTypes');
    expect(all.map((g: { id: string }) => g.id).sort()).toEqual(catalog.map((g) => g.id).sort());
    const one = (n: number) => ok(`{ gpuTypes(input: {id: "NVIDIA GeForce RTX 4090"}) { id securePrice communityPrice lowestPrice(input: {gpuCount: ${n}}) { minimumBidPrice uninterruptablePrice } } }`, 'gpuTypes');
    // Community cloud takes at most 4 per pod: 8 GPUs only in secure cloud.
    expect((await one(2))[0]).toMatchObject({ securePrice: 0.69, communityPrice: 0.34, lowestPrice: { minimumBidPrice: null, uninterruptablePrice: 0.34 } });
    expect((await one(8))[0].lowestPrice.uninterruptablePrice).toBe(0.69);
    expect(await ok('{ gpuTypes(input: {id: "nope"}) { id } }', 'gpuTypes')).toEqual([]);
  });
});

describe('GQL-SDK-007 endpoints', () => {
  it('saveEndpoint creates and changes an endpoint REST v1 and REST v2 show; refused changes store nothing', async () => {
    const first = await h.template();
    const endpoint = await ok(`mutation { saveEndpoint(input: { name: "e", templateId: "${first}", gpuIds: "AMPERE_24,-NVIDIA L4", locations: "EU-RO-1,US-TX-3", idleTimeout: 9, scalerType: "REQUEST_COUNT", scalerValue: 2, workersMin: 0, workersMax: 2, flashBootType: FLASHBOOT, allowedCudaVersions: "12.4,12.6", gpuCount: 2 }) { id gpuIds locations flashBootType allowedCudaVersions version } }`, 'saveEndpoint');
    expect(endpoint).toMatchObject({ gpuIds: 'AMPERE_24,-NVIDIA L4', locations: 'EU-RO-1,US-TX-3', flashBootType: 'FLASHBOOT', allowedCudaVersions: '12.4,12.6', version: 0 });
    const v1 = (await h.rest('GET', `/endpoints/${endpoint.id}`)).body;
    expect(v1).toMatchObject({ templateId: first, idleTimeout: 9, scalerType: 'REQUEST_COUNT', scalerValue: 2, workersMax: 2, gpuCount: 2, dataCenterIds: ['EU-RO-1', 'US-TX-3'] });
    expect(v1.gpuTypeIds).not.toContain('NVIDIA L4');
    expect((await v2('GET', `/serverless/${endpoint.id}`)).body).toMatchObject({ id: endpoint.id, flashboot: 'FLASHBOOT' });
    const refused = await h.graphql(`mutation { saveEndpoint(input: { id: "${endpoint.id}", workersMin: 5 }) { id } }`);
    expect(refused.body.errors[0].message).toMatch(/workersMin/);
    expect((await h.rest('GET', `/endpoints/${endpoint.id}`)).body.workersMin).toBe(0);
    const second = await h.template();
    const moved = await ok(`mutation { updateEndpointTemplate(input: { templateId: "${second}", endpointId: "${endpoint.id}" }) { id templateId version } }`, 'updateEndpointTemplate');
    expect(moved).toEqual({ id: endpoint.id, templateId: second, version: 1 });
  });

  it('endpoints created through GraphQL take jobs on queue v2', async () => {
    const template = await h.template();
    const endpoint = await ok(`mutation { saveEndpoint(input: { name: "jobs", templateId: "${template}", workersMax: 1 }) { id } }`, 'saveEndpoint');
    expect((await h.queue(endpoint.id, 'POST', '/run', { input: { mock: { durationMs: 0 } } })).status).toBe(200);
  });
});

describe('GQL-SDK-008 registry credentials: the password goes in, never out', () => {
  it('saveRegistryAuth / updateRegistryAuth: REST v1 and REST v2 show {id, name} only; the store holds the newest password', async () => {
    const first = 'gql-registry-password-1';
    const second = 'gql-registry-password-2';
    const saved = await ok(`mutation SaveRegistryAuth { saveRegistryAuth(input: {name: "reg", username: "u", password: "${first}"}) { id name } }`, 'saveRegistryAuth');
    const updated = await ok(`mutation UpdateRegistryAuth { updateRegistryAuth(input: {id: "${saved.id}", username: "u2", password: "${second}"}) { id name } }`, 'updateRegistryAuth');
    expect(updated).toEqual({ id: saved.id, name: 'reg' });
    expect(h.mock.core.store.registryAuths.get(saved.id)).toMatchObject({ username: 'u2', password: second });
    const answers = [
      await h.rest('GET', `/containerregistryauth/${saved.id}`),
      await h.rest('GET', '/containerregistryauth'),
      await v2('GET', `/registries/${saved.id}`),
      await v2('GET', '/registries'),
      await h.graphql(`mutation { saveRegistryAuth(input: {name: "reg", username: "u", password: "${second}"}) { id } }`),
    ];
    expect(answers[0]!.body).toMatchObject({ id: saved.id, name: 'reg' });
    expect(answers[4]!.body.errors[0].message).toMatch(/already exists/);
    for (const answer of answers) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain(first);
      expect(text).not.toContain(second);
    }
    expect(await ok(`mutation { deleteRegistryAuth(registryAuthId: "${saved.id}") }`, 'deleteRegistryAuth')).toBeNull();
    expect((await h.rest('GET', `/containerregistryauth/${saved.id}`)).status).toBe(404);
  });
});
