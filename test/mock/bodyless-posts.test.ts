// Operations that take no input (requestBody NoInput, required: false): no body, an empty body and `{}`
// are all accepted, as official SDKs post `{}`; an object with a property is 400 naming it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start({ rateLimits: false })));
afterEach(() => h.close());

type Variant = { name: string; rawBody?: string; headers?: Record<string, string> };
const JSON_TYPE = { 'content-type': 'application/json' };
const ACCEPTED: Variant[] = [
  { name: 'no body' },
  { name: 'an empty body with Content-Type: application/json', rawBody: '', headers: JSON_TYPE },
  { name: '{}', rawBody: '{}', headers: JSON_TYPE },
];

async function pod(): Promise<string> {
  const res = await h.rest('POST', '/pods', { name: 'p', imageName: 'runpod/pytorch:2' });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('body-less POSTs (NoInput)', () => {
  for (const variant of ACCEPTED) {
    it(`queue v2 cancel, retry and purge-queue accept ${variant.name}`, async () => {
      const ep = await h.endpoint({ workersMax: 1 });
      const base = h.mock.queueV2Url(ep);
      const running = await h.run(ep, { mock: { durationMs: 60_000 } });
      const failed = await h.run(ep, { mock: { error: 'boom', durationMs: 10 } });
      await h.advance(1);
      const cancel = await h.request('POST', `${base}/cancel/${running}`, variant);
      expect(cancel.status).toBe(200);
      expect(cancel.body.status).toBe('CANCELLED');
      await h.advance(10);
      const retry = await h.request('POST', `${base}/retry/${failed}`, variant);
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      const purge = await h.request('POST', `${base}/purge-queue`, variant);
      expect(purge.status).toBe(200);
      expect(purge.body.status).toBe('completed');
    });

    it(`REST v1 pod stop, start, restart and reset accept ${variant.name}`, async () => {
      const id = await pod();
      for (const action of ['stop', 'start', 'restart', 'reset']) {
        const res = await h.request('POST', `${h.mock.restV1Url}/pods/${id}/${action}`, variant);
        expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
      }
      expect((await h.rest('GET', `/pods/${id}`)).body.desiredStatus).toBe('RUNNING');
    });
  }

  it('an object with a property is 400 naming /body/<property>, and nothing happens', async () => {
    const ep = await h.endpoint({ workersMax: 1 });
    const job = await h.run(ep, { mock: { durationMs: 60_000 } });
    const res = await h.request('POST', `${h.mock.queueV2Url(ep)}/cancel/${job}`, { body: { force: true } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: '/body/force', message: 'is not a known property' }]);
    expect((await h.status(ep, job)).body.status).not.toBe('CANCELLED');
    const id = await pod();
    const stop = await h.request('POST', `${h.mock.restV1Url}/pods/${id}/stop`, { body: { now: 1 } });
    expect(stop.status).toBe(400);
    expect(stop.body.errors).toEqual([{ path: '/body/now', message: 'is not a known property' }]);
    expect((await h.rest('GET', `/pods/${id}`)).body.desiredStatus).toBe('RUNNING');
  });

  it('a body that is not an object is 400 at /body', async () => {
    const ep = await h.endpoint();
    for (const rawBody of ['[]', '"x"', 'null', '1']) {
      const res = await h.request('POST', `${h.mock.queueV2Url(ep)}/purge-queue`, { rawBody, headers: JSON_TYPE });
      expect(res.status, rawBody).toBe(400);
      expect(res.body.errors[0].path, rawBody).toBe('/body');
    }
  });

  it('GET and DELETE with Content-Type: application/json and no body answer as without it', async () => {
    const ep = await h.endpoint();
    const health = await h.request('GET', `${h.mock.queueV2Url(ep)}/health`, { headers: JSON_TYPE });
    expect(health.status).toBe(200);
    const list = await h.request('GET', `${h.mock.restV1Url}/pods`, { headers: JSON_TYPE });
    expect(list.status).toBe(200);
    const id = await pod();
    expect((await h.request('DELETE', `${h.mock.restV1Url}/pods/${id}`, { headers: JSON_TYPE })).status).toBe(204);
  });
});
