// REST v2 network volumes, registry credentials and ECR delegations over the shared store.
// Rules RESTV2-VOLUME-*, RESTV2-REGISTRY-*, RESTV2-DELEGATION-*.
import { afterEach, describe, expect, it } from 'vitest';
import { V2Harness } from './rest-v2-resource-harness.js';

let t: V2Harness | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const start = async () => (t = await V2Harness.start());

describe('RESTV2-VOLUME-001 network volume round trip and one state with REST v1', () => {
  it('creates (201) with the data centre\'s primary tier, reads, lists, grows, deletes (204, then 404)', async () => {
    const h = await start();
    const created = await h.v2('POST', '/network-volumes', { name: 'data', size: 20, dataCenter: 'EU-RO-1' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'data', size: 20, dataCenter: 'EU-RO-1', type: 'STANDARD' });
    const high = await h.v2('POST', '/network-volumes', { name: 'fast', size: 10, dataCenter: 'US-TX-4' });
    expect(high.body.type).toBe('HIGH_PERFORMANCE');
    expect((await h.v2('GET', `/network-volumes/${created.body.id}`)).body).toEqual(created.body);
    expect((await h.v2('GET', '/network-volumes')).body.networkVolumes).toHaveLength(2);
    const grown = await h.v2('PATCH', `/network-volumes/${created.body.id}`, { size: 40, name: 'data2' });
    expect(grown.body).toEqual({ ...created.body, size: 40, name: 'data2' });
    expect((await h.rest('GET', `/networkvolumes/${created.body.id}`)).body).toEqual({ id: created.body.id, name: 'data2', size: 40, dataCenterId: 'EU-RO-1' });
    expect((await h.v2('DELETE', `/network-volumes/${created.body.id}`)).status).toBe(204);
    expect((await h.v2('GET', `/network-volumes/${created.body.id}`)).status).toBe(404);
  });

  it('a REST v1 volume reads as STANDARD with dataCenter; a v1 size below 10 GB shows the v2 floor', async () => {
    const h = await start();
    const v1 = await h.rest('POST', '/networkvolumes', { name: 'old', size: 5, dataCenterId: 'US-KS-2' });
    expect((await h.v2('GET', `/network-volumes/${v1.body.id}`)).body).toEqual({ id: v1.body.id, name: 'old', size: 10, dataCenter: 'US-KS-2', type: 'STANDARD' });
  });
});

describe('RESTV2-VOLUME-002 volume refusals', () => {
  it('shrinking → 400 (size unchanged); unknown data centre or a tier it lacks → 422; attached volume delete → 409', async () => {
    const h = await start();
    const vol = (await h.v2('POST', '/network-volumes', { name: 'v', size: 50, dataCenter: 'EU-RO-1' })).body;
    const shrink = await h.v2('PATCH', `/network-volumes/${vol.id}`, { size: 20 });
    expect(shrink.status).toBe(400);
    expect(shrink.body.errors).toEqual([expect.stringContaining('/body/size')]);
    expect((await h.v2('GET', `/network-volumes/${vol.id}`)).body.size).toBe(50);
    expect((await h.v2('POST', '/network-volumes', { name: 'v', size: 10, dataCenter: 'XX-NO-1' })).status).toBe(422);
    expect((await h.v2('POST', '/network-volumes', { name: 'v', size: 10, dataCenter: 'EU-SE-1', type: 'HIGH_PERFORMANCE' })).status).toBe(422);
    expect((await h.v2('POST', '/network-volumes', { name: 'v', size: 10, dataCenter: 'US-WA-1' })).status).toBe(422);
    const ep = await h.endpoint({ networkVolumes: [vol.id] });
    expect(ep.networkVolumes).toEqual([vol.id]);
    expect((await h.v2('DELETE', `/network-volumes/${vol.id}`)).status).toBe(409);
    expect((await h.v2('GET', '/network-volumes')).body.networkVolumes).toHaveLength(1);
  });
});

describe('RESTV2-REGISTRY-001 registry credentials are REST v1\'s container registry auths, write-only', () => {
  it('creates (201) id + name only, reads through REST v1, lists; the password is in no answer', async () => {
    const h = await start();
    const created = await h.v2('POST', '/registries', { name: 'hub', username: 'me', password: 'pw-secret-123' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'hub' });
    const v1 = await h.rest('GET', `/containerregistryauth/${created.body.id}`);
    expect(v1.body).toEqual({ id: created.body.id, name: 'hub' });
    const fromV1 = await h.rest('POST', '/containerregistryauth', { name: 'ghcr', username: 'u', password: 'pw-secret-456' });
    const listed = await h.v2('GET', '/registries');
    expect(listed.body.registries).toEqual([created.body, { id: fromV1.body.id, name: 'ghcr' }]);
    expect((await h.v2('GET', `/registries/${fromV1.body.id}`)).body).toEqual({ id: fromV1.body.id, name: 'ghcr' });
    expect(JSON.stringify([created.body, listed.body])).not.toMatch(/pw-secret|"me"/);
    expect((await h.v2('POST', '/registries', { name: 'hub', username: 'me', password: 'x' })).status).toBe(400);
  });
});

describe('RESTV2-REGISTRY-002 deleting a registry credential', () => {
  it('in use by a pod → 400; templates only lose the reference; unknown → 404', async () => {
    const h = await start();
    const reg = (await h.v2('POST', '/registries', { name: 'hub', username: 'me', password: 'pw' })).body;
    const tpl = (await h.v2('POST', '/templates', { name: 't', image: 'private/x:1', registry: reg.id })).body;
    const pod = await h.rest('POST', '/pods', { name: 'p', imageName: 'private/x:1', containerRegistryAuthId: reg.id, gpuTypeIds: ['NVIDIA GeForce RTX 4090'] });
    expect(pod.status).toBe(201);
    expect((await h.v2('DELETE', `/registries/${reg.id}`)).status).toBe(400);
    await h.rest('DELETE', `/pods/${pod.body.id}`);
    expect((await h.v2('DELETE', `/registries/${reg.id}`)).status).toBe(204);
    expect((await h.v2('GET', `/templates/${tpl.id}`)).body.registry).toBeNull();
    expect((await h.v2('DELETE', `/registries/${reg.id}`)).status).toBe(404);
  });
});

describe('RESTV2-DELEGATION-001 ECR delegations', () => {
  it('creates (201) from an ECR ARN, lists, revokes (204, then 404); a malformed ARN → 422; a duplicate → 400', async () => {
    const h = await start();
    const arn = 'arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment';
    const created = await h.v2('POST', '/registries/delegations', { resource: arn, name: 'deploy' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String), name: 'deploy', delegatorUserId: 'user_mock', awsUser: '418399314813', repository: 'runpod/deployment',
      tag: 'latest', awsRegion: 'us-east-2', dockerRegistryUri: '418399314813.dkr.ecr.us-east-2.amazonaws.com', createdAt: expect.any(String),
    });
    expect((await h.v2('POST', '/registries/delegations', { resource: arn })).status).toBe(400);
    expect((await h.v2('POST', '/registries/delegations', { resource: 'arn:aws:s3:::bucket' })).status).toBe(422);
    expect((await h.v2('GET', '/registries/delegations')).body.delegations).toEqual([created.body]);
    expect((await h.v2('DELETE', `/registries/delegations/${created.body.id}`)).status).toBe(204);
    expect((await h.v2('DELETE', `/registries/delegations/${created.body.id}`)).status).toBe(404);
    expect((await h.v2('GET', '/registries/delegations')).body.delegations).toEqual([]);
  });
});
