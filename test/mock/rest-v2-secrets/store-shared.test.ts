// RESTV2-SECRET-007 on the mock: REST v2 secrets are the records GraphQL secretCreate/secretDelete use and
// worker environments resolve, per account (another account's secret answers as an absent one), and kept
// by --state like the GraphQL ones.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/mock/index.js';
import { validateResponse } from '../../../src/validation/index.js';

const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
const KEY_A = 'key-a';
const KEY_B = 'key-b';
let dir: string;
let mock: RunningMock;

const start = async () =>
  (mock = await startMock({ port: 0, host: '127.0.0.1', clock: 'virtual', control: true, stateFile: join(dir, 'secrets.state'),
    apiKeys: [{ key: KEY_A, scopes: [...ALL] }, { key: KEY_B, scopes: [...ALL], account: 'acme' }] }));

async function call(method: string, url: string, body?: unknown, key = KEY_A): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const v2 = (method: string, path: string, body?: unknown, key?: string) => call(method, `${mock.restV2Url}/account/secrets${path}`, body, key);
const gql = (query: string, key = KEY_A) => call('POST', mock.graphqlUrl, { query }, key);

async function workerSees(secretName: string, expected: string, key = KEY_A): Promise<unknown> {
  const template = await call('POST', `${mock.restV1Url}/templates`, { name: `t-${Math.random().toString(36).slice(2)}`, imageName: 'repo/w:1', isServerless: true, volumeInGb: 0, env: { T: `{{ RUNPOD_SECRET_${secretName} }}` } }, key);
  const endpoint = await call('POST', `${mock.restV1Url}/endpoints`, { name: 'e', templateId: template.body.id, workersMin: 0, workersMax: 1 }, key);
  const job = await call('POST', `${mock.queueV2Url(endpoint.body.id)}/run`, { input: { mock: { durationMs: 0, envCheck: { T: expected } } } }, key);
  await call('POST', `${mock.controlUrl}/clock/advance`, { ms: 5_000 });
  return (await call('GET', `${mock.queueV2Url(endpoint.body.id)}/status/${job.body.id}`, undefined, key)).body.output?.envCheck?.T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rest-v2-secrets-'));
  await start();
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('RESTV2-SECRET-007 one secret store with GraphQL and the workers', () => {
  it('a GraphQL secret is read over REST v2 (schema-valid), a REST v2 secret is deleted by GraphQL', async () => {
    const made = (await gql('mutation { secretCreate(input: {name: "from-graphql", value: "gql-value-1", description: "d"}) { id } }')).body.data.secretCreate;
    const got = await v2('GET', `/${made.id}`);
    expect(got.body).toMatchObject({ id: made.id, name: 'from-graphql', description: 'd' });
    expect(validateResponse('restV2', 'getSecret', got.status, got.body)).toEqual([]);
    const rest = await v2('POST', '', { name: 'from-rest', value: 'rest-value-1' });
    expect(rest.status).toBe(201);
    expect((await gql(`mutation { secretDelete(id: "${rest.body.id}") }`)).body).toEqual({ data: { secretDelete: null } });
    expect((await v2('GET', `/${rest.body.id}`)).status).toBe(404);
  });

  it('a name REST v2 holds is taken for GraphQL too, compared without case', async () => {
    await v2('POST', '', { name: 'Shared-Name', value: 'v-shared' });
    const answer = await gql('mutation { secretCreate(input: {name: "shared-name", value: "other"}) { id } }');
    expect(answer.body.errors?.[0]?.message).toMatch(/already exists/);
  });

  it('workers resolve a REST v2 secret, with / in its name, and the rotated value for an endpoint made afterwards', async () => {
    const made = await v2('POST', '', { name: 'team/hf_token', value: 'first-value' });
    expect(await workerSees('team/hf_token', 'first-value')).toBe(true);
    expect((await v2('PATCH', `/${made.body.id}`, { value: 'second-value' })).status).toBe(200);
    expect(await workerSees('team/hf_token', 'second-value')).toBe(true);
  });
});

describe('RESTV2-SECRET-005 a rotation reaches workers at their next boot', () => {
  it('a worker that ran before the rotation keeps the value it started with; a new worker gets the new one', async () => {
    const made = await v2('POST', '', { name: 'boot_time', value: 'before-rotation' });
    const template = await call('POST', `${mock.restV1Url}/templates`, { name: 'boot-time', imageName: 'repo/w:1', isServerless: true, volumeInGb: 0, env: { T: '{{ RUNPOD_SECRET_boot_time }}' } });
    // One worker kept warm for an hour: the second job runs on the worker the first one booted.
    const endpoint = (await call('POST', `${mock.restV1Url}/endpoints`, { name: 'boot', templateId: template.body.id, workersMin: 1, workersMax: 1, idleTimeout: 3600 })).body.id as string;
    const job = async (expected: string) => {
      const id = (await call('POST', `${mock.queueV2Url(endpoint)}/run`, { input: { mock: { durationMs: 0, envCheck: { T: expected } } } })).body.id;
      await call('POST', `${mock.controlUrl}/clock/advance`, { ms: 1_000 });
      const status = (await call('GET', `${mock.queueV2Url(endpoint)}/status/${id}`)).body;
      return [status.workerId, status.output?.envCheck?.T];
    };
    const [first, sawFirst] = await job('before-rotation');
    expect([typeof first, sawFirst]).toEqual(['string', true]);
    await v2('PATCH', `/${made.body.id}`, { value: 'after-rotation' });
    expect(await job('before-rotation')).toEqual([first, true]);
    expect(await workerSees('boot_time', 'after-rotation')).toBe(true);
  });
});

describe('RESTV2-SECRET-007 per account', () => {
  it('another account\'s secret answers exactly like an absent one, and its name is free there', async () => {
    const mine = await v2('POST', '', { name: 'per-account', value: 'a-value' });
    const absent = await v2('GET', '/zzzzzzzzzzzzzz', undefined, KEY_B);
    const foreign = await v2('GET', `/${mine.body.id}`, undefined, KEY_B);
    expect(foreign).toEqual(absent);
    expect(await v2('PATCH', `/${mine.body.id}`, { value: 'b' }, KEY_B)).toEqual(await v2('PATCH', '/zzzzzzzzzzzzzz', { value: 'b' }, KEY_B));
    expect(await v2('DELETE', `/${mine.body.id}`, undefined, KEY_B)).toEqual(await v2('DELETE', '/zzzzzzzzzzzzzz', undefined, KEY_B));
    expect((await v2('GET', '?name=per-account', undefined, KEY_B)).body).toEqual({ secrets: [] });
    expect((await v2('POST', '', { name: 'per-account', value: 'b-value' }, KEY_B)).status).toBe(201);
    expect(await workerSees('per-account', 'a-value', KEY_B), 'B\'s worker resolves B\'s secret, not A\'s').toBe(false);
    expect((await v2('GET', `/${mine.body.id}`)).status).toBe(200);
  });
});

describe('RESTV2-SECRET-007 --state', () => {
  it('REST v2 secrets come back after a restart, metadata and value (workers still resolve it)', async () => {
    const made = await v2('POST', '', { name: 'kept', value: 'kept-value', description: 'kept over restarts' });
    await mock.close();
    await start();
    expect((await v2('GET', `/${made.body.id}`)).body).toEqual(made.body);
    expect(await workerSees('kept', 'kept-value')).toBe(true);
  });
});
