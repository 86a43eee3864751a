/**
 * The three clients against the reference mock (virtual clock: the clients' poll sleeps advance mock
 * time, so ttl, retention and job durations pass without real waiting).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, startMock, type RunningMock } from '../../src/mock/index.js';
import {
  AuthenticationError,
  BadRequestError,
  GraphQLResponseError,
  JobExpiredError,
  NotFoundError,
  ValidationError,
  createGraphqlClient,
  createQueueClient,
  createRestClient,
  type QueueClient,
} from '../../src/clients/index.js';

let mock: RunningMock;
let endpointId: string;
const advance = async (ms: number) => {
  mock.clock.advance(ms);
};

beforeAll(async () => {
  mock = await startMock({ clock: 'virtual', rateLimits: false });
  const rest = createRestClient({ baseUrl: mock.restV1Url, apiKey: DEFAULT_API_KEY, validateResponses: true });
  const template = await rest.templates.create({ name: `tpl-${Date.now()}`, imageName: 'runpod/worker:1', isServerless: true, volumeInGb: 0, containerDiskInGb: 5 });
  const endpoint = await rest.endpoints.create({ templateId: template.id, name: 'ep', gpuTypeIds: ['NVIDIA A40'], workersMin: 0, workersMax: 1 });
  endpointId = endpoint.id;
});
afterAll(async () => {
  await mock?.close();
});

type MockInput = { prompt: string; mock?: { durationMs?: number; output?: unknown; error?: string; stream?: unknown[] } };

function queue(): QueueClient<MockInput, unknown, unknown> {
  const base = mock.queueV2Url(endpointId).replace(new RegExp(`/${endpointId}/?$`), '');
  return createQueueClient<MockInput, unknown, unknown>({
    endpointBaseUrl: base,
    endpointId,
    apiKey: DEFAULT_API_KEY,
    validateResponses: true,
    sleep: advance,
    poll: { sleep: advance, pollIntervalMs: 200 },
  });
}

describe('clients against the reference mock', () => {
  it('REST: registry auth create/get/list/delete with validated responses; password never returned', async () => {
    const rest = createRestClient({ baseUrl: mock.restV1Url, apiKey: DEFAULT_API_KEY, validateResponses: true });
    const created = await rest.containerRegistryAuths.create({ name: `reg-${Date.now()}`, username: 'u', password: 'registry-pw-1' });
    expect(JSON.stringify(created)).not.toContain('registry-pw-1');
    expect((await rest.containerRegistryAuths.get(created.id)).name).toBe(created.name);
    expect((await rest.containerRegistryAuths.list()).some((a) => a.id === created.id)).toBe(true);
    await rest.containerRegistryAuths.delete(created.id);
    await expect(rest.containerRegistryAuths.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rest.containerRegistryAuths.create({ name: created.name, username: 'u', password: 'p' })).resolves.toBeDefined();
    await expect(rest.containerRegistryAuths.create({ name: created.name, username: 'u', password: 'p' })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('REST: wrong key → AuthenticationError', async () => {
    const rest = createRestClient({ baseUrl: mock.restV1Url, apiKey: 'wrong-key-123' });
    await expect(rest.pods.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('queue: runAndWait completes with the output', async () => {
    const record = await queue().runAndWait({ input: { prompt: 'a', mock: { durationMs: 1000, output: { text: 'hi' } } } });
    expect(record.status).toBe('COMPLETED');
    expect(record.output).toEqual({ text: 'hi' });
  });

  it('queue: failed job → FAILED record; throwOnFailure → JobFailedError; /retry requeues', async () => {
    const q = queue();
    const job = await q.run({ input: { prompt: 'a', mock: { durationMs: 500, error: 'boom' } } });
    const failed = await q.waitFor(job.id);
    expect(failed.status).toBe('FAILED');
    const retried = await q.retry(job.id);
    // Same id; the spec text says IN_QUEUE, the mock may already have handed it to an idle worker.
    expect(retried.id).toBe(job.id);
    expect(['IN_QUEUE', 'IN_PROGRESS']).toContain(retried.status);
    await expect(q.waitFor(job.id, { throwOnFailure: true })).rejects.toMatchObject({ name: 'JobFailedError', jobStatus: 'FAILED' });
  });

  it('queue: result gone after retention → JobExpiredError', async () => {
    const q = queue();
    const job = await q.run({ input: { prompt: 'a', mock: { durationMs: 100 } } });
    await q.waitFor(job.id);
    await advance(31 * 60_000);
    await expect(q.waitFor(job.id)).rejects.toBeInstanceOf(JobExpiredError);
  });

  it('queue: stream yields the handler chunks in order', async () => {
    const q = queue();
    const job = await q.run({ input: { prompt: 'a', mock: { durationMs: 1000, stream: ['a', 'b', 'c'] } } });
    const chunks: unknown[] = [];
    for await (const chunk of q.stream(job.id)) chunks.push(chunk.output);
    expect(chunks).toEqual(['a', 'b', 'c']);
  });

  it('queue: ttl below 10 s is rejected locally; health and cancel work', async () => {
    const q = queue();
    await expect(q.run({ input: { prompt: 'a' }, policy: { ttl: 5 } })).rejects.toBeInstanceOf(ValidationError);
    const job = await q.run({ input: { prompt: 'a', mock: { durationMs: 60_000 } } });
    expect((await q.cancel(job.id)).status).toBe('CANCELLED');
    const health = await q.health();
    expect(health.jobs).toBeDefined();
  });

  it('GraphQL: saveTemplate, duplicate name → GraphQLResponseError, secrets', async () => {
    const gql = createGraphqlClient({ graphqlUrl: mock.graphqlUrl, apiKey: DEFAULT_API_KEY });
    const name = `gql-${Date.now()}`;
    const saved = await gql.saveTemplate({ name, imageName: 'img:1', containerDiskInGb: 5, volumeInGb: 0 });
    expect(saved.name).toBe(name);
    const error = await gql.saveTemplate({ name, imageName: 'img:1', containerDiskInGb: 5, volumeInGb: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    expect((await gql.podTemplate(saved.id))?.id).toBe(saved.id);
    await gql.deleteTemplate(name);
    const secret = await gql.secretCreate({ name: `s${Date.now()}`, value: 'top-secret-value' });
    expect(JSON.stringify(secret)).not.toContain('top-secret-value');
    await gql.secretDelete(secret.id);
  });
});
