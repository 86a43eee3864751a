// REST v1 and GraphQL rules of specs/rules.yaml not covered by the scenario files.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

const SAVE = 'mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { id name imageName readme containerRegistryAuthId } }';
const base = { name: 'g', imageName: 'i:1', containerDiskInGb: 5, volumeInGb: 0 };

describe('REST v1 shapes and statuses', () => {
  it('REST-CRUD-001 every list answers a bare JSON array', async () => {
    for (const path of ['/pods', '/endpoints', '/templates', '/networkvolumes', '/containerregistryauth', '/billing/pods', '/billing/endpoints', '/billing/networkvolumes']) {
      const res = await h.rest('GET', path);
      expect(res.status, path).toBe(200);
      expect(Array.isArray(res.body), path).toBe(true);
    }
  });

  it('REST-CRUD-002 REST-ERROR-001 unknown pod, endpoint, template or volume ids answer 404 with {message}', async () => {
    const calls: [string, string, unknown?][] = [];
    for (const kind of ['pods', 'endpoints', 'templates', 'networkvolumes']) {
      calls.push(['GET', `/${kind}/nope`], ['PATCH', `/${kind}/nope`, {}], ['POST', `/${kind}/nope/update`, {}], ['DELETE', `/${kind}/nope`]);
    }
    for (const action of ['start', 'stop', 'reset', 'restart']) calls.push(['POST', `/pods/nope/${action}`]);
    for (const [method, path, body] of calls) {
      const res = await h.rest(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message.length).toBeGreaterThan(0);
    }
  });

  it('REST-CRUD-004 malformed JSON or a wrongly typed field → 400', async () => {
    const raw = await h.request('POST', `${h.mock.restV1Url}/templates`, { rawBody: '{', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect((await h.rest('POST', '/templates', { name: 1, imageName: 'x' })).status).toBe(400);
  });

  it('REST-CRUD-005 REST-CRUD-006 creates answer 200 (createPod 201); deletes answer 204 with an empty body', async () => {
    const auth = await h.rest('POST', '/containerregistryauth', { name: 'a', username: 'u', password: 'p' });
    const volume = await h.rest('POST', '/networkvolumes', { name: 'v', size: 1, dataCenterId: 'EU-RO-1' });
    const template = await h.rest('POST', '/templates', { name: 't', imageName: 'i' });
    const endpoint = await h.rest('POST', '/endpoints', { templateId: await h.template() });
    const pod = await h.rest('POST', '/pods', { imageName: 'i' });
    expect([auth.status, volume.status, template.status, endpoint.status, pod.status]).toEqual([200, 200, 200, 200, 201]);
    for (const path of [`/containerregistryauth/${auth.body.id}`, `/networkvolumes/${volume.body.id}`, `/templates/${template.body.id}`, `/endpoints/${endpoint.body.id}`, `/pods/${pod.body.id}`]) {
      const res = await h.rest('DELETE', path);
      expect(res.status, path).toBe(204);
      expect(res.body).toBeUndefined();
    }
  });

  it('REST-POD-002 a created pod is returned by getPod and listed', async () => {
    const created = (await h.rest('POST', '/pods', { name: 'p', imageName: 'i:1' })).body;
    expect((await h.rest('GET', `/pods/${created.id}`)).body).toEqual(created);
    expect((await h.rest('GET', '/pods')).body).toContainEqual(created);
  });

  it('REST-ENDPOINT-007 a new endpoint is reachable on queue v2 (/health 200)', async () => {
    const ep = await h.endpoint();
    expect((await h.queue(ep, 'GET', '/health')).status).toBe(200);
  });

  it('REST-ENDPOINT-008 workers get the first available GPU type in gpuTypeIds order', async () => {
    const gpus = ['NVIDIA H100 80GB HBM3', 'NVIDIA GeForce RTX 4090'];
    await h.control('POST', '/gpu-availability', { unavailable: [gpus[0]] });
    const ep = await h.endpoint({ gpuTypeIds: gpus, workersMin: 1, workersMax: 1 });
    await h.advance(0);
    expect((await h.rest('GET', `/endpoints/${ep}?includeWorkers=true`)).body.workers[0].gpu.id).toBe(gpus[1]);
    await h.control('POST', '/gpu-availability', { unavailable: [] });
    const other = await h.endpoint({ gpuTypeIds: gpus, workersMin: 1, workersMax: 1 });
    await h.advance(0);
    expect((await h.rest('GET', `/endpoints/${other}?includeWorkers=true`)).body.workers[0].gpu.id).toBe(gpus[0]);
  });

  it('REST-TEMPLATE-002 REST-REGAUTH-002 REST-VOLUME-002 missing required fields or out-of-range size → 400', async () => {
    expect((await h.rest('POST', '/templates', { name: 'x' })).status).toBe(400);
    expect((await h.rest('POST', '/templates', { imageName: 'x' })).status).toBe(400);
    expect((await h.rest('POST', '/containerregistryauth', { name: 'x', username: 'u' })).status).toBe(400);
    expect((await h.rest('POST', '/networkvolumes', { name: 'v', size: 4001, dataCenterId: 'EU-RO-1' })).status).toBe(400);
    expect((await h.rest('POST', '/networkvolumes', { name: 'v', size: 1 })).status).toBe(400);
  });

  it('REST-BILLING-004 a bad bucketSize or startTime → 400', async () => {
    expect((await h.rest('GET', '/billing/pods?bucketSize=decade')).status).toBe(400);
    expect((await h.rest('GET', '/billing/endpoints?startTime=yesterday')).status).toBe(400);
  });

  it('VERSION-001 VERSION-003 VERSION-004 base addresses: /v1, /v2/{endpointId}, /graphql', () => {
    expect(new URL(h.mock.restV1Url).pathname).toBe('/v1');
    expect(new URL(h.mock.queueV2Url('abc')).pathname).toBe('/v2/abc');
    expect(new URL(h.mock.graphqlUrl).pathname).toBe('/graphql');
  });
});

describe('GraphQL rules', () => {
  it('GQL-TEMPLATE-004 a known containerRegistryAuthId is saved; an unknown one fails', async () => {
    const auth = (await h.rest('POST', '/containerregistryauth', { name: 'a', username: 'u', password: 'p' })).body.id;
    const ok = await h.graphql(SAVE, { input: { ...base, containerRegistryAuthId: auth } });
    expect(ok.body.data.saveTemplate.containerRegistryAuthId).toBe(auth);
    const bad = await h.graphql(SAVE, { input: { ...base, name: 'other', containerRegistryAuthId: 'unknown' } });
    expect(bad.body.errors).toHaveLength(1);
  });

  it('GQL-TEMPLATE-006 a modify without a required field fails and leaves the template unchanged', async () => {
    const t = (await h.graphql(SAVE, { input: { ...base, readme: 'keep' } })).body.data.saveTemplate;
    const { volumeInGb: _dropped, ...partial } = base;
    const res = await h.graphql(SAVE, { input: { ...partial, id: t.id, readme: 'changed' } });
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect((await h.rest('GET', `/templates/${t.id}`)).body.readme).toBe('keep');
  });

  it('GQL-TEMPLATE-008 an unknown id fails and creates nothing', async () => {
    const res = await h.graphql(SAVE, { input: { ...base, id: 'nope' } });
    expect(res.body.errors).toHaveLength(1);
    expect((await h.rest('GET', '/templates')).body).toEqual([]);
  });

  it('GQL-SECRET-002 secretCreate without name or value fails and creates nothing', async () => {
    const res = await h.graphql('mutation { secretCreate(input: {name: "n"}) { id } }');
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(h.mock.core.store.secrets.size).toBe(0);
  });
});
