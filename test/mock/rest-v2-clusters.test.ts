// REST v2 clusters and account SSH keys in the mock, and their place in the shared, persisted state
// (RESTV2-CLUSTER-*, RESTV2-ACCOUNT-*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GPU, startV2, v2Pod, type V2Mock } from './rest-v2-pod-fixtures.js';

let mock: V2Mock;
beforeAll(async () => {
  mock = await startV2();
});
afterAll(() => mock.close());

const COMPUTE = { gpuTypeId: 'NVIDIA H100 80GB HBM3', gpuCountPerPod: 8, podCount: 3 };
const KEY_A = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAA a@example.com';
const KEY_B = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAB b@example.com';

async function cluster(overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await mock.v2('POST', '/clusters', { name: 'train', type: 'SLURM', image: 'trainer:1', compute: COMPUTE, ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const podIds = async (query = ''): Promise<string[]> => ((await mock.v2('GET', `/pods${query}`)).body.pods as { id: string }[]).map((p) => p.id);

describe('REST v2 clusters', () => {
  it('RESTV2-CLUSTER-001 create, members, get, list, rename, delete with its pods', async () => {
    const created = await cluster();
    expect(created).toMatchObject({ name: 'train', type: 'SLURM', compute: COMPUTE, pods: { total: 3, byStatus: { PROVISIONING: 3 } }, network: { cidr: '10.65.0.0/16', vxlanPort: 4789 } });
    const members = (await mock.v2('GET', `/clusters/${created.id}/pods`)).body.pods;
    expect(members.map((p: any) => p.cluster)).toEqual([
      { id: created.id, rank: 0, role: 'SLURM_CONTROLLER', ip: '10.65.0.2' },
      { id: created.id, rank: 1, role: 'SLURM_COMPUTE', ip: '10.65.0.3' },
      { id: created.id, rank: 2, role: 'SLURM_COMPUTE', ip: '10.65.0.4' },
    ]);
    expect(members[0]).toMatchObject({ image: 'trainer:1', gpu: { id: COMPUTE.gpuTypeId, count: 8 }, actions: ['stop'] });
    expect(new Set(members.map((p: any) => p.dataCenterId))).toEqual(new Set([created.dataCenterId]));
    expect(created.primary).toEqual({ podId: members[0].id, status: 'PROVISIONING' });
    mock.advance(5_000);
    const got = (await mock.v2('GET', `/clusters/${created.id}`)).body;
    expect(got).toMatchObject({ pods: { total: 3, byStatus: { RUNNING: 3 } }, primary: { podId: members[0].id, status: 'RUNNING', sshEndpoint: 'ssh root@100.64.0.10 -p 10341' } });
    expect((await mock.v2('GET', '/clusters')).body.clusters.map((c: any) => c.id)).toContain(created.id);
    expect((await mock.v2('PATCH', `/clusters/${created.id}`, { name: 'renamed' })).body.name).toBe('renamed');
    expect((await mock.v2('PATCH', `/clusters/${created.id}`, {})).status).toBe(422);
    expect((await mock.v2('DELETE', `/clusters/${created.id}`)).status).toBe(204);
    expect((await mock.v2('GET', `/clusters/${created.id}`)).status).toBe(404);
    expect((await mock.v2('GET', `/clusters/${created.id}/pods`)).status).toBe(404);
    for (const member of members) expect((await mock.v2('GET', `/pods/${member.id}`)).status).toBe(404);
  });

  it('RESTV2-CLUSTER-002 members only with includeClusterPods=true; pod endpoints refuse them (409)', async () => {
    const standalone = await v2Pod(mock);
    const created = await cluster({ type: 'TRAINING', compute: { ...COMPUTE, podCount: 2 } });
    const members = (await mock.v2('GET', `/clusters/${created.id}/pods`)).body.pods as any[];
    expect(members[0].cluster.role).toBeUndefined();
    const plain = await podIds();
    expect(plain).toContain(standalone.id);
    expect(plain).not.toContain(members[0].id);
    const all = (await mock.v2('GET', '/pods?includeClusterPods=true')).body.pods as any[];
    expect(all.find((p) => p.id === members[1].id)?.cluster).toMatchObject({ id: created.id, rank: 1 });
    expect((await mock.v2('GET', '/pods?includeClusterPods=maybe')).status).toBe(400);
    mock.advance(5_000);
    for (const [method, path, body] of [['PATCH', `/pods/${members[0].id}`, { name: 'x' }], ['DELETE', `/pods/${members[0].id}`], ['POST', `/pods/${members[0].id}/action`, { action: 'terminate' }]] as const) {
      const res = await mock.v2(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.detail).toContain(created.id);
    }
    const after = (await mock.v2('GET', `/pods/${members[0].id}`)).body;
    expect(after).toMatchObject({ name: members[0].name, status: 'RUNNING', actions: ['stop', 'restart'] });
    expect((await mock.v2('POST', `/pods/${members[0].id}/action`, { action: 'stop' })).status).toBe(200);
  });

  it('RESTV2-CLUSTER-003 no image → 400, unknown network volume → 422, podCount < 2 → 422; nothing stored', async () => {
    const clusters = (await mock.v2('GET', '/clusters')).body.clusters.length;
    const pods = (await podIds('?includeClusterPods=true')).length;
    const noImage = await mock.v2('POST', '/clusters', { name: 'c', type: 'RAY', compute: COMPUTE });
    expect(noImage.status).toBe(400);
    expect(noImage.body.errors).toEqual(['/body/image: image is required: a cluster takes no template, so its pods need an image']);
    const volume = await mock.v2('POST', '/clusters', { name: 'c', type: 'RAY', image: 'i:1', compute: COMPUTE, mounts: { network: [{ volumeId: 'nope', path: '/v' }] } });
    expect(volume.status).toBe(422);
    expect(volume.body.errors[0]).toMatch(/^\/body\/mounts\/network\/0\/volumeId: /);
    expect((await mock.v2('POST', '/clusters', { name: 'c', type: 'RAY', image: 'i:1', compute: { ...COMPUTE, podCount: 1 } })).status).toBe(422);
    expect((await mock.v2('GET', '/clusters')).body.clusters.length).toBe(clusters);
    expect((await podIds('?includeClusterPods=true')).length).toBe(pods);
  });

  it('clusters and SSH keys persist with the store snapshot and go with clear()', async () => {
    const created = await cluster({ name: 'persisted' });
    await mock.v2('PUT', '/account/ssh-keys', { keys: [KEY_A] });
    const store = mock.h.mock.core.store;
    const snapshot = JSON.parse(JSON.stringify(store.snapshot()));
    store.clear();
    expect(store.clusters.size).toBe(0);
    expect((await mock.v2('GET', '/account/ssh-keys')).body.keys).toEqual([]);
    store.restore(snapshot);
    expect((await mock.v2('GET', `/clusters/${created.id}`)).body.pods.total).toBe(3);
    expect((await mock.v2('GET', '/account/ssh-keys')).body.keys).toEqual([KEY_A]);
    await mock.v2('DELETE', `/clusters/${created.id}`);
  });
});

describe('REST v2 account SSH keys', () => {
  it('RESTV2-ACCOUNT-001 PUT replaces the set; bounds and format → 422, set unchanged', async () => {
    expect((await mock.v2('PUT', '/account/ssh-keys', { keys: [KEY_A, KEY_B] })).body).toEqual({ keys: [KEY_A, KEY_B] });
    expect((await mock.v2('PUT', '/account/ssh-keys', { keys: [KEY_B] })).status).toBe(200);
    expect((await mock.v2('GET', '/account/ssh-keys')).body).toEqual({ keys: [KEY_B] });
    const tooMany = await mock.v2('PUT', '/account/ssh-keys', { keys: Array.from({ length: 65 }, (_, i) => `ssh-ed25519 AAAA${i}`) });
    expect(tooMany.status).toBe(422);
    expect((await mock.v2('PUT', '/account/ssh-keys', { keys: ['not a key'] })).status).toBe(422);
    expect((await mock.v2('PUT', '/account/ssh-keys', { keys: [`ssh-ed25519 ${'A'.repeat(16_400)}`] })).status).toBe(422);
    expect((await mock.v2('GET', '/account/ssh-keys')).body).toEqual({ keys: [KEY_B] });
    expect((await mock.v2('PUT', '/account/ssh-keys', { keys: [] })).body).toEqual({ keys: [] });
  });

  it('RESTV2-ACCOUNT-002 startSsh pods get the registered keys as PUBLIC_KEY; earlier pods keep theirs', async () => {
    await mock.v2('PUT', '/account/ssh-keys', { keys: [KEY_A, KEY_B] });
    const pod = await v2Pod(mock, { startSsh: true });
    expect(pod.env).toEqual({ PUBLIC_KEY: `${KEY_A}\n${KEY_B}` });
    const own = await v2Pod(mock, { startSsh: true, env: { PUBLIC_KEY: 'mine' } });
    expect(own.env).toEqual({ PUBLIC_KEY: 'mine' });
    expect((await v2Pod(mock, { gpu: GPU })).env).toEqual({});
    await mock.v2('PUT', '/account/ssh-keys', { keys: [KEY_A] });
    expect((await mock.v2('GET', `/pods/${pod.id}`)).body.env).toEqual({ PUBLIC_KEY: `${KEY_A}\n${KEY_B}` });
    await mock.v2('PUT', '/account/ssh-keys', { keys: [] });
  });
});
