import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, RequestAbortedError, TimeoutError } from '../../src/clients/errors.js';
import { backoffDelayMs, createRetryFetch } from '../../src/clients/retry-fetch.js';
import { recordingSleep, refusedPortUrl, startFakeServer, type FakeServer } from './fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('backoff', () => {
  it('steps 0.5 s → 8 s, jitter within [50 %, 100 %] of the step', () => {
    const steps = [500, 1000, 2000, 4000, 8000, 8000];
    steps.forEach((step, index) => {
      expect(backoffDelayMs(index + 1, () => 0)).toBe(step / 2);
      expect(backoffDelayMs(index + 1, () => 0.999999)).toBe(step);
    });
  });
});

describe('createRetryFetch', () => {
  it('retries 5xx on GET with backoff, then succeeds; body resent on idempotent PATCH', async () => {
    server = await startFakeServer((_req, index) => (index < 2 ? { status: 503, body: { message: 'busy' } } : { body: { ok: true } }));
    const { delays, sleep } = recordingSleep();
    const retryFetch = createRetryFetch({ sleep, random: () => 0 });
    const response = await retryFetch(`${server.url}/x`, { method: 'PATCH', body: JSON.stringify({ a: 1 }), headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((r) => r.json)).toEqual([{ a: 1 }, { a: 1 }, { a: 1 }]);
    expect(delays).toEqual([250, 500]);
  });

  it('429 with Retry-After: waits exactly the header, then returns the success', async () => {
    server = await startFakeServer((_req, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '2' }, body: { message: 'slow down' } } : { body: { ok: 1 } }));
    const { delays, sleep } = recordingSleep();
    const response = await createRetryFetch({ sleep })(`${server.url}/run`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(delays).toEqual([2000]);
  });

  it('429 with Retry-After as an HTTP date: waits until that date', async () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    server = await startFakeServer((_req, index) => (index === 0 ? { status: 429, headers: { 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }, body: {} } : { body: {} }));
    const { delays, sleep } = recordingSleep();
    await createRetryFetch({ sleep, now: () => now })(`${server.url}/x`);
    expect(delays).toEqual([3000]);
  });

  it('Retry-After beyond maxRetryAfterMs is not slept on: the 429 is returned', async () => {
    server = await startFakeServer(() => ({ status: 429, headers: { 'retry-after': '3600' }, body: { message: 'later' } }));
    const { delays, sleep } = recordingSleep();
    const response = await createRetryFetch({ sleep })(`${server.url}/x`);
    expect(response.status).toBe(429);
    expect(delays).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries and returns the last response', async () => {
    server = await startFakeServer(() => ({ status: 500, body: { message: 'down' } }));
    const { delays, sleep } = recordingSleep();
    const response = await createRetryFetch({ sleep, maxRetries: 3, random: () => 1 })(`${server.url}/x`);
    expect(response.status).toBe(500);
    expect(server.requests).toHaveLength(4);
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it('POST submissions are not retried on 5xx (the job may have been queued)', async () => {
    server = await startFakeServer(() => ({ status: 500, body: { message: 'down' } }));
    const { sleep } = recordingSleep();
    const response = await createRetryFetch({ sleep })(`${server.url}/run`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it('408 and 5xx retried on GET; 400/404 never', async () => {
    server = await startFakeServer((_req, index) => ({ status: [408, 404][index] ?? 200, body: { message: 'x' } }));
    const { sleep } = recordingSleep();
    const response = await createRetryFetch({ sleep })(`${server.url}/x`);
    expect(response.status).toBe(404);
    expect(server.requests).toHaveLength(2);
  });

  it('x-should-retry overrides the status rule', async () => {
    server = await startFakeServer((_req, index) => (index === 0 ? { status: 500, headers: { 'x-should-retry': 'false' }, body: {} } : { body: {} }));
    const { sleep } = recordingSleep();
    expect((await createRetryFetch({ sleep })(`${server.url}/x`)).status).toBe(500);
  });

  it('x-should-retry: true retries an error status, never a success', async () => {
    server = await startFakeServer((_req, index) => (index === 0 ? { status: 400, headers: { 'x-should-retry': 'true' }, body: {} } : { headers: { 'x-should-retry': 'true' }, body: {} }));
    const { sleep } = recordingSleep();
    expect((await createRetryFetch({ sleep })(`${server.url}/x`)).status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('maxRetries 0 disables retries', async () => {
    server = await startFakeServer(() => ({ status: 503, body: {} }));
    const { sleep } = recordingSleep();
    await createRetryFetch({ sleep, maxRetries: 0 })(`${server.url}/x`);
    expect(server.requests).toHaveLength(1);
  });

  it('connection refused: retried even for POST, then ConnectionError', async () => {
    const url = await refusedPortUrl();
    const { delays, sleep } = recordingSleep();
    const retries: number[] = [];
    const promise = createRetryFetch({ sleep, onRetry: (info) => retries.push(info.retry) })(`${url}/run`, { method: 'POST', body: '{}' });
    await expect(promise).rejects.toBeInstanceOf(ConnectionError);
    await expect(promise).rejects.toThrow(/ECONNREFUSED/);
    expect(delays).toHaveLength(2);
    expect(retries).toEqual([1, 2]);
  });

  it('connection reset after sending: GET retried, POST not', async () => {
    server = await startFakeServer((req, index) => (index === 0 || req.method === 'POST' ? { destroy: true } : { body: { ok: true } }));
    const { sleep } = recordingSleep();
    expect((await createRetryFetch({ sleep })(`${server.url}/x`)).status).toBe(200);
    await expect(createRetryFetch({ sleep })(`${server.url}/run`, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(3);
  });

  it('per-attempt timeout → TimeoutError after retries (idempotent)', async () => {
    // Attempts are counted where they start (a transport that answers nothing until its signal aborts): a
    // server would miss an attempt that timed out before its request arrived on a loaded machine.
    const attempts: string[] = [];
    const hanging = (input: string | URL | Request, init?: RequestInit) => {
      attempts.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true }));
    };
    const { sleep } = recordingSleep();
    const retries: number[] = [];
    await expect(createRetryFetch({ fetch: hanging, sleep, timeoutMs: 20, maxRetries: 1, onRetry: (info) => retries.push(info.retry) })('http://127.0.0.1:9/x')).rejects.toBeInstanceOf(TimeoutError);
    expect(attempts).toEqual(['GET http://127.0.0.1:9/x', 'GET http://127.0.0.1:9/x']);
    expect(retries).toEqual([1]);
  });

  it('caller AbortSignal aborts an in-flight attempt with RequestAbortedError and no retry', async () => {
    server = await startFakeServer(() => ({ hang: true }));
    const controller = new AbortController();
    const promise = createRetryFetch({ signal: controller.signal })(`${server.url}/x`);
    setTimeout(() => controller.abort(), 5);
    await expect(promise).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('abort during the backoff sleep stops retrying', async () => {
    server = await startFakeServer(() => ({ status: 503, body: {} }));
    const controller = new AbortController();
    const sleep = async () => controller.abort();
    await expect(createRetryFetch({ sleep, signal: controller.signal })(`${server.url}/x`)).rejects.toBeInstanceOf(RequestAbortedError);
    expect(server.requests).toHaveLength(1);
  });

  it('an already-aborted signal sends nothing', async () => {
    server = await startFakeServer(() => ({ body: {} }));
    await expect(createRetryFetch()(`${server.url}/x`, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(server.requests).toHaveLength(0);
  });
});
