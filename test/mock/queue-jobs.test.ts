import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

const MIN = 60_000;

describe('queue v2 job lifecycle', () => {
  it('QUEUE-JOB-001 QUEUE-JOB-002 /run answers IN_QUEUE at once; the job waits while no worker can take it', async () => {
    const ep = await h.endpoint({ workersMax: 0 });
    const res = await h.queue(ep, 'POST', '/run', { input: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.stringMatching(/-u1$/), status: 'IN_QUEUE' });
    await h.advance(10 * MIN);
    expect((await h.status(ep, res.body.id)).body.status).toBe('IN_QUEUE');
  });

  it('QUEUE-SYNC-001 QUEUE-SYNC-006 /runsync ids start with sync- and the answer waits for completion', async () => {
    const ep = await h.endpoint();
    const pending = h.queue(ep, 'POST', '/runsync', { input: { mock: { durationMs: 2_000, output: { ok: 1 } } } });
    await h.untilOpen(1);
    await h.advance(2_000);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^sync-.*-u1$/), status: 'COMPLETED', output: { ok: 1 }, executionTime: 2_000 });
  });

  it('QUEUE-SYNC-002 QUEUE-SYNC-005 /runsync answers the in-progress record when wait runs out; /status-sync continues', async () => {
    const ep = await h.endpoint();
    const pending = h.request('POST', `${h.mock.queueV2Url(ep)}/runsync?wait=1000`, { body: { input: { mock: { durationMs: 5_000 } } } });
    await h.untilOpen(1);
    await h.advance(1_000);
    const first = await pending;
    expect(first.body.status).toBe('IN_PROGRESS');
    const next = h.request('GET', `${h.mock.queueV2Url(ep)}/status-sync/${first.body.id}?wait=300000`);
    await h.untilOpen(1);
    await h.advance(4_000);
    expect((await next).body).toMatchObject({ id: first.body.id, status: 'COMPLETED' });
  });

  it('QUEUE-JOB-008 a failing handler ends FAILED with its error', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { error: 'Invalid parameter: prompt', durationMs: 10 } });
    await h.advance(10);
    expect((await h.status(ep, id)).body).toMatchObject({ status: 'FAILED', error: 'Invalid parameter: prompt' });
  });

  it('a malformed input.mock fails the job, not the request', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 'slow' } });
    await h.advance(1);
    expect((await h.status(ep, id)).body).toMatchObject({ status: 'FAILED', error: expect.stringContaining('durationMs') });
  });

  it('QUEUE-ERROR-001 QUEUE-JOB-010 QUEUE-ERROR-002 unknown endpoint → 404, unknown job → 404, malformed job id → 400', async () => {
    expect((await h.queue('nope', 'POST', '/run', { input: {} })).status).toBe(404);
    const ep = await h.endpoint();
    expect((await h.status(ep, 'no-such-job-u1')).status).toBe(404);
    expect((await h.status(ep, 'bad%20id')).status).toBe(400);
  });
});

describe('ttl', () => {
  it('QUEUE-TTL-005 a job is deleted when its ttl expires, even while running; later status → 404', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 60_000 } }, { policy: { ttl: 10_000 } });
    await h.advance(9_999);
    expect((await h.status(ep, id)).body.status).toBe('IN_PROGRESS');
    await h.advance(1);
    expect((await h.status(ep, id)).status).toBe(404);
    const health = await h.queue(ep, 'GET', '/health');
    expect(health.body.workers.running).toBe(0);
  });

  it('QUEUE-TTL-005 a retried job keeps the ttl of its original submission', async () => {
    const ep = await h.endpoint({ workersMax: 1 });
    const id = await h.run(ep, { mock: { failTimes: 1, durationMs: 1_000 } }, { policy: { ttl: 10_000 } });
    // Takes the only worker once the first job fails, so the retried job waits in the queue until its ttl ends.
    await h.run(ep, { mock: { durationMs: 60_000 } });
    await h.advance(1_000);
    expect((await h.status(ep, id)).body.status).toBe('FAILED');
    await h.advance(4_000);
    expect((await h.queue(ep, 'POST', `/retry/${id}`)).body.status).toBe('IN_QUEUE');
    await h.advance(4_999);
    expect((await h.status(ep, id)).body.status).toBe('IN_QUEUE');
    await h.advance(1);
    expect((await h.status(ep, id)).status).toBe(404);
  });

  it('QUEUE-TTL-005 the ttls of ended jobs are dropped: memory stays bounded by the stored jobs', async () => {
    const ep = await h.endpoint({ workersMax: 10 });
    const engine = h.mock.core.engine;
    for (let i = 0; i < 3_000; i++) engine.submit(ep, 'run', { input: { mock: { durationMs: 1 } } });
    await h.advance(1_000);
    expect(engine.health(ep).jobs.completed).toBe(3_000);
    expect(engine.ttlEntries).toBeLessThan(2_048);
  });

  it('QUEUE-TTL-006 ttl counts queue time: a 7-day ttl job waiting 2 days has 5 days left', async () => {
    const ep = await h.endpoint({ workersMax: 0 });
    const day = 24 * 60 * MIN;
    const id = await h.run(ep, { mock: { durationMs: 6 * day } }, { policy: { ttl: 7 * day, executionTimeout: 7 * day } });
    await h.advance(2 * day);
    await h.rest('PATCH', `/endpoints/${ep}`, { workersMax: 1 });
    await h.advance(5 * day - 1);
    expect((await h.status(ep, id)).body.status).toBe('IN_PROGRESS');
    await h.advance(1);
    expect((await h.status(ep, id)).status).toBe(404);
  });

  it.each([
    [9_999, 400],
    [10_000, 200],
    [604_800_000, 200],
    [604_800_001, 400],
  ])('QUEUE-TTL-001 QUEUE-TTL-002 policy.ttl %i → %i', async (ttl, status) => {
    const ep = await h.endpoint();
    const res = await h.queue(ep, 'POST', '/run', { input: {}, policy: { ttl } });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.errors).toContainEqual(expect.objectContaining({ path: '/body/policy/ttl' }));
  });
});

describe('executionTimeout', () => {
  it('QUEUE-EXEC-004 a job running longer than executionTimeout ends TIMED_OUT at the limit', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 20_000 } }, { policy: { executionTimeout: 5_000 } });
    await h.advance(4_999);
    expect((await h.status(ep, id)).body.status).toBe('IN_PROGRESS');
    await h.advance(1);
    expect((await h.status(ep, id)).body).toMatchObject({ status: 'TIMED_OUT', executionTime: 5_000 });
  });

  it('QUEUE-EXEC-005 queue time does not count against executionTimeout', async () => {
    const ep = await h.endpoint({ workersMax: 0 });
    const id = await h.run(ep, { mock: { durationMs: 4_000 } }, { policy: { executionTimeout: 5_000 } });
    await h.advance(60_000);
    await h.rest('PATCH', `/endpoints/${ep}`, { workersMax: 1 });
    await h.advance(4_000);
    expect((await h.status(ep, id)).body).toMatchObject({ status: 'COMPLETED', delayTime: 60_000 });
  });

  it.each([[4_999, 400], [5_000, 200], [604_800_001, 400]])('QUEUE-EXEC-001 QUEUE-EXEC-002 policy.executionTimeout %i → %i', async (executionTimeout, status) => {
    const ep = await h.endpoint();
    expect((await h.queue(ep, 'POST', '/run', { input: {}, policy: { executionTimeout } })).status).toBe(status);
  });
});

describe('result retention', () => {
  it('QUEUE-RETENTION-001 QUEUE-RETENTION-003 /run results stay 30 minutes after completion (ttl aside), then 404', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 0 } }, { policy: { ttl: 10_000 } });
    await h.advance(30 * MIN - 1);
    expect((await h.status(ep, id)).body.status).toBe('COMPLETED');
    await h.advance(1);
    expect((await h.status(ep, id)).status).toBe(404);
  });

  it('QUEUE-RETENTION-002 /runsync results stay 1 minute after completion, then 404', async () => {
    const ep = await h.endpoint();
    const res = await h.queue(ep, 'POST', '/runsync', { input: { mock: { durationMs: 0 } } });
    expect(res.body.status).toBe('COMPLETED');
    await h.advance(MIN - 1);
    expect((await h.status(ep, res.body.id)).status).toBe(200);
    await h.advance(1);
    expect((await h.status(ep, res.body.id)).status).toBe(404);
  });
});

describe('/retry', () => {
  it('QUEUE-RETRY-001 QUEUE-RETRY-002 requeues a FAILED job with the same id and input, clears output/error, counts retries', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { failTimes: 1, durationMs: 10, output: 'second time' } });
    await h.advance(10);
    expect((await h.status(ep, id)).body.status).toBe('FAILED');
    const retry = await h.queue(ep, 'POST', `/retry/${id}`);
    expect(retry.body).toEqual({ id, status: 'IN_QUEUE' });
    const queued = await h.status(ep, id);
    expect(queued.body.error).toBeUndefined();
    await h.advance(10);
    expect((await h.status(ep, id)).body).toMatchObject({ id, status: 'COMPLETED', output: 'second time', retries: 1 });
    expect((await h.queue(ep, 'GET', '/health')).body.jobs.retried).toBe(1);
  });

  it('QUEUE-EXEC-004 requeues a TIMED_OUT job', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 10_000 } }, { policy: { executionTimeout: 5_000 } });
    await h.advance(5_000);
    expect((await h.queue(ep, 'POST', `/retry/${id}`)).body.status).toBe('IN_QUEUE');
  });

  it('QUEUE-RETRY-003 refuses jobs that are not FAILED or TIMED_OUT with 400', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 10 } });
    expect((await h.queue(ep, 'POST', `/retry/${id}`)).status).toBe(400);
    await h.advance(10);
    expect((await h.queue(ep, 'POST', `/retry/${id}`)).status).toBe(400);
  });

  it('QUEUE-RETENTION-004 an expired job cannot be retried (404)', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { error: 'x', durationMs: 0 } });
    await h.advance(30 * MIN);
    expect((await h.queue(ep, 'POST', `/retry/${id}`)).status).toBe(404);
  });
});

describe('/cancel', () => {
  it('QUEUE-CANCEL-001 cancels a queued job', async () => {
    const ep = await h.endpoint({ workersMax: 0 });
    const id = await h.run(ep);
    const res = await h.queue(ep, 'POST', `/cancel/${id}`);
    expect(res.body).toMatchObject({ id, status: 'CANCELLED' });
    expect((await h.queue(ep, 'GET', '/health')).body.jobs.inQueue).toBe(0);
  });

  it('QUEUE-CANCEL-002 cancels a running job and frees its worker for the next one', async () => {
    const ep = await h.endpoint();
    const first = await h.run(ep, { mock: { durationMs: 60_000 } });
    const second = await h.run(ep, { mock: { durationMs: 10 } });
    expect((await h.status(ep, second)).body.status).toBe('IN_QUEUE');
    expect((await h.queue(ep, 'POST', `/cancel/${first}`)).body.status).toBe('CANCELLED');
    expect((await h.status(ep, second)).body.status).toBe('IN_PROGRESS');
  });

  it('QUEUE-CANCEL-003 cancel of a terminal job answers 200 with the unchanged record', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 0, output: 7 } });
    await h.advance(0);
    const res = await h.queue(ep, 'POST', `/cancel/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'COMPLETED', output: 7 });
  });
});

describe('/purge-queue', () => {
  it('QUEUE-PURGE-001 QUEUE-PURGE-002 removes queued jobs only and answers {removed, status: "completed"}', async () => {
    const ep = await h.endpoint();
    const running = await h.run(ep, { mock: { durationMs: 60_000 } });
    const queued = [await h.run(ep), await h.run(ep)];
    const res = await h.queue(ep, 'POST', '/purge-queue');
    expect(res.body).toEqual({ removed: 2, status: 'completed' });
    expect((await h.status(ep, running)).body.status).toBe('IN_PROGRESS');
    for (const id of queued) expect((await h.status(ep, id)).status).toBe(404);
  });
});

describe('/stream', () => {
  it('QUEUE-STREAM-001 QUEUE-STREAM-002 QUEUE-STREAM-003 hands out chunks as they are produced and drains them on read', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 3_000, stream: ['a', 'b', 'c'] } });
    await h.advance(1_000);
    expect((await h.queue(ep, 'GET', `/stream/${id}`)).body).toEqual({ id, status: 'IN_PROGRESS', stream: [{ output: 'a' }] });
    expect((await h.queue(ep, 'GET', `/stream/${id}`)).body.stream).toEqual([]);
    await h.advance(2_000);
    const last = await h.queue(ep, 'GET', `/stream/${id}`);
    expect(last.body).toEqual({ id, status: 'COMPLETED', stream: [{ output: 'b' }, { output: 'c' }] });
    expect((await h.queue(ep, 'GET', `/stream/${id}`)).body.stream).toEqual([]);
    expect((await h.status(ep, id)).body.output).toEqual(['a', 'b', 'c']);
  });
});

describe('/health and /requests', () => {
  it('QUEUE-HEALTH-001 QUEUE-HEALTH-002 QUEUE-REQUESTS-001 counts jobs and workers consistently', async () => {
    const ep = await h.endpoint({ workersMax: 1 });
    await h.run(ep, { mock: { durationMs: 1_000 } });
    await h.run(ep, { mock: { durationMs: 1_000, error: 'no' } });
    await h.run(ep, { mock: { durationMs: 1_000 } });
    let health = (await h.queue(ep, 'GET', '/health')).body;
    expect(health.jobs).toEqual({ completed: 0, failed: 0, inProgress: 1, inQueue: 2, retried: 0 });
    expect(health.workers).toMatchObject({ idle: 0, running: 1 });
    const requests = (await h.queue(ep, 'GET', '/requests')).body.requests;
    expect(requests.map((r: { status: string }) => r.status)).toEqual(['IN_PROGRESS', 'IN_QUEUE', 'IN_QUEUE']);
    await h.advance(3_000);
    health = (await h.queue(ep, 'GET', '/health')).body;
    expect(health.jobs).toEqual({ completed: 2, failed: 1, inProgress: 0, inQueue: 0, retried: 0 });
    expect(health.workers).toMatchObject({ idle: 1, running: 0 });
    expect((await h.queue(ep, 'GET', '/requests')).body.requests).toEqual([]);
  });
});

describe('workers', () => {
  it('scale up to workersMax on queue pressure, and idle down after idleTimeout to workersMin', async () => {
    const ep = await h.endpoint({ workersMin: 0, workersMax: 2, idleTimeout: 5 });
    for (let i = 0; i < 3; i++) await h.run(ep, { mock: { durationMs: 1_000 } });
    expect((await h.queue(ep, 'GET', '/health')).body.workers).toMatchObject({ running: 2, idle: 0 });
    await h.advance(2_000);
    expect((await h.queue(ep, 'GET', '/health')).body.workers).toMatchObject({ running: 0, idle: 2 });
    await h.advance(5_000);
    expect((await h.queue(ep, 'GET', '/health')).body.workers).toMatchObject({ running: 0, idle: 0 });
  });

  it('QUEUE-JOB-011 lowPriority jobs do not trigger scaling', async () => {
    const ep = await h.endpoint({ workersMin: 0, workersMax: 2 });
    const id = await h.run(ep, {}, { policy: { lowPriority: true } });
    await h.advance(60_000);
    expect((await h.status(ep, id)).body.status).toBe('IN_QUEUE');
    await h.run(ep, { mock: { durationMs: 10 } });
    await h.advance(100);
    expect((await h.status(ep, id)).body.status).toBe('COMPLETED');
  });

  it('workersMin workers exist from creation', async () => {
    const ep = await h.endpoint({ workersMin: 2, workersMax: 3 });
    expect((await h.queue(ep, 'GET', '/health')).body.workers).toMatchObject({ idle: 2, running: 0 });
  });
});

describe('/openai', () => {
  it('QUEUE-OPENAI-001 passes an OpenAI-style request to the simulated worker', async () => {
    const ep = await h.endpoint();
    const res = await h.queue(ep, 'POST', '/openai/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('echo: hi');
  });
});

describe('endpoint deletion', () => {
  it('REST-ENDPOINT-006 removes the endpoint jobs; the queue surface then answers 404', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep);
    expect((await h.rest('DELETE', `/endpoints/${ep}`)).status).toBe(204);
    expect((await h.status(ep, id)).status).toBe(404);
    expect(h.mock.core.engine.jobCount).toBe(0);
  });
});
