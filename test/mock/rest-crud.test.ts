import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

const MIN = 60_000;

describe('container registry auths', () => {
  it('REST-REGAUTH-001 REST-REGAUTH-004 SECRET-001 create answers {id, name} without the password; list and get never show it', async () => {
    const created = await h.rest('POST', '/containerregistryauth', { name: 'ghcr', username: 'me', password: 's3cret-pw' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(String), name: 'ghcr' });
    const list = await h.rest('GET', '/containerregistryauth');
    const one = await h.rest('GET', `/containerregistryauth/${created.body.id}`);
    expect(JSON.stringify([list.body, one.body])).not.toContain('s3cret-pw');
    expect(one.body).toEqual(created.body);
  });

  it('REST-REGAUTH-003 a duplicate name → 400', async () => {
    await h.rest('POST', '/containerregistryauth', { name: 'dup', username: 'a', password: 'b' });
    const res = await h.rest('POST', '/containerregistryauth', { name: 'dup', username: 'c', password: 'd' });
    expect(res.status).toBe(400);
  });

  it('REST-REGAUTH-005 REST-REGAUTH-006 delete → 204; deleting an unknown id → 400 (seed: invalid id); get of an unknown id → 404', async () => {
    const { body } = await h.rest('POST', '/containerregistryauth', { name: 'x', username: 'a', password: 'b' });
    expect((await h.rest('DELETE', `/containerregistryauth/${body.id}`)).status).toBe(204);
    expect((await h.rest('DELETE', `/containerregistryauth/${body.id}`)).status).toBe(400);
    expect((await h.rest('GET', `/containerregistryauth/${body.id}`)).status).toBe(404);
  });
});

describe('templates', () => {
  it('REST-TEMPLATE-001 REST-TEMPLATE-004 REST-TEMPLATE-005 REST-TEMPLATE-006 REST-TEMPLATE-007 CRUD with PATCH and the POST …/update synonym', async () => {
    const created = await h.rest('POST', '/templates', { name: 't1', imageName: 'img:1' });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect((await h.rest('PATCH', `/templates/${id}`, { imageName: 'img:2' })).body.imageName).toBe('img:2');
    expect((await h.rest('POST', `/templates/${id}/update`, { readme: '# hi' })).body).toMatchObject({ imageName: 'img:2', readme: '# hi' });
    expect((await h.rest('GET', '/templates')).body).toHaveLength(1);
    expect((await h.rest('DELETE', `/templates/${id}`)).status).toBe(204);
    expect((await h.rest('GET', `/templates/${id}`)).status).toBe(404);
  });

  it('REST-TEMPLATE-003 a duplicate template name → 400', async () => {
    await h.rest('POST', '/templates', { name: 'same', imageName: 'a' });
    expect((await h.rest('POST', '/templates', { name: 'same', imageName: 'b' })).status).toBe(400);
  });

  it('REST-TEMPLATE-008 TEMPLATE-DELETE-001 a template in use cannot be deleted, and only 2 min after its last use', async () => {
    const templateId = await h.template();
    const ep = await h.endpoint({ templateId });
    const pod = await h.rest('POST', '/pods', { templateId });
    expect(pod.status).toBe(201);
    expect((await h.rest('DELETE', `/templates/${templateId}`)).status).toBe(400);
    await h.rest('DELETE', `/endpoints/${ep}`);
    expect((await h.rest('DELETE', `/templates/${templateId}`)).status).toBe(400);
    await h.rest('DELETE', `/pods/${pod.body.id}`);
    // Deletion becomes possible only once the delay after the most recent use has passed.
    expect((await h.rest('DELETE', `/templates/${templateId}`)).status).toBe(400);
    await h.advance(2 * MIN - 1);
    expect((await h.rest('DELETE', `/templates/${templateId}`)).status).toBe(400);
    await h.advance(1);
    expect((await h.rest('DELETE', `/templates/${templateId}`)).status).toBe(204);
  });

  it('a template never used can be deleted at once', async () => {
    const templateId = await h.template();
    expect((await h.rest('DELETE', `/templates/${templateId}`)).status).toBe(204);
  });
});

describe('endpoints', () => {
  it('REST-ENDPOINT-001 REST-ENDPOINT-002 REST-ENDPOINT-003 REST-ENDPOINT-004 REST-ENDPOINT-005 create (200) checks the template reference; get, list, update, delete', async () => {
    expect((await h.rest('POST', '/endpoints', { templateId: 'missing' })).status).toBe(400);
    const templateId = await h.template();
    const created = await h.rest('POST', '/endpoints', { name: 'e', templateId, gpuTypeIds: ['NVIDIA GeForce RTX 4090'], workersMin: 0, workersMax: 2, idleTimeout: 10 });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body).toMatchObject({ templateId, workersMin: 0, workersMax: 2, idleTimeout: 10 });
    expect((await h.rest('GET', `/endpoints/${id}?includeTemplate=true`)).body.template.id).toBe(templateId);
    expect((await h.rest('PATCH', `/endpoints/${id}`, { workersMax: 4 })).body.workersMax).toBe(4);
    expect((await h.rest('POST', `/endpoints/${id}/update`, { name: 'renamed' })).body.name).toBe('renamed');
    expect((await h.rest('PATCH', `/endpoints/${id}`, { templateId: 'missing' })).status).toBe(400);
    expect((await h.rest('GET', '/endpoints')).body.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await h.rest('DELETE', `/endpoints/${id}`)).status).toBe(204);
    expect((await h.rest('GET', `/endpoints/${id}`)).status).toBe(404);
    expect((await h.rest('DELETE', `/endpoints/${id}`)).status).toBe(404);
  });

  it('includeWorkers lists the running workers', async () => {
    const ep = await h.endpoint({ workersMin: 1, workersMax: 1 });
    await h.advance(0);
    expect((await h.rest('GET', `/endpoints/${ep}?includeWorkers=true`)).body.workers).toHaveLength(1);
  });
});

describe('pods', () => {
  it('REST-POD-001 REST-POD-003 REST-POD-004 REST-POD-005 REST-POD-006 REST-POD-007 REST-POD-008 REST-POD-009 create answers 201; actions change desiredStatus', async () => {
    const created = await h.rest('POST', '/pods', { name: 'p', imageName: 'runpod/pytorch:2', gpuTypeIds: ['NVIDIA GeForce RTX 4090'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'p', image: 'runpod/pytorch:2', desiredStatus: 'RUNNING' });
    const id = created.body.id;
    expect((await h.rest('POST', `/pods/${id}/stop`)).status).toBe(200);
    expect((await h.rest('GET', `/pods/${id}`)).body.desiredStatus).toBe('EXITED');
    expect((await h.rest('POST', `/pods/${id}/restart`)).status).toBe(200); // an EXITED pod is started
    expect((await h.rest('GET', `/pods/${id}`)).body.desiredStatus).toBe('RUNNING');
    expect((await h.rest('POST', `/pods/${id}/start`)).status).toBe(200);
    expect((await h.rest('POST', `/pods/${id}/reset`)).status).toBe(200);
    expect((await h.rest('POST', `/pods/${id}/restart`)).status).toBe(200);
    expect((await h.rest('GET', `/pods/${id}`)).body.desiredStatus).toBe('RUNNING');
    expect((await h.rest('GET', '/pods?desiredStatus=EXITED')).body).toEqual([]);
    expect((await h.rest('PATCH', `/pods/${id}`, { name: 'q' })).body.name).toBe('q');
    expect((await h.rest('POST', `/pods/${id}/update`, { imageName: 'other:1' })).body.image).toBe('other:1');
    expect((await h.rest('DELETE', `/pods/${id}`)).status).toBe(204);
    for (const action of ['start', 'stop', 'reset', 'restart']) expect((await h.rest('POST', `/pods/${id}/${action}`)).status).toBe(404);
  });

  it('a pod needs an image: imageName or a template', async () => {
    expect((await h.rest('POST', '/pods', { name: 'no image' })).status).toBe(400);
  });
});

describe('network volumes', () => {
  it('REST-VOLUME-001 REST-VOLUME-003 REST-VOLUME-004 REST-VOLUME-005 REST-VOLUME-006 CRUD; size can only grow', async () => {
    const created = await h.rest('POST', '/networkvolumes', { name: 'vol', size: 50, dataCenterId: 'EU-RO-1' });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body).toEqual({ id, name: 'vol', size: 50, dataCenterId: 'EU-RO-1' });
    expect((await h.rest('PATCH', `/networkvolumes/${id}`, { size: 100 })).body.size).toBe(100);
    expect((await h.rest('POST', `/networkvolumes/${id}/update`, { size: 10 })).status).toBe(400);
    expect((await h.rest('GET', '/networkvolumes')).body).toHaveLength(1);
    expect((await h.rest('DELETE', `/networkvolumes/${id}`)).status).toBe(204);
    expect((await h.rest('GET', `/networkvolumes/${id}`)).status).toBe(404);
  });
});

describe('billing', () => {
  it('REST-BILLING-001 REST-BILLING-002 REST-BILLING-003 derives pod, endpoint and network-volume records from what exists', async () => {
    await h.rest('POST', '/pods', { imageName: 'x:1', gpuTypeIds: ['NVIDIA GeForce RTX 4090'] });
    await h.rest('POST', '/networkvolumes', { name: 'v', size: 10, dataCenterId: 'EU-RO-1' });
    const ep = await h.endpoint();
    await h.run(ep, { mock: { durationMs: 1_000 } });
    await h.advance(60 * MIN);
    const pods = (await h.rest('GET', '/billing/pods')).body;
    expect(pods).toEqual([expect.objectContaining({ gpuTypeId: 'NVIDIA GeForce RTX 4090', timeBilledMs: 60 * MIN, amount: 0.69 })]);
    const endpoints = (await h.rest('GET', `/billing/endpoints?endpointId=${ep}`)).body;
    expect(endpoints).toEqual([expect.objectContaining({ endpointId: ep, timeBilledMs: 1_000 })]);
    const volumes = (await h.rest('GET', '/billing/networkvolumes?bucketSize=month')).body;
    expect(volumes[0]).toMatchObject({ diskSpaceBilledGb: 10 });
  });
});
