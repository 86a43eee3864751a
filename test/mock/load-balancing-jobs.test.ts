// QUEUE-LB-001/002: a load-balancing endpoint has no job operations (specs/queue-v2 x-load-balancing-endpoints),
// whichever surface created it; a queue endpoint beside it is unaffected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT } from '../../src/mock/account-names.js';
import { Harness } from './harness.js';

const OTHER = 'other-account-key';
const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
let h: Harness;
let viaRestV2: string;
let viaGraphql: string;

beforeAll(async () => {
  h = await Harness.start({ apiKeys: [{ key: 'test-key', scopes: [...ALL] }, { key: OTHER, scopes: [...ALL], account: 'acme' }] });
  const created = await h.request('POST', `${h.mock.restV2Url}/serverless`, {
    body: { name: 'lb', type: 'LOAD_BALANCER', image: 'x:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'REQUEST_COUNT', requestCount: 4 } },
  });
  expect(created.status).toBe(201);
  viaRestV2 = created.body.id;
  const templateId = await h.template();
  const saved = await h.graphql(`mutation { saveEndpoint(input: { name: "lb-gql", templateId: "${templateId}", gpuIds: "ADA_24", type: "LB" }) { id } }`);
  viaGraphql = saved.body.data.saveEndpoint.id;
});
afterAll(() => h.close());

const JOB = '00000000-0000-4000-8000-000000000000-u1';
const OPERATIONS: [string, string, unknown?][] = [
  ['POST', '/run', { input: {} }], ['POST', '/runsync', { input: {} }], ['GET', `/status/${JOB}`], ['GET', `/status-sync/${JOB}`],
  ['GET', `/stream/${JOB}`], ['POST', `/cancel/${JOB}`], ['POST', `/retry/${JOB}`], ['POST', '/purge-queue'], ['GET', '/health'],
  ['GET', '/requests'], ['POST', '/openai/v1/chat/completions', { model: 'm', messages: [] }], ['GET', '/openai/v1/models'],
];

describe('QUEUE-LB-001/002: job operations on a load-balancing endpoint', () => {
  it.each(OPERATIONS)('%s %s is refused 400 naming the endpoint as load-balancing (REST v2 and GraphQL endpoints)', async (method, path, body) => {
    for (const id of [viaRestV2, viaGraphql]) {
      const res = await h.queue(id, method, path, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`endpoint ${id} is a load-balancing endpoint: it has no job operations; send HTTP requests to its workers at its own address (${id}.api.runpod.ai/<path>)`);
      expect(res.headers.get('retry-after')).toBeNull();
    }
  });

  it('creates no job and counts nothing: the refusals stay out of every rate window', async () => {
    // /purge-queue allows 2 per 10 s: a third refusal still answers 400, never 429.
    for (let i = 0; i < 3; i++) expect((await h.queue(viaRestV2, 'POST', '/purge-queue')).status).toBe(400);
    expect(h.mock.core.forAccount(DEFAULT_ACCOUNT).engine.activeJobs(viaRestV2)).toEqual([]);
  });

  it('authentication and ownership come first: no key 401, another account 404 as an absent endpoint', async () => {
    expect((await h.queue(viaRestV2, 'POST', '/run', { input: {} }, null)).status).toBe(401);
    const foreign = await h.queue(viaRestV2, 'POST', '/run', { input: {} }, OTHER);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(`endpoint ${viaRestV2} not found`);
  });

  it('a queue endpoint of the same account still runs jobs', async () => {
    const queue = await h.endpoint();
    expect((await h.queue(queue, 'POST', '/run', { input: {} })).status).toBe(200);
  });
});
