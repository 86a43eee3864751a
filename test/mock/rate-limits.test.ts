import { afterEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
afterEach(() => h.close());

describe('rate limits', () => {
  it('QUEUE-RATE-008 RATE-429-001 /requests: 10 per 10 s, the 11th → 429 with Retry-After; the next window admits again', async () => {
    h = await Harness.start();
    const ep = await h.endpoint();
    for (let i = 0; i < 10; i++) expect((await h.queue(ep, 'GET', '/requests')).status).toBe(200);
    const limited = await h.queue(ep, 'GET', '/requests');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body.message).toBeTruthy();
    await h.advance(10_000);
    expect((await h.queue(ep, 'GET', '/requests')).status).toBe(200);
  });

  it('QUEUE-RATE-006 QUEUE-RATE-012 limits are per endpoint and per operation', async () => {
    h = await Harness.start();
    const a = await h.endpoint();
    const b = await h.endpoint();
    for (let i = 0; i < 2; i++) expect((await h.queue(a, 'POST', '/purge-queue')).status).toBe(200);
    expect((await h.queue(a, 'POST', '/purge-queue')).status).toBe(429);
    expect((await h.queue(b, 'POST', '/purge-queue')).status).toBe(200);
    expect((await h.queue(a, 'GET', '/health')).status).toBe(200);
  });

  it('QUEUE-RATE-013 dynamic limit: running workers × per-worker figure when higher than the base', async () => {
    h = await Harness.start({ requestsPerWorkerPer10s: 2 });
    const ep = await h.endpoint({ workersMax: 2 });
    await h.run(ep, { mock: { durationMs: 60_000 } });
    await h.run(ep, { mock: { durationMs: 60_000 } });
    // base 2 per 10 s; 2 running workers × 2 = 4.
    for (let i = 0; i < 4; i++) expect((await h.queue(ep, 'POST', '/purge-queue')).status).toBe(200);
    expect((await h.queue(ep, 'POST', '/purge-queue')).status).toBe(429);
  });

  it('concurrent limit counts held /runsync requests', async () => {
    h = await Harness.start({ rateLimits: 0.005 }); // /runsync concurrent 400 → 2
    const ep = await h.endpoint({ workersMax: 3 });
    const held = [1, 2].map(() => h.queue(ep, 'POST', '/runsync', { input: { mock: { durationMs: 5_000 } } }));
    await h.untilOpen(2);
    const third = await h.queue(ep, 'POST', '/runsync', { input: {} });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    await h.advance(5_000);
    for (const res of await Promise.all(held)) expect(res.body.status).toBe('COMPLETED');
  });

  it('rateLimits: false switches them off', async () => {
    h = await Harness.start({ rateLimits: false });
    const ep = await h.endpoint();
    for (let i = 0; i < 12; i++) expect((await h.queue(ep, 'GET', '/requests')).status).toBe(200);
  });
});
