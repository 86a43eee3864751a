import { afterEach, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import {
  AuthenticationError,
  BadRequestError,
  ContractViolationError,
  InternalServerError,
  JobExpiredError,
  JobFailedError,
  NotFoundError,
  RateLimitError,
  RequestAbortedError,
  ValidationError,
  createQueueClient,
  clampWaitMs,
  QUEUE_OPERATIONS,
  type QueueClientOptions,
} from '../../src/clients/index.js';
import { recordingSleep, refusedPortUrl, startFakeServer, type FakeServer, type Route } from './fake-server.js';

const API_KEY = 'rpa_TESTKEY_0123456789';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(route: Route, extra: Partial<QueueClientOptions> = {}) {
  server = await startFakeServer(route);
  const { sleep, delays } = recordingSleep();
  const queue = createQueueClient<{ prompt: string }, { text: string }, string>({
    endpointBaseUrl: `${server.url}/v2`,
    endpointId: 'ep-1',
    apiKey: API_KEY,
    sleep,
    poll: { sleep },
    ...extra,
  });
  return { queue, server, delays };
}

const job = (status: string, more: Record<string, unknown> = {}) => ({ id: 'job-1-u1', status, ...more });

describe('queue v2 operation table matches the spec', () => {
  it('every queueV2 operation has the same method and path', () => {
    const spec = operations.filter((o) => o.surface === 'queueV2').map((o) => `${o.operationId} ${o.method} ${o.path}`).sort();
    const ours = Object.values(QUEUE_OPERATIONS).map((o) => `${o.operationId} ${o.method} ${o.path}`).sort();
    expect(ours).toEqual(spec);
  });
});

describe('queue client methods', () => {
  it('run: POST /v2/{endpointId}/run with Bearer key and JSON body', async () => {
    const { queue, server } = await client(() => ({ body: job('IN_QUEUE') }));
    const record = await queue.run({ input: { prompt: 'cat' }, policy: { ttl: 60_000 } });
    expect(record).toEqual({ id: 'job-1-u1', status: 'IN_QUEUE' });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.pathname).toBe('/v2/ep-1/run');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.json).toEqual({ input: { prompt: 'cat' }, policy: { ttl: 60_000 } });
  });

  it('runSync: wait clamped to 1000–300000 and sent as ?wait', async () => {
    const { queue, server } = await client(() => ({ body: job('COMPLETED', { output: { text: 'hi' } }) }));
    const record = await queue.runSync({ input: { prompt: 'x' } }, { waitMs: 10 });
    expect(record.output?.text).toBe('hi');
    await queue.runSync({ input: { prompt: 'x' } }, { waitMs: 1e9 });
    await queue.runSync({ input: { prompt: 'x' } });
    expect(server.requests.map((r) => r.url)).toEqual(['/v2/ep-1/runsync?wait=1000', '/v2/ep-1/runsync?wait=300000', '/v2/ep-1/runsync']);
    expect([clampWaitMs(999), clampWaitMs(5000), clampWaitMs(Infinity)]).toEqual([1000, 5000, 300000]);
  });

  it('status, statusSync, cancel, retry address the job id', async () => {
    const { queue, server } = await client((req) => ({ body: job(req.pathname.includes('cancel') ? 'CANCELLED' : 'IN_QUEUE') }));
    await queue.status('job-1-u1');
    await queue.statusSync('job-1-u1', { waitMs: 2000 });
    expect((await queue.cancel('job-1-u1')).status).toBe('CANCELLED');
    await queue.retry('job-1-u1');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v2/ep-1/status/job-1-u1',
      'GET /v2/ep-1/status-sync/job-1-u1?wait=2000',
      'POST /v2/ep-1/cancel/job-1-u1',
      'POST /v2/ep-1/retry/job-1-u1',
    ]);
  });

  it('purgeQueue, health, requests, readStream', async () => {
    const bodies: Record<string, unknown> = {
      '/v2/ep-1/purge-queue': { removed: 2, status: 'completed' },
      '/v2/ep-1/health': { jobs: { completed: 1, failed: 0, inProgress: 0, inQueue: 2, retried: 0 }, workers: { idle: 0, running: 1 } },
      '/v2/ep-1/requests': { requests: [{ id: 'a', status: 'IN_QUEUE', submittedAt: '2025-01-01T00:00:00Z' }] },
      '/v2/ep-1/stream/job-1-u1': { id: 'job-1-u1', status: 'IN_PROGRESS', stream: [{ output: 'A' }] },
    };
    const { queue } = await client((req) => ({ body: bodies[req.pathname] }));
    expect((await queue.purgeQueue()).removed).toBe(2);
    expect((await queue.health()).workers.running).toBe(1);
    expect((await queue.requests()).requests[0]?.id).toBe('a');
    expect((await queue.readStream('job-1-u1')).stream[0]?.output).toBe('A');
  });

  it('openai: keeps the slashes of the sub-path and returns the worker JSON', async () => {
    const { queue, server } = await client(() => ({ body: { choices: [{ text: 'ok' }] } }));
    const result = await queue.openai<{ choices: { text: string }[] }>('/v1/chat/completions', { model: 'm', messages: [] });
    expect(result.choices[0]?.text).toBe('ok');
    expect(server.requests[0]?.pathname).toBe('/v2/ep-1/openai/v1/chat/completions');
  });
});

describe('queue client errors', () => {
  const cases = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [404, NotFoundError],
    [500, InternalServerError],
  ] as const;
  for (const [status, cls] of cases) {
    it(`status() ${status} → ${cls.name} with operation id and job id`, async () => {
      const { queue } = await client(() => ({ status, body: { message: `failure ${status}` } }), { maxRetries: 0 });
      const error = await queue.status('job-9').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(cls);
      expect(error).toMatchObject({ status, operationId: 'getJobStatus', jobId: 'job-9', body: { message: `failure ${status}` } });
      expect(String(error)).not.toContain(API_KEY);
    });
  }

  it('run is retried on 429 honouring Retry-After', async () => {
    const { queue, server, delays } = await client((_req, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: { message: 'slow' } } : { body: job('IN_QUEUE') },
    );
    await queue.run({ input: { prompt: 'a' } });
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([1000]);
  });

  it('a 500 is not repeated for run, runsync, retry and purge-queue (the job may exist), but is for status', async () => {
    const { queue, server } = await client(() => ({ status: 500, body: { message: 'boom' } }), { maxRetries: 2 });
    const unsafe: Array<[string, () => Promise<unknown>]> = [
      ['/v2/ep-1/run', () => queue.run({ input: { prompt: 'a' } })],
      ['/v2/ep-1/runsync', () => queue.runSync({ input: { prompt: 'a' } })],
      ['/v2/ep-1/retry/job-1-u1', () => queue.retry('job-1-u1')],
      ['/v2/ep-1/purge-queue', () => queue.purgeQueue()],
    ];
    for (const [pathname, call] of unsafe) {
      const before = server.requests.length;
      await expect(call()).rejects.toBeInstanceOf(InternalServerError);
      expect(server.requests.slice(before).map((r) => r.pathname)).toEqual([pathname]);
    }
    const before = server.requests.length;
    await expect(queue.status('job-1-u1')).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests.length - before).toBe(3);
  });

  it('transport errors of job operations carry the operation and job id', async () => {
    const queue = createQueueClient({ endpointBaseUrl: `${await refusedPortUrl()}/v2`, endpointId: 'ep-1', apiKey: API_KEY, maxRetries: 0 });
    await expect(queue.status('job-7')).rejects.toMatchObject({ name: 'ConnectionError', operationId: 'getJobStatus', jobId: 'job-7' });
    const { queue: hanging } = await client(() => ({ hang: true }), { maxRetries: 0 });
    await expect(hanging.status('job-8', { timeoutMs: 20 })).rejects.toMatchObject({ name: 'TimeoutError', jobId: 'job-8' });
    const controller = new AbortController();
    const pending = hanging.cancel('job-9', { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ operationId: 'cancelJob', jobId: 'job-9' });
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('a held runsync is not cut by the client timeout: the attempt timeout is extended past the hold', async () => {
    // The server answers after 300 ms; the client-wide timeout is 100 ms.
    const { queue } = await client(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { body: job('COMPLETED') };
    }, { timeoutMs: 100, maxRetries: 0 });
    await expect(queue.runSync({ input: { prompt: 'a' } }, { waitMs: 1000 })).resolves.toMatchObject({ status: 'COMPLETED' });
    await expect(queue.status('job-1-u1')).rejects.toMatchObject({ name: 'TimeoutError' });
    // An explicit per-call timeout still wins over the hold.
    await expect(queue.runSync({ input: { prompt: 'a' } }, { waitMs: 1000, timeoutMs: 100 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('429 after the retries → RateLimitError with retryAfterMs', async () => {
    const { queue } = await client(() => ({ status: 429, headers: { 'retry-after': '2' }, body: { message: 'slow' } }), { maxRetries: 1 });
    await expect(queue.run({ input: { prompt: 'a' } })).rejects.toMatchObject({ name: 'RateLimitError', retryAfterMs: 2000 });
    await expect(queue.status('j')).rejects.toBeInstanceOf(RateLimitError);
  });

  it('per-call maxRetries overrides the client setting', async () => {
    const { queue, server } = await client(() => ({ status: 503, body: { message: 'busy' } }), { maxRetries: 5 });
    await expect(queue.health({ maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('QUEUE-TTL: ttl below 10 s fails locally with ValidationError listing /body/policy/ttl; nothing is sent', async () => {
    const { queue, server } = await client(() => ({ body: job('IN_QUEUE') }));
    const error = await queue.run({ input: { prompt: 'a' }, policy: { ttl: 5 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as ValidationError).issues.map((i) => i.path)).toContain('/body/policy/ttl');
    expect(server.requests).toHaveLength(0);
  });

  it('unknown body property and bad job id are rejected locally; validation can be switched off', async () => {
    const { queue, server } = await client(() => ({ body: job('IN_QUEUE') }));
    await expect(queue.run({ input: { prompt: 'a' }, extra: 1 } as never)).rejects.toMatchObject({ issues: [{ path: '/body/extra' }] });
    await expect(queue.status('bad id/..')).rejects.toBeInstanceOf(ValidationError);
    const loose = createQueueClient({ endpointBaseUrl: `${server.url}/v2`, endpointId: 'ep-1', apiKey: API_KEY, validateRequests: false });
    await loose.run({ input: {}, policy: { ttl: 5 } });
    expect(server.requests).toHaveLength(1);
  });

  it('validateResponses: a response outside the contract → ContractViolationError', async () => {
    const { queue } = await client(() => ({ body: { id: 'j', status: 'RUNNING' } }), { validateResponses: true });
    const error = await queue.status('j').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractViolationError);
    expect((error as ContractViolationError).issues[0]?.path).toBe('/body/status');
  });

  it('s3Config.accessSecret never appears in errors', async () => {
    const secret = 'AWS-SECRET-abcdef';
    const { queue } = await client((req) => ({ status: 400, body: { message: `bad config ${JSON.stringify(req.json)}` } }));
    const body = { input: { prompt: 'a' }, s3Config: { accessId: 'id', accessSecret: secret, bucketName: 'b', endpointUrl: 'https://s3.example.com' } };
    const error = await queue.run(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(String(error)).not.toContain(secret);
  });

  it('AbortSignal cancels an in-flight call', async () => {
    const { queue } = await client(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = queue.status('j', { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('requires endpointId, endpointBaseUrl and apiKey', () => {
    expect(() => createQueueClient({ endpointBaseUrl: 'http://x', endpointId: '', apiKey: 'k' })).toThrow(/endpointId/);
    expect(() => createQueueClient({ endpointBaseUrl: 'http://x', endpointId: 'e', apiKey: '' })).toThrow(/apiKey/);
  });
});

describe('waiting and streaming', () => {
  it('waitFor polls with backoff until COMPLETED and reports each status', async () => {
    const statuses = ['IN_QUEUE', 'IN_PROGRESS', 'IN_PROGRESS', 'COMPLETED'];
    const { queue, delays } = await client((_req, index) => ({ body: job(statuses[index] ?? 'COMPLETED', index >= 3 ? { output: { text: 'done' } } : {}) }));
    const seen: string[] = [];
    const record = await queue.waitFor('job-1-u1', { pollIntervalMs: 100, onStatus: (s) => seen.push(s.status) });
    expect(record.status).toBe('COMPLETED');
    expect(record.output?.text).toBe('done');
    expect(seen).toEqual(statuses);
    expect(delays).toEqual([100, 100, 150]);
  });

  it('waitFor: 404 after ttl/retention → JobExpiredError', async () => {
    const { queue } = await client((_req, index) => (index === 0 ? { body: job('IN_PROGRESS') } : { status: 404, body: { message: 'job not found' } }));
    const error = await queue.waitFor('job-1-u1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobExpiredError);
    expect(error).toMatchObject({ jobId: 'job-1-u1', lastStatus: 'IN_PROGRESS', status: 404 });
  });

  it('waitFor throwOnFailure → JobFailedError with the job error', async () => {
    const { queue } = await client(() => ({ body: job('FAILED', { error: 'CUDA out of memory' }) }));
    await expect(queue.waitFor('job-1-u1')).resolves.toMatchObject({ status: 'FAILED' });
    const error = await queue.waitFor('job-1-u1', { throwOnFailure: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error).toMatchObject({ jobStatus: 'FAILED', jobError: 'CUDA out of memory' });
  });

  it('runAndWait submits with /run then polls /status', async () => {
    const { queue, server } = await client((req) => ({ body: req.pathname.endsWith('/run') ? job('IN_QUEUE') : job('COMPLETED', { output: { text: 'y' } }) }));
    const record = await queue.runAndWait({ input: { prompt: 'p' } });
    expect(record.output?.text).toBe('y');
    expect(server.requests.map((r) => r.pathname)).toEqual(['/v2/ep-1/run', '/v2/ep-1/status/job-1-u1']);
  });

  it('stream yields chunks until COMPLETED', async () => {
    const reads = [
      { status: 'IN_PROGRESS', stream: [{ output: 'Hel' }] },
      { status: 'IN_PROGRESS', stream: [] },
      { status: 'COMPLETED', stream: [{ output: 'lo' }] },
    ];
    const { queue } = await client((_req, index) => ({ body: { id: 'job-1-u1', ...reads[index] } }));
    let text = '';
    for await (const chunk of queue.stream('job-1-u1')) text += chunk.output;
    expect(text).toBe('Hello');
  });

  it('stream surfaces a FAILED job as JobFailedError with the /status error', async () => {
    const { queue } = await client((req) =>
      req.pathname.includes('/stream/') ? { body: { id: 'job-1-u1', status: 'FAILED', stream: [] } } : { body: job('FAILED', { error: 'boom' }) },
    );
    const consume = async () => {
      for await (const _ of queue.stream('job-1-u1')) void _;
    };
    await expect(consume()).rejects.toMatchObject({ name: 'JobFailedError', jobError: 'boom' });
  });
});
