// Requests with a body, past the point where it is read (src/mock/server.ts reads it without a promise of its
// own): a request cut while its body arrives (the client goes away mid-upload) stores nothing and frees its
// rate-window concurrency slot and open-request count; a handler failing after the body is answered 500.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Harness, KEY } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(() => h.close());

/** Waits (bounded) until `probe` holds; the mock's counters move on its own turns. */
async function until(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** In-flight /run requests of the endpoint's rate window, read through the control API (a hold of none). */
async function runsInFlight(endpointId: string): Promise<number> {
  const answer = await fetch(`${h.mock.controlUrl}/rate-limits/consume`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ endpointId, operationId: 'runJob', count: 0, holdMs: 1 }),
  });
  return ((await answer.json()) as { inflight: number }).inflight;
}

describe('a POST /run whose client goes away before the body ends', () => {
  it('stores no job, frees its concurrency slot and open-request count, and the next /run is answered', async () => {
    const endpointId = await h.endpoint();
    const { port, hostname } = new URL(h.mock.url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const body = JSON.stringify({ input: { prompt: 'x'.repeat(1_000) } });
    socket.write([
      `POST /v2/${endpointId}/run HTTP/1.1`, `host: ${hostname}:${port}`, `authorization: Bearer ${KEY}`,
      'content-type: application/json', `content-length: ${body.length}`, '', body.slice(0, 100),
    ].join('\r\n'));
    await until(async () => h.mock.core.openRequests === 1 && (await runsInFlight(endpointId)) === 1, 'the request is admitted and waits for its body');
    socket.destroy();
    await until(async () => h.mock.core.openRequests === 0 && (await runsInFlight(endpointId)) === 0, 'the cut request is let go');
    expect(h.mock.core.engine.jobCount).toBe(0);
    const next = await h.queue(endpointId, 'POST', '/run', { input: { prompt: 'after' } });
    expect(next.status).toBe(200);
    expect(h.mock.core.engine.jobCount).toBe(1);
  });
});

describe('a POST /run whose handler fails after its body was read', () => {
  it('is answered 500 without the error\'s text, frees its slot and count, and the mock answers the next one', async () => {
    const endpointId = await h.endpoint();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const submit = vi.spyOn(h.mock.core.engine, 'submit').mockImplementationOnce(() => {
      throw new Error('engine broke: secret-detail');
    });
    try {
      const failed = await h.queue(endpointId, 'POST', '/run', { input: { prompt: 'boom' } });
      expect(failed.status).toBe(500);
      expect(JSON.stringify(failed.body)).not.toContain('secret-detail');
      expect(logged).toHaveBeenCalled();
    } finally {
      submit.mockRestore();
      logged.mockRestore();
    }
    await until(async () => h.mock.core.openRequests === 0 && (await runsInFlight(endpointId)) === 0, 'the failed request is let go');
    expect((await h.queue(endpointId, 'POST', '/run', { input: { prompt: 'after' } })).status).toBe(200);
  });
});
