import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, type WebhookPayload } from '../../src/clients/index.js';

const payload = {
  id: 'job-7-u1',
  status: 'COMPLETED',
  delayTime: 10,
  executionTime: 20,
  output: { text: 'done' },
  input: { prompt: 'cat' },
  webhook: 'https://example.com/hooks/job-done',
};

let server: Server | undefined;
afterEach(async () => {
  if (server) await new Promise<void>((resolve) => server?.close(() => resolve()));
  server = undefined;
});

async function serve(handler: ReturnType<typeof createWebhookHandler>): Promise<string> {
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/job-done`;
}

const post = (url: string, body: unknown, init: RequestInit = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body), ...init });

describe('createWebhookHandler over node:http', () => {
  it('valid delivery → 200 and onJob gets the typed payload', async () => {
    const received: WebhookPayload<{ prompt: string }, { text: string }>[] = [];
    const url = await serve(createWebhookHandler<{ prompt: string }, { text: string }>({ onJob: (job) => void received.push(job) }));
    const response = await post(url, payload);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(received[0]?.output?.text).toBe('done');
    expect(received[0]?.input.prompt).toBe('cat');
  });

  it('repeated deliveries of the same job id + status reach onJob once', async () => {
    let calls = 0;
    const url = await serve(createWebhookHandler({ onJob: () => void calls++ }));
    const answers = await Promise.all([post(url, payload), post(url, payload)]);
    const third = await post(url, payload);
    expect([...answers, third].map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await third.json()).toEqual({ ok: true, duplicate: true });
    expect(calls).toBe(1);
    await post(url, { ...payload, status: 'FAILED', error: 'x', output: undefined });
    await post(url, { ...payload, status: 'FAILED', error: 'x', retries: 1 });
    expect(calls).toBe(3);
  });

  it('onJob throws → 500 (service retries) and the retry is processed again', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const url = await serve(
      createWebhookHandler({
        onJob: () => {
          calls++;
          if (calls === 1) throw new Error('db down');
        },
        onError: (error) => errors.push(error),
      }),
    );
    const first = await post(url, payload);
    expect(first.status).toBe(500);
    expect(JSON.stringify(await first.json())).not.toContain('db down');
    expect((await post(url, payload)).status).toBe(200);
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('payload outside the contract → 400 listing paths; onJob not called', async () => {
    let calls = 0;
    const url = await serve(createWebhookHandler({ onJob: () => void calls++ }));
    const response = await post(url, { ...payload, status: 'DONE' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { path: string }[] };
    expect(body.errors.some((e) => e.path.startsWith('/body/status'))).toBe(true);
    expect((await post(url, 'not json')).status).toBe(400);
    expect(calls).toBe(0);
  });

  it('validate: false only checks id and status', async () => {
    const url = await serve(createWebhookHandler({ onJob: () => undefined, validate: false }));
    expect((await post(url, { id: 'j', status: 'WHATEVER' })).status).toBe(200);
    expect((await post(url, { status: 'COMPLETED' })).status).toBe(400);
  });

  it('non-POST → 405 with Allow; oversized body → 413; authorize false → 401', async () => {
    const url = await serve(
      createWebhookHandler({ onJob: () => undefined, maxBodyBytes: 64, authorize: ({ url }) => !url.includes('bad') }),
    );
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await post(url, { ...payload, output: 'x'.repeat(200) })).status).toBe(413);
    expect((await post(`${url}?bad=1`, { id: 'j', status: 'COMPLETED' })).status).toBe(401);
  });
});

describe('createWebhookHandler as a fetch handler', () => {
  it('answers Request → Response with dedupe expiring after dedupeTtlMs', async () => {
    let clock = 0;
    let calls = 0;
    const handler = createWebhookHandler({ onJob: () => void calls++, now: () => clock, dedupeTtlMs: 1000 });
    const request = () => new Request('http://local/hook', { method: 'POST', body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
    expect((await handler.fetch(request())).status).toBe(200);
    expect((await handler.fetch(request())).status).toBe(200);
    expect(calls).toBe(1);
    clock = 5000;
    await handler.fetch(request());
    expect(calls).toBe(2);
  });

  it('remembers at most maxRemembered deliveries', async () => {
    let calls = 0;
    const handler = createWebhookHandler({ onJob: () => void calls++, maxRemembered: 2, validate: false });
    for (const id of ['a', 'b', 'c', 'a']) await handler.handle({ method: 'POST', body: JSON.stringify({ id, status: 'COMPLETED' }) });
    expect(calls).toBe(4);
  });
});
