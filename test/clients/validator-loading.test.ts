// Per-surface lazy loading of the generated validators: a client imports its own surface's validators on
// the first validated call and never another surface's (a queue or REST v1 client never pays for REST v2's).
// Each generated standalone validator module is wrapped so that importing it is recorded.
import { describe, expect, it, vi } from 'vitest';
import { createQueueClient, createRestClient, createWebhookHandler, createGraphqlClient, type FetchLike } from '../../src/clients/index.js';
import { createRestV2Client } from '../../src/clients/rest-v2/index.js';
import { loadDefaultValidator } from '../../src/validation/surface-loader.js';

const imported = vi.hoisted(() => new Set<string>());
vi.mock('../../generated/validators/rest-v1.js', async (original) => (imported.add('rest-v1'), original()));
vi.mock('../../generated/validators/queue-v2.js', async (original) => (imported.add('queue-v2'), original()));
vi.mock('../../generated/validators/rest-v2.js', async (original) => (imported.add('rest-v2'), original()));
vi.mock('../../generated/validators/index.js', async (original) => (imported.add('all surfaces'), original()));

const API_KEY = 'rpa_LOADING_abcdefghij';
const json = (body: unknown, status = 200): FetchLike => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const loadedNow = () => [...imported].sort();

// One sequence: the module cache is per test file, so each step sees what the steps before it loaded.
describe('clients load only their own surface validators', () => {
  it('nothing is loaded before the first validated call, nor by a client with validation off', async () => {
    const queue = createQueueClient({ endpointBaseUrl: 'http://127.0.0.1:9/v2', endpointId: 'ep-1', apiKey: API_KEY, validateRequests: false, fetch: json({ id: 'job-1', status: 'IN_QUEUE' }) });
    expect((await queue.status('job-1')).status).toBe('IN_QUEUE');
    expect(loadedNow()).toEqual([]);
  });

  it('GraphQL: checks variables against the SDL, loads no Ajv validators', async () => {
    const gql = createGraphqlClient({ graphqlUrl: 'http://127.0.0.1:9/graphql', apiKey: API_KEY, fetch: json({ data: { deleteTemplate: null } }) });
    await gql.deleteTemplate('my-template');
    expect(loadedNow()).toEqual([]);
  });

  it('queue v2: a validated call and a checked webhook load queue v2 validators only', async () => {
    const queue = createQueueClient({ endpointBaseUrl: 'http://127.0.0.1:9/v2', endpointId: 'ep-1', apiKey: API_KEY, validateResponses: true, fetch: json({ id: 'job-1', status: 'IN_QUEUE' }) });
    expect((await queue.status('job-1')).status).toBe('IN_QUEUE');
    const hook = createWebhookHandler({ onJob: () => undefined });
    const rejected = await hook.fetch(new Request('http://127.0.0.1:9/hook', { method: 'POST', body: JSON.stringify({ id: 'job-1', status: 'DONE' }) }));
    expect(rejected.status).toBe(400); // the spec check ran: DONE is no job status
    expect(loadedNow()).toEqual(['queue-v2']);
  });

  it('REST v1: a validated call adds REST v1 validators, not REST v2 ones', async () => {
    const rest = createRestClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: API_KEY, fetch: json({ id: 'pod-1' }) });
    expect(await rest.pods.get('pod-1')).toEqual({ id: 'pod-1' });
    expect(loadedNow()).toEqual(['queue-v2', 'rest-v1']);
  });

  it('REST v2: loads REST v2 validators, on its own first validated call only', async () => {
    const v2 = createRestV2Client({ baseUrl: 'http://127.0.0.1:9', apiKey: API_KEY, fetch: json({ id: 'pod-1' }) });
    expect(await v2.pods.get('pod-1')).toEqual({ id: 'pod-1' });
    expect(loadedNow()).toEqual(['queue-v2', 'rest-v1', 'rest-v2']);
  });

  it('a surface validator refuses questions about another surface', async () => {
    const queueOnly = await loadDefaultValidator('queueV2');
    expect(() => queueOnly.validateRequest('restV1', 'getPod', { path: { podId: 'pod-1' } })).toThrow(/queueV2 validators were asked about restV1/);
    expect(await loadDefaultValidator('queueV2')).toBe(queueOnly);
  });
});
