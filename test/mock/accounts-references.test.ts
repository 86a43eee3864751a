// Accounts, the rest of the surfaces (issue 27): references to another account's objects inside REST v2
// and GraphQL bodies, REST v2 clusters and ECR delegations, GraphQL mutations by id, and /__control/seed
// per account. Every foreign id answers exactly like an id that never existed, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, KEY } from './harness.js';

const KEY_B = 'key-of-globex';
const ABSENT = 'zzzzzzzzzzzzzz';
const COMPUTE = { gpuTypeId: 'NVIDIA H100 80GB HBM3', gpuCountPerPod: 8, podCount: 3 };
let h: Harness;

beforeAll(async () => {
  h = await Harness.start({ apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }, { key: KEY_B, scopes: ['read', 'write', 'jobs', 'graphql'], account: 'globex' }] });
});
afterAll(() => h.close());

const v2 = (method: string, path: string, body?: unknown, key = KEY) => h.request(method, `${h.mock.restV2Url}${path}`, { body, key });
const gql = (query: string, key = KEY) => h.graphql(query, undefined, key);
const same = (foreign: { status: number; body: unknown }, absent: { status: number; body: unknown }, id: string) =>
  expect({ status: foreign.status, body: JSON.stringify(foreign.body).replaceAll(id, '<id>') })
    .toEqual({ status: absent.status, body: JSON.stringify(absent.body).replaceAll(ABSENT, '<id>') });

describe('ISOLATION-REF-001 REST v2 bodies referencing another account\'s objects', () => {
  it('template, registry, network volume and cluster volume mounts: B gets the absent-id answer and nothing is stored', async () => {
    const registry = (await v2('POST', '/registries', { name: 'hub', username: 'me', password: 'pw-a' })).body;
    const template = (await v2('POST', '/templates', { name: 'base', image: 'private/a:1', registry: registry.id })).body;
    const volume = (await v2('POST', '/network-volumes', { name: 'data', size: 20, dataCenter: 'EU-RO-1' })).body;
    const attempts: [string, (id: string) => unknown, string][] = [
      ['/templates', (id) => ({ name: 'mine', image: 'private/b:1', registry: id }), registry.id],
      ['/pods', (id) => ({ name: 'p', template: id, gpu: { id: 'NVIDIA GeForce RTX 4090' } }), template.id],
      ['/serverless', (id) => ({ name: 'e', template: id }), template.id],
      ['/clusters', (id) => ({ name: 'c', type: 'RAY', image: 'i:1', compute: COMPUTE, mounts: { network: [{ volumeId: id, path: '/v' }] } }), volume.id],
    ];
    for (const [path, body, id] of attempts) {
      const foreign = await v2('POST', path, body(id), KEY_B);
      same(foreign, await v2('POST', path, body(ABSENT), KEY_B), id);
      expect(foreign.status, path).toBeGreaterThanOrEqual(400);
    }
    for (const list of ['/templates', '/pods', '/serverless', '/clusters']) {
      expect(JSON.stringify((await v2('GET', list, undefined, KEY_B)).body), list).not.toMatch(/"id":"[a-z0-9]{14}"/);
    }
  });

  it('ECR delegations: B cannot see or revoke A\'s delegation; B may delegate the same repository for itself', async () => {
    const resource = 'arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment';
    const mine = (await v2('POST', '/registries/delegations', { resource, name: 'deploy' })).body;
    expect(mine.delegatorUserId).toBe('user_mock');
    same(await v2('DELETE', `/registries/delegations/${mine.id}`, undefined, KEY_B), await v2('DELETE', `/registries/delegations/${ABSENT}`, undefined, KEY_B), mine.id);
    expect((await v2('GET', '/registries/delegations', undefined, KEY_B)).body.delegations).toEqual([]);
    const theirs = await v2('POST', '/registries/delegations', { resource, name: 'deploy' }, KEY_B);
    expect(theirs.status).toBe(201);
    expect(theirs.body.delegatorUserId).toBe('globex');
    expect((await v2('GET', '/registries/delegations')).body.delegations).toEqual([mine]);
  });
});

describe('ISOLATION-WRITE-001 ISOLATION-REF-001 GraphQL by id and by reference', () => {
  it('saveEndpoint, saveTemplate, deleteRegistryAuth and secretDelete with A\'s ids answer as for unknown ids; A keeps them', async () => {
    const template = (await gql('mutation { saveTemplate(input: { name: "gq", imageName: "a:1", containerDiskInGb: 5, volumeInGb: 0, dockerArgs: "", env: [] }) { id } }')).body.data.saveTemplate.id;
    const auth = (await gql('mutation { saveRegistryAuth(input: { name: "gq-reg", username: "u", password: "pw-gq" }) { id } }')).body.data.saveRegistryAuth.id;
    const secret = (await gql('mutation { secretCreate(input: { name: "gq-secret", value: "v-a" }) { id } }')).body.data.secretCreate.id;
    const cases: [(id: string) => string, string][] = [
      [(id) => `mutation { saveEndpoint(input: { name: "e", templateId: "${id}", workersMax: 1 }) { id } }`, template],
      [(id) => `mutation { saveTemplate(input: { id: "${id}", name: "gq", imageName: "b:1", containerDiskInGb: 5, volumeInGb: 0, dockerArgs: "", env: [] }) { id } }`, template],
      [(id) => `mutation { deleteRegistryAuth(registryAuthId: "${id}") }`, auth],
      [(id) => `mutation { secretDelete(id: "${id}") }`, secret],
    ];
    for (const [query, id] of cases) {
      const foreign = await gql(query(id), KEY_B);
      same(foreign, await gql(query(ABSENT), KEY_B), id);
      expect(foreign.body.errors?.length, query(id)).toBeGreaterThan(0);
    }
    expect((await gql(`query { podTemplate(id: "${template}") { imageName } }`)).body.data.podTemplate).toEqual({ imageName: 'a:1' });
    expect((await h.rest('GET', `/containerregistryauth/${auth}`)).status).toBe(200);
  });
});

describe('/__control/seed per account', () => {
  it('seeds into the named account only, resolves references there, and refuses an id another account uses', async () => {
    const seeded = await h.control('POST', '/seed', { account: 'globex', templates: [{ id: 'globex-tpl', name: 'seeded', imageName: 'g:1', isServerless: true, volumeInGb: 0 }], endpoints: [{ id: 'globex-ep', name: 'e', templateId: 'globex-tpl', workersMax: 1 }] });
    expect(seeded.body).toEqual({ account: 'globex', created: { templates: ['globex-tpl'], endpoints: ['globex-ep'] } });
    expect((await h.rest('GET', '/templates/globex-tpl', undefined, KEY_B)).status).toBe(200);
    expect((await h.rest('GET', '/templates/globex-tpl')).status).toBe(404);
    expect((await h.queue('globex-ep', 'POST', '/run', { input: {} }, KEY_B)).status).toBe(200);
    expect((await h.queue('globex-ep', 'POST', '/run', { input: {} })).status).toBe(404);
    const clash = await h.control('POST', '/seed', { templates: [{ id: 'globex-tpl', name: 'x', imageName: 'x:1' }] });
    expect(clash.status).toBe(400);
    expect(clash.body.message).toMatch(/used by account 'globex'/);
    expect((await h.control('POST', '/seed', { account: '', templates: [] })).status).toBe(400);
    expect((await h.control('GET', '/state?account=globex')).body).toMatchObject({ account: 'globex', counts: { templates: 1, endpoints: 1 } });
  });
});
