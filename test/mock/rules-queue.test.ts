// queue v2 and cross-cutting rules of specs/rules.yaml not covered by the scenario files.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Harness, KEY } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

const MIN = 60_000;
const s3Config = { accessId: 'AKIA', accessSecret: 'very-secret-s3-key', bucketName: 'b', endpointUrl: 'https://s3.example.com' };

describe('queue v2 rules', () => {
  it('QUEUE-JOB-006 QUEUE-JOB-007 statuses move IN_QUEUE → IN_PROGRESS → COMPLETED', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 100 } });
    const seen = [(await h.status(ep, id)).body.status];
    await h.advance(50);
    seen.push((await h.status(ep, id)).body.status);
    await h.advance(50);
    seen.push((await h.status(ep, id)).body.status);
    expect(seen).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'COMPLETED']);
    const queued = await h.queue(ep, 'POST', '/run', { input: {} });
    expect(queued.body.status).toBe('IN_QUEUE');
  });

  it('QUEUE-JOB-009 every job operation accepts exactly the returned id', async () => {
    const ep = await h.endpoint();
    const sync = await h.queue(ep, 'POST', '/runsync?wait=1000', { input: { mock: { durationMs: 0 } } });
    for (const path of [`/status/${sync.body.id}`, `/status-sync/${sync.body.id}`, `/stream/${sync.body.id}`]) {
      expect((await h.queue(ep, 'GET', path)).status).toBe(200);
    }
    expect((await h.queue(ep, 'POST', `/cancel/${sync.body.id}`)).status).toBe(200);
  });

  it('QUEUE-JOB-012 the s3Config reaches the worker unchanged', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 0, s3Check: true } }, { s3Config });
    await h.advance(0);
    const { accessSecret: _secret, ...visible } = s3Config;
    expect((await h.status(ep, id)).body.output).toEqual({ s3Config: { ...visible, accessSecretReceived: true } });
  });

  it('QUEUE-TTL-003 QUEUE-TTL-004 a job never picked up is deleted 24 h after submission by default', async () => {
    const ep = await h.endpoint({ workersMax: 0 });
    const id = await h.run(ep);
    await h.advance(24 * 60 * MIN - 1);
    expect((await h.status(ep, id)).body.status).toBe('IN_QUEUE');
    await h.advance(1);
    expect((await h.status(ep, id)).status).toBe(404);
  });

  it('QUEUE-EXEC-003 without policy.executionTimeout a job times out after 600000 ms', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 20 * MIN } });
    await h.advance(10 * MIN - 1);
    expect((await h.status(ep, id)).body.status).toBe('IN_PROGRESS');
    await h.advance(1);
    expect((await h.status(ep, id)).body.status).toBe('TIMED_OUT');
  });

  it('QUEUE-EXEC-006 policy.executionTimeout overrides the endpoint setting for that job only', async () => {
    const ep = await h.endpoint({ executionTimeoutMs: 10_000, workersMax: 2 });
    const own = await h.run(ep, { mock: { durationMs: 15_000 } }, { policy: { executionTimeout: 20_000 } });
    const other = await h.run(ep, { mock: { durationMs: 15_000 } });
    await h.advance(15_000);
    expect((await h.status(ep, own)).body.status).toBe('COMPLETED');
    expect((await h.status(ep, other)).body.status).toBe('TIMED_OUT');
  });

  it('QUEUE-SYNC-004 without wait, /runsync holds the request 90000 ms', async () => {
    const ep = await h.endpoint();
    let answered = false;
    const pending = h.queue(ep, 'POST', '/runsync', { input: { mock: { durationMs: 10 * MIN } } }).then((r) => {
      answered = true;
      return r;
    });
    await h.untilOpen(1);
    await h.advance(89_999);
    await h.untilOpen(1); // still held: the advance answered nothing
    expect(answered).toBe(false);
    await h.advance(1);
    expect((await pending).body.status).toBe('IN_PROGRESS');
  });

  it('QUEUE-ERROR-004 a worker crash during /runsync answers 500 with the error body', async () => {
    const ep = await h.endpoint();
    const res = await h.queue(ep, 'POST', '/runsync', { input: { mock: { durationMs: 0, crash: true } } });
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(/crash/);
  });
});

describe('secrets and keys never leak', () => {
  it('SECRET-003 an s3Config accessSecret never appears in a queue answer', async () => {
    const ep = await h.endpoint({ workersMax: 3 });
    const bodies: unknown[] = [];
    const run = await h.queue(ep, 'POST', '/run', { input: { mock: { durationMs: 10, stream: ['x'] } }, s3Config, webhook: 'http://127.0.0.1:1/hook' });
    bodies.push(run.body);
    bodies.push((await h.queue(ep, 'POST', '/runsync?wait=1000', { input: { mock: { durationMs: 0 } }, s3Config })).body);
    await h.advance(10);
    bodies.push((await h.status(ep, run.body.id)).body, (await h.queue(ep, 'GET', `/stream/${run.body.id}`)).body);
    bodies.push((await h.queue(ep, 'POST', '/run', { input: {}, s3Config: { ...s3Config, extra: 1 } })).body);
    expect(JSON.stringify(bodies)).not.toContain(s3Config.accessSecret);
  });

  it('AUTH-006 SECRET-004 API keys and secrets appear in no answer and no log line', async () => {
    await h.close();
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      h = await Harness.start({ log: true });
      const answers: unknown[] = [];
      answers.push((await h.rest('GET', '/pods')).body, (await h.rest('GET', '/pods', undefined, 'wrong-key-123')).body);
      answers.push((await h.rest('POST', '/containerregistryauth', { name: 'r', username: 'u', password: 'pw-xyz-987' })).body);
      answers.push((await h.graphql('mutation { secretCreate(input: {name: "S", value: "gql-secret-555"}) { id name } }')).body);
      answers.push((await h.graphql('{ podTemplate(id: "x") { id } }', undefined, 'wrong-gql-key-777')).body);
      const text = JSON.stringify(answers) + lines.join('');
      for (const secret of [KEY, 'wrong-key-123', 'pw-xyz-987', 'gql-secret-555', 'wrong-gql-key-777']) expect(text).not.toContain(secret);
      expect(lines.some((l) => l.includes('GET /v1/pods 200'))).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});
