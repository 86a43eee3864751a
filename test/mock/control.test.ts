import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/mock/rate-limit.js';
import { createClock } from '../../src/mock/clock.js';
import { Harness } from './harness.js';

let h: Harness;
afterEach(() => h.close());

describe('control API', () => {
  it('reads and advances the virtual clock', async () => {
    h = await Harness.start({ clockStart: Date.UTC(2030, 0, 1) });
    expect((await h.control('GET', '/clock')).body).toMatchObject({ mode: 'virtual', iso: '2030-01-01T00:00:00.000Z' });
    const res = await h.control('POST', '/clock/advance', { ms: 7 * 24 * 3_600_000 });
    expect(res.body.iso).toBe('2030-01-08T00:00:00.000Z');
    expect((await h.control('POST', '/clock/advance', { ms: -1 })).status).toBe(400);
  });

  it('refuses to advance a real clock', async () => {
    h = await Harness.start({ clock: 'real' });
    expect((await h.control('POST', '/clock/advance', { ms: 1 })).status).toBe(400);
  });

  it('seeds resources with stable ids in dependency order, and reset clears everything', async () => {
    h = await Harness.start();
    const seeded = await h.control('POST', '/seed', {
      registryAuths: [{ id: 'auth1', name: 'ghcr', username: 'u', password: 'p' }],
      templates: [{ id: 'tpl1', name: 'worker', imageName: 'repo/w:1', containerRegistryAuthId: 'auth1' }],
      endpoints: [{ id: 'ep1', name: 'e', templateId: 'tpl1', workersMax: 1 }],
      secrets: [{ name: 'S', value: 'v' }],
    });
    expect(seeded.status).toBe(200);
    expect(seeded.body.created).toMatchObject({ registryAuths: ['auth1'], templates: ['tpl1'], endpoints: ['ep1'] });
    expect(JSON.stringify(seeded.body)).not.toContain('"p"');
    const id = await h.run('ep1', { mock: { durationMs: 0 } });
    await h.advance(0);
    expect((await h.status('ep1', id)).body.status).toBe('COMPLETED');
    expect((await h.control('GET', '/state')).body.counts).toMatchObject({ endpoints: 1, templates: 1, registryAuths: 1, secrets: 1, jobs: 1 });
    expect((await h.control('POST', '/reset')).status).toBe(200);
    expect((await h.control('GET', '/state')).body.counts).toMatchObject({ endpoints: 0, templates: 0, jobs: 0 });
    expect((await h.queue('ep1', 'GET', '/health')).status).toBe(404);
  });

  it('counts requests toward an endpoint\'s rate window (rate-limits/consume): a limit is reached without a flood', async () => {
    h = await Harness.start({ clockStart: Date.UTC(2030, 0, 1) });
    const ep = await h.endpoint({ workersMax: 0 });
    const consumed = await h.control('POST', '/rate-limits/consume', { endpointId: ep, operationId: 'getHealth', count: 1_998 });
    expect([consumed.status, consumed.body]).toEqual([200, { endpointId: ep, operationId: 'getHealth', used: 1_998 }]);
    // getHealth admits 2000 per 10 s: two more are admitted, the next is refused until the window rolls over.
    for (let i = 0; i < 2; i++) expect((await h.queue(ep, 'GET', '/health')).status).toBe(200);
    expect((await h.queue(ep, 'GET', '/health')).status).toBe(429);
    expect((await h.queue(ep, 'GET', '/requests')).status).toBe(200); // another operation: its own window
    await h.advance(10_000);
    expect((await h.queue(ep, 'GET', '/health')).status).toBe(200);
    // Bad input: named, never a crash; an unknown endpoint is 404.
    const bad = await h.control('POST', '/rate-limits/consume', { endpointId: '', operationId: 'listPods', count: -1 });
    expect([bad.status, bad.body.errors.map((e: { path: string }) => e.path)]).toEqual([400, ['/body/endpointId', '/body/operationId', '/body/count']]);
    expect((await h.control('POST', '/rate-limits/consume', { endpointId: ep, operationId: 'getHealth', count: 1_000_001 })).status).toBe(400);
    expect((await h.control('POST', '/rate-limits/consume', { endpointId: 'no-such-endpoint', operationId: 'getHealth', count: 1 })).status).toBe(404);
    // holdMs: the counted requests stay in flight that long on the clock (a concurrency limit reached without holding connections).
    const held = await h.control('POST', '/rate-limits/consume', { endpointId: ep, operationId: 'runJobSync', count: 400, holdMs: 61_000 });
    expect([held.status, held.body]).toEqual([200, { endpointId: ep, operationId: 'runJobSync', used: 400, inflight: 400 }]);
    for (const holdMs of [0, 600_001, 1.5, '1000']) {
      const refused = await h.control('POST', '/rate-limits/consume', { endpointId: ep, operationId: 'runJobSync', count: 1, holdMs });
      expect([refused.status, refused.body.errors.map((e: { path: string }) => e.path)]).toEqual([400, ['/body/holdMs']]);
    }
  });

  it('rejects a seed whose references do not exist', async () => {
    h = await Harness.start();
    const res = await h.control('POST', '/seed', { endpoints: [{ templateId: 'missing' }] });
    expect(res.status).toBe(400);
  });
});

describe('rate limiter', () => {
  it('QUEUE-RATE-001 (concurrency) admits at most `concurrent` in-flight requests until one is released', () => {
    const clock = createClock('virtual', 0);
    const limiter = new RateLimiter(clock, 10_000, 1);
    const held = [limiter.admit('k', 100, 2), limiter.admit('k', 100, 2)];
    const third = limiter.admit('k', 100, 2);
    expect(held.every((a) => a.ok)).toBe(true);
    expect(third).toMatchObject({ ok: false, retryAfterSeconds: 1 });
    if (held[0]!.ok) held[0]!.release();
    expect(limiter.admit('k', 100, 2).ok).toBe(true);
  });

  it('hold (control API rate-limits/consume with holdMs): requests counted in flight take concurrency slots until their time has passed on the clock', () => {
    const clock = createClock('virtual', 0);
    const limiter = new RateLimiter(clock, 10_000, 1);
    expect(limiter.hold('k', 398, 61_000)).toEqual({ used: 398, inflight: 398 });
    const open = [limiter.admit('k', 2_000, 400), limiter.admit('k', 2_000, 400)];
    expect(open.every((a) => a.ok)).toBe(true);
    expect(limiter.admit('k', 2_000, 400)).toMatchObject({ ok: false, retryAfterSeconds: 1 });
    clock.advance(60_999);
    expect(limiter.admit('k', 2_000, 400).ok).toBe(false);
    clock.advance(1);
    expect(limiter.admit('k', 2_000, 400).ok).toBe(true);
  });

  it('Retry-After is the whole seconds left in the window', () => {
    const clock = createClock('virtual', 0);
    const limiter = new RateLimiter(clock, 10_000, 1);
    limiter.admit('k', 1, null);
    clock.advance(2_500);
    expect(limiter.admit('k', 1, null)).toMatchObject({ ok: false, retryAfterSeconds: 8 });
  });
});
