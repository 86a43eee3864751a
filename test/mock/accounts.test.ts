// Accounts in the mock (issue 27): two keys of two accounts on REST v1, REST v2, queue v2 and GraphQL.
// Account B never sees, changes or references account A's objects; a foreign id answers exactly like an
// id that never existed (status, body, headers); names, lists, SSH keys and rate windows are per account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, KEY } from './harness.js';

const KEY_B = 'key-of-acme';
const ABSENT = 'zzzzzzzzzzzzzz';
let h: Harness;

beforeAll(async () => {
  h = await Harness.start({ apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }, { key: KEY_B, scopes: ['read', 'write', 'jobs', 'graphql'], account: 'acme' }] });
});
afterAll(() => h.close());

const v1 = (method: string, path: string, body?: unknown, key = KEY) => h.request(method, `${h.mock.restV1Url}${path}`, { body, key });
const v2 = (method: string, path: string, body?: unknown, key = KEY) => h.request(method, `${h.mock.restV2Url}${path}`, { body, key });
const gql = (query: string, key = KEY) => h.graphql(query, undefined, key);
/** An answer with the named id replaced, for comparing a foreign id's answer with an absent id's. */
const masked = (res: { status: number; body: unknown; headers: Headers }, id: string) => ({
  status: res.status,
  body: JSON.stringify(res.body ?? null).replaceAll(id, '<id>'),
  contentType: res.headers.get('content-type'),
  allow: res.headers.get('allow'),
});

/** A's objects, made once: a template, an endpoint using it, a pod, a volume, a registry auth, a secret. */
async function accountAObjects() {
  const template = (await v1('POST', '/templates', { name: 'base', imageName: 'repo/a:1', isServerless: true, volumeInGb: 0, env: { A: '1' } })).body;
  const endpoint = (await v1('POST', '/endpoints', { name: 'ep-a', templateId: template.id, workersMin: 0, workersMax: 1 })).body;
  const pod = (await v1('POST', '/pods', { name: 'pod-a', imageName: 'repo/a:1', gpuTypeIds: ['NVIDIA A40'] })).body;
  const volume = (await v1('POST', '/networkvolumes', { name: 'vol-a', size: 10, dataCenterId: 'EU-RO-1' })).body;
  const auth = (await v1('POST', '/containerregistryauth', { name: 'reg-a', username: 'u', password: 'registry-secret-a' })).body;
  return { template, endpoint, pod, volume, auth };
}

let a: Awaited<ReturnType<typeof accountAObjects>>;
beforeAll(async () => {
  a = await accountAObjects();
  for (const made of Object.values(a)) expect(typeof made.id).toBe('string');
});

describe('ISOLATION-READ-001 ISOLATION-ORACLE-001 a foreign id reads exactly like an absent one', () => {
  it('REST v1: GET of each of A\'s objects by B → the absent-id answer', async () => {
    for (const [path, id] of [['/templates', a.template.id], ['/endpoints', a.endpoint.id], ['/pods', a.pod.id], ['/networkvolumes', a.volume.id], ['/containerregistryauth', a.auth.id]] as const) {
      const foreign = await v1('GET', `${path}/${id}`, undefined, KEY_B);
      const absent = await v1('GET', `${path}/${ABSENT}`, undefined, KEY_B);
      expect(foreign.status, `${path}/${id}`).toBe(404);
      expect(masked(foreign, id)).toEqual(masked(absent, ABSENT));
      expect((await v1('GET', `${path}/${id}`)).status, 'A still reads it').toBe(200);
    }
  });

  it('REST v2: GET of A\'s pod, endpoint, template, volume, registry and sub-reads → problem 404 as for an absent id', async () => {
    for (const path of [`/pods/${a.pod.id}`, `/serverless/${a.endpoint.id}`, `/templates/${a.template.id}`, `/network-volumes/${a.volume.id}`, `/registries/${a.auth.id}`, `/pods/${a.pod.id}/logs`, `/serverless/${a.endpoint.id}/workers`]) {
      const id = path.split('/')[2]!;
      const foreign = await v2('GET', path, undefined, KEY_B);
      const absent = await v2('GET', path.replace(id, ABSENT), undefined, KEY_B);
      expect(foreign.status, path).toBe(404);
      expect(masked(foreign, id), path).toEqual(masked(absent, ABSENT));
      // The RateLimit fields count B's own window either way: no header tells the two apart.
      expect(foreign.headers.get('ratelimit-policy')).toBe(absent.headers.get('ratelimit-policy'));
    }
  });

  it('GraphQL: A\'s pod by id is an unknown pod for B; B\'s myself is B\'s account', async () => {
    const foreign = await gql(`query { pod(input: { podId: "${a.pod.id}" }) { id name } }`, KEY_B);
    const absent = await gql(`query { pod(input: { podId: "${ABSENT}" }) { id name } }`, KEY_B);
    expect(JSON.stringify(foreign.body).replaceAll(a.pod.id, '<id>')).toBe(JSON.stringify(absent.body).replaceAll(ABSENT, '<id>'));
    const me = await gql('query { myself { id pods { id } endpoints { id } networkVolumes { id } } }', KEY_B);
    expect(me.body.data.myself).toEqual({ id: 'acme', pods: [], endpoints: [], networkVolumes: [] });
    const mine = await gql('query { myself { id pods { id } } }');
    expect(mine.body.data.myself).toEqual({ id: 'user_mock', pods: [{ id: a.pod.id }] });
  });
});

describe('ISOLATION-WRITE-001 B never changes A\'s objects', () => {
  it('REST v1 and REST v2 updates, actions and deletes of A\'s objects by B answer as for an absent id; A\'s objects are unchanged', async () => {
    const attempts: [string, string, unknown][] = [
      ['PATCH', `/v1/templates/${a.template.id}`, { name: 'stolen' }],
      ['PATCH', `/v1/pods/${a.pod.id}`, { name: 'stolen' }],
      ['POST', `/v1/pods/${a.pod.id}/stop`, undefined],
      ['DELETE', `/v1/pods/${a.pod.id}`, undefined],
      ['DELETE', `/v1/endpoints/${a.endpoint.id}`, undefined],
      ['DELETE', `/v1/networkvolumes/${a.volume.id}`, undefined],
      ['PATCH', `/v2/templates/${a.template.id}`, { name: 'stolen' }],
      ['POST', `/v2/pods/${a.pod.id}/action`, { action: 'stop' }],
      ['DELETE', `/v2/serverless/${a.endpoint.id}`, undefined],
      ['DELETE', `/v2/registries/${a.auth.id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const id = path.split('/')[3]!;
      const foreign = await h.request(method, `${h.mock.url}${path}`, { body, key: KEY_B });
      const absent = await h.request(method, `${h.mock.url}${path.replace(id, ABSENT)}`, { body, key: KEY_B });
      expect(foreign.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(masked(foreign, id), `${method} ${path}`).toEqual(masked(absent, ABSENT));
    }
    expect((await v1('GET', `/templates/${a.template.id}`)).body.name).toBe('base');
    expect((await v1('GET', `/pods/${a.pod.id}`)).body).toMatchObject({ name: 'pod-a', desiredStatus: 'RUNNING' });
    expect((await v1('GET', `/endpoints/${a.endpoint.id}`)).status).toBe(200);
  });

  it('GraphQL mutations on A\'s ids by B fail as for unknown ids', async () => {
    const stop = await gql(`mutation { podStop(input: { podId: "${a.pod.id}" }) { id desiredStatus } }`, KEY_B);
    const absent = await gql(`mutation { podStop(input: { podId: "${ABSENT}" }) { id desiredStatus } }`, KEY_B);
    expect(JSON.stringify(stop.body).replaceAll(a.pod.id, '<id>')).toBe(JSON.stringify(absent.body).replaceAll(ABSENT, '<id>'));
    expect(stop.body.errors?.length).toBeGreaterThan(0);
    expect((await v1('GET', `/pods/${a.pod.id}`)).body.desiredStatus).toBe('RUNNING');
  });
});

describe('ISOLATION-LIST-001 ISOLATION-NAMES-001 lists, account reads and names are per account', () => {
  it('B\'s lists on REST v1 and REST v2 hold none of A\'s ids; B may own a template named like A\'s', async () => {
    const aIds = Object.values(a).map((o) => o.id as string);
    for (const path of ['/pods', '/endpoints', '/templates', '/networkvolumes', '/containerregistryauth']) {
      const text = JSON.stringify((await v1('GET', path, undefined, KEY_B)).body);
      for (const id of aIds) expect(text, path).not.toContain(id);
    }
    for (const path of ['/pods', '/serverless', '/templates', '/network-volumes', '/registries', '/billing/pods']) {
      const text = JSON.stringify((await v2('GET', path, undefined, KEY_B)).body);
      for (const id of aIds) expect(text, path).not.toContain(id);
    }
    const own = await v1('POST', '/templates', { name: 'base', imageName: 'repo/b:1', isServerless: true, volumeInGb: 0 }, KEY_B);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect((await v1('GET', '/templates', undefined, KEY_B)).body.map((t: { id: string }) => t.id)).toEqual([own.body.id]);
    expect((await v1('GET', '/templates')).body.map((t: { id: string }) => t.id)).toContain(a.template.id);
    expect((await v1('POST', '/templates', { name: 'base', imageName: 'repo/b:1', isServerless: true, volumeInGb: 0 }, KEY_B)).status, 'names stay unique within one account').toBe(400);
  });

  it('SSH keys belong to the account that set them', async () => {
    expect((await v2('PUT', '/account/ssh-keys', { keys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbB b@acme'] }, KEY_B)).status).toBe(200);
    expect((await v2('GET', '/account/ssh-keys')).body.keys).toEqual([]);
  });
});

describe('ISOLATION-REF-001 references in bodies resolve in the caller\'s account only', () => {
  it('B cannot use A\'s template, volume or registry auth: the answer names them absent, nothing is created', async () => {
    const before = (await v1('GET', '/pods', undefined, KEY_B)).body.length;
    for (const [field, id] of [['templateId', a.template.id], ['networkVolumeId', a.volume.id], ['containerRegistryAuthId', a.auth.id]] as const) {
      const body = { name: 'p', imageName: 'repo/b:1', gpuTypeIds: ['NVIDIA A40'], [field]: id };
      const foreign = await v1('POST', '/pods', body, KEY_B);
      const absent = await v1('POST', '/pods', { ...body, [field]: ABSENT }, KEY_B);
      expect(foreign.status, field).toBe(400);
      expect(masked(foreign, id)).toEqual(masked(absent, ABSENT));
    }
    const endpoint = await v1('POST', '/endpoints', { name: 'e', templateId: a.template.id }, KEY_B);
    expect(endpoint.status).toBe(400);
    expect((await v1('GET', '/pods', undefined, KEY_B)).body.length).toBe(before);
    expect((await v1('GET', '/endpoints', undefined, KEY_B)).body).toEqual([]);
  });

  it('a secret named in env resolves in the endpoint\'s own account: B\'s worker never sees A\'s value', async () => {
    await gql('mutation { secretCreate(input: { name: "token", value: "value-of-a" }) { id } }');
    const template = (await v1('POST', '/templates', { name: 'uses-secret', imageName: 'repo/b:1', isServerless: true, volumeInGb: 0, env: { T: '{{ RUNPOD_SECRET_token }}' } }, KEY_B)).body;
    const endpointId = (await v1('POST', '/endpoints', { name: 'eb', templateId: template.id, workersMin: 0, workersMax: 1 }, KEY_B)).body.id;
    const check = { mock: { durationMs: 0, envCheck: { T: 'value-of-a' } } };
    const jobB = (await h.queue(endpointId, 'POST', '/run', { input: check }, KEY_B)).body.id;
    const templateA = (await v1('POST', '/templates', { name: 'uses-secret', imageName: 'repo/a:1', isServerless: true, volumeInGb: 0, env: { T: '{{ RUNPOD_SECRET_token }}' } })).body;
    const endpointA = (await v1('POST', '/endpoints', { name: 'ea', templateId: templateA.id, workersMin: 0, workersMax: 1 })).body.id;
    const jobA = (await h.queue(endpointA, 'POST', '/run', { input: check })).body.id;
    await h.advance(1_000);
    expect((await h.queue(endpointId, 'GET', `/status/${jobB}`, undefined, KEY_B)).body.output).toEqual({ envCheck: { T: false } });
    expect((await h.status(endpointA, jobA)).body.output, 'the owner\'s worker does resolve it').toEqual({ envCheck: { T: true } });
  });
});

describe('ISOLATION-JOB-001 queue v2: another account\'s endpoint answers like an absent one', () => {
  it('every queue operation of B on A\'s endpoint → 404 as for an absent endpoint; A\'s job is untouched', async () => {
    const job = await h.run(a.endpoint.id, { mock: { durationMs: 10_000 } });
    const calls: [string, string, unknown][] = [
      ['POST', '/run', { input: {} }], ['GET', `/status/${job}`, undefined], ['POST', `/cancel/${job}`, undefined],
      ['GET', `/stream/${job}`, undefined], ['POST', `/retry/${job}`, undefined], ['POST', '/purge-queue', undefined], ['GET', '/health', undefined],
    ];
    for (const [method, path, body] of calls) {
      const foreign = await h.queue(a.endpoint.id, method, path, body, KEY_B);
      const absent = await h.queue(ABSENT, method, path, body, KEY_B);
      expect(foreign.status, path).toBe(404);
      expect(masked(foreign, a.endpoint.id), path).toEqual(masked(absent, ABSENT));
    }
    expect((await h.status(a.endpoint.id, job)).body.status).toMatch(/IN_QUEUE|IN_PROGRESS/);
  });
});

describe('ISOLATION-RATE-001 one account\'s 429 never throttles another', () => {
  it('REST v2: a second account\'s window starts full while the first one is spent', async () => {
    const remaining = (res: { headers: Headers }) => res.headers.get('ratelimit');
    const aBefore = remaining(await v2('GET', '/templates'));
    await v2('GET', '/templates', undefined, KEY_B);
    await v2('GET', '/templates', undefined, KEY_B);
    const aAfter = remaining(await v2('GET', '/templates'));
    // A's own request counted once between the two reads; B's two did not count toward A.
    const minuteLeft = (value: string | null) => Number(/"minute";r=(\d+)/.exec(value ?? '')?.[1]);
    expect(minuteLeft(aAfter)).toBe(minuteLeft(aBefore) - 1);
  });
});
