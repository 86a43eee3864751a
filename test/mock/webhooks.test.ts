import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateWebhook } from '../../src/validation/index.js';
import { Harness } from './harness.js';

let h: Harness;
let receiver: Server;
let received: { body: any; at: number }[];
let answers: number[];
let hookUrl: string;

beforeEach(async () => {
  h = await Harness.start();
  received = [];
  answers = [];
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push({ body: JSON.parse(text), at: h.mock.clock.now() });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterEach(async () => {
  await h.close();
  await new Promise((r) => receiver.close(r));
});

describe('webhooks', () => {
  it('WEBHOOK-001 WEBHOOK-002 POSTs the status record plus input and webhook once the job completes', async () => {
    const ep = await h.endpoint();
    const s3Config = { accessId: 'a', accessSecret: 's3-secret-in-webhook', bucketName: 'b', endpointUrl: 'https://s3.example.com' };
    const id = await h.run(ep, { mock: { durationMs: 100, output: { x: 1 } } }, { webhook: hookUrl, s3Config });
    await h.advance(100);
    expect(received).toHaveLength(1);
    const payload = received[0]!.body;
    expect(JSON.stringify(payload)).not.toContain(s3Config.accessSecret); // SECRET-003
    expect(payload).toMatchObject({ id, status: 'COMPLETED', output: { x: 1 }, input: { mock: { durationMs: 100, output: { x: 1 } } }, webhook: hookUrl });
    expect(validateWebhook('jobCompleted', payload)).toEqual([]);
  });

  it('WEBHOOK-003 fires for FAILED and TIMED_OUT jobs, not for CANCELLED ones', async () => {
    const ep = await h.endpoint({ workersMax: 3 });
    await h.run(ep, { mock: { durationMs: 10, error: 'boom' } }, { webhook: hookUrl });
    await h.run(ep, { mock: { durationMs: 10_000 } }, { webhook: hookUrl, policy: { executionTimeout: 5_000 } });
    const cancelled = await h.run(ep, { mock: { durationMs: 10_000 } }, { webhook: hookUrl });
    await h.advance(1);
    await h.queue(ep, 'POST', `/cancel/${cancelled}`);
    await h.advance(10_000);
    expect(received.map((r) => r.body.status).sort()).toEqual(['FAILED', 'TIMED_OUT']);
  });

  it('WEBHOOK-005 retries a failed delivery up to 2 more times, 10 s apart, and logs every attempt', async () => {
    answers = [500, 503, 500];
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 0 } }, { webhook: hookUrl });
    await h.advance(0);
    await h.advance(9_999);
    expect(received).toHaveLength(1);
    await h.advance(1);
    expect(received).toHaveLength(2);
    await h.advance(10_000);
    expect(received).toHaveLength(3);
    await h.advance(60_000);
    expect(received).toHaveLength(3);
    const log = (await h.control('GET', '/webhooks')).body.deliveries;
    expect(log.map((d: { attempt: number; status: number; delivered: boolean }) => [d.attempt, d.status, d.delivered])).toEqual([
      [1, 500, false], [2, 503, false], [3, 500, false],
    ]);
    expect(log.every((d: { jobId: string }) => d.jobId === id)).toBe(true);
  });

  it('WEBHOOK-004 WEBHOOK-005 stops retrying once the receiver answers 200', async () => {
    answers = [500, 200];
    const ep = await h.endpoint();
    await h.run(ep, { mock: { durationMs: 0 } }, { webhook: hookUrl });
    await h.advance(0);
    await h.advance(60_000);
    expect(received).toHaveLength(2);
  });

  it('counts an unreachable receiver as a failed attempt', async () => {
    const ep = await h.endpoint();
    await h.run(ep, { mock: { durationMs: 0 } }, { webhook: 'http://127.0.0.1:1/unreachable' });
    await h.advance(0);
    await h.advance(30_000);
    const log = (await h.control('GET', '/webhooks')).body.deliveries;
    expect(log).toHaveLength(3);
    expect(log[0].error).toBeTruthy();
  });

  it('WEBHOOK-005 with --state: the delivery log and a retry still due survive a clean restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-webhook-state-'));
    const stateFile = join(dir, 'state.json');
    answers = [500, 200];
    try {
      const first = await Harness.start({ stateFile });
      const ep = await first.endpoint();
      const id = await first.run(ep, { mock: { durationMs: 0 } }, { webhook: hookUrl });
      await first.advance(0);
      expect(received).toHaveLength(1);
      await first.close();
      const second = await Harness.start({ stateFile });
      try {
        await second.advance(10_000);
        expect(received.map((r) => r.body.id)).toEqual([id, id]);
        const log = (await second.control('GET', '/webhooks')).body.deliveries;
        expect(log.map((d: { attempt: number; status: number }) => [d.attempt, d.status])).toEqual([[1, 500], [2, 200]]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
