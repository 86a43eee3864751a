// Two accounts seen through clients nobody here wrote and through ours: the official runpod-sdk (queue v2)
// and this package's REST v1 / REST v2 / GraphQL / queue clients, each under two keys of two accounts.
// Account B reaches none of account A's objects and gets the absent-object answer for them.
import runpodSdk from 'runpod-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphqlClient, createQueueClient, createRestClient, NotFoundError } from '../../src/clients/index.js';
import { createRestV2Client } from '../../src/clients/rest-v2/index.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';

const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
const KEY_A = 'sdk-key-a';
const KEY_B = 'sdk-key-b';
let mock: RunningMock;
let endpointA: string;
let templateA: string;

beforeAll(async () => {
  mock = await startMock({ clock: 'virtual', rateLimits: false, apiKeys: [{ key: KEY_A, scopes: [...ALL], account: 'alpha' }, { key: KEY_B, scopes: [...ALL], account: 'beta' }] });
  const rest = createRestClient({ baseUrl: mock.restV1Url, apiKey: KEY_A, validateResponses: true });
  templateA = (await rest.templates.create({ name: 'base', imageName: 'repo/a:1', isServerless: true, volumeInGb: 0, containerDiskInGb: 5 })).id;
  endpointA = (await rest.endpoints.create({ templateId: templateA, name: 'ep-a', gpuTypeIds: ['NVIDIA A40'], workersMin: 0, workersMax: 1 })).id;
});
afterAll(() => mock.close());

const sdk = (key: string) => runpodSdk(key, { baseUrl: `${mock.url}/v2` }).endpoint(endpointA)!;

describe('ISOLATION-JOB-001 runpod-sdk 1.1.2 under two keys', () => {
  it('A runs and reads its job; B\'s run, status and health on A\'s endpoint fail as on an endpoint that does not exist', async () => {
    const job = await sdk(KEY_A).run({ input: { mock: { durationMs: 0, output: 'mine' } } });
    expect(job.status).toBe('IN_QUEUE');
    mock.clock.advance(10);
    expect(await sdk(KEY_A).status(job.id)).toMatchObject({ id: job.id, status: 'COMPLETED', output: 'mine' });
    const absent = runpodSdk(KEY_B, { baseUrl: `${mock.url}/v2` }).endpoint('zzzzzzzzzzzzzz')!;
    for (const [name, foreign, missing] of [
      ['run', () => sdk(KEY_B).run({ input: {} }), () => absent.run({ input: {} })],
      ['status', () => sdk(KEY_B).status(job.id), () => absent.status(job.id)],
      ['health', () => sdk(KEY_B).health(), () => absent.health()],
    ] as const) {
      const [f, m] = await Promise.allSettled([(foreign as () => Promise<unknown>)(), (missing as () => Promise<unknown>)()]);
      const shown = (r: PromiseSettledResult<unknown>) => JSON.stringify(r.status === 'rejected' ? String((r.reason as Error).message) : r.value).replaceAll(endpointA, '<id>').replaceAll('zzzzzzzzzzzzzz', '<id>');
      expect(shown(f), name).toBe(shown(m));
      expect(shown(f), name).not.toContain('mine');
    }
    expect(await sdk(KEY_A).status(job.id)).toMatchObject({ status: 'COMPLETED', output: 'mine' });
  });
});

describe('ISOLATION-READ-001 ISOLATION-LIST-001 this package\'s clients under two keys', () => {
  it('REST v1: B gets NotFoundError for A\'s template and endpoint and lists none of them', async () => {
    const restB = createRestClient({ baseUrl: mock.restV1Url, apiKey: KEY_B, validateResponses: true, maxRetries: 0 });
    await expect(restB.templates.get(templateA)).rejects.toBeInstanceOf(NotFoundError);
    await expect(restB.endpoints.get(endpointA)).rejects.toBeInstanceOf(NotFoundError);
    expect(await restB.templates.list()).toEqual([]);
    // B may own a template of the same name.
    expect((await restB.templates.create({ name: 'base', imageName: 'repo/b:1', isServerless: true, volumeInGb: 0, containerDiskInGb: 5 })).name).toBe('base');
  });

  it('REST v2: B gets NotFoundError for A\'s endpoint and template; its lists hold only its own', async () => {
    const v2B = createRestV2Client({ baseUrl: mock.url, apiKey: KEY_B, sleep: async () => undefined });
    await expect(v2B.serverless.get(endpointA)).rejects.toBeInstanceOf(NotFoundError);
    await expect(v2B.templates.get(templateA)).rejects.toBeInstanceOf(NotFoundError);
    expect((await v2B.serverless.list()).map((e: { id: string }) => e.id)).toEqual([]);
    expect((await v2B.templates.list()).map((t: { name: string }) => t.name)).not.toContain(undefined);
    expect(JSON.stringify(await v2B.templates.list())).not.toContain(templateA);
  });

  it('GraphQL: myself names each key\'s own account and only its endpoints', async () => {
    const query = 'query { myself { id endpoints { id } } }';
    const a = await createGraphqlClient({ graphqlUrl: mock.graphqlUrl, apiKey: KEY_A }).request<{ myself: { id: string; endpoints: { id: string }[] } }, Record<string, never>>(query, {});
    const b = await createGraphqlClient({ graphqlUrl: mock.graphqlUrl, apiKey: KEY_B }).request<{ myself: { id: string; endpoints: { id: string }[] } }, Record<string, never>>(query, {});
    expect(a.myself).toEqual({ id: 'alpha', endpoints: [{ id: endpointA }] });
    expect(b.myself).toEqual({ id: 'beta', endpoints: [] });
  });

  it('queue client: B\'s submission to A\'s endpoint is a NotFoundError', async () => {
    const base = mock.queueV2Url(endpointA).replace(new RegExp(`/${endpointA}$`), '');
    const queueB = createQueueClient({ endpointBaseUrl: base, endpointId: endpointA, apiKey: KEY_B, maxRetries: 0 });
    await expect(queueB.run({ input: {} })).rejects.toBeInstanceOf(NotFoundError);
  });
});
