import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
let ep: string;
beforeEach(async () => {
  h = await Harness.start({ rateLimits: false });
  ep = await h.endpoint({ workersMax: 0 });
});
afterEach(() => h.close());

async function queued(): Promise<number> {
  return (await h.queue(ep, 'GET', '/health')).body.jobs.inQueue;
}

describe('bad input → 400 with the shared error body, nothing stored', () => {
  it('QUEUE-ERROR-002 QUEUE-ERROR-003 malformed JSON', async () => {
    const res = await h.request('POST', `${h.mock.queueV2Url(ep)}/run`, { rawBody: '{"input": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('/body');
    expect(await queued()).toBe(0);
  });

  it('wrong content type', async () => {
    const res = await h.request('POST', `${h.mock.queueV2Url(ep)}/run`, { rawBody: '{"input":{}}', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('/header/content-type');
  });

  it('QUEUE-JOB-003 QUEUE-JOB-004 QUEUE-JOB-005 missing body, unknown fields, wrong types and out-of-range values list every path', async () => {
    expect((await h.queue(ep, 'POST', '/run')).status).toBe(400);
    const res = await h.queue(ep, 'POST', '/run', { input: 'text', extra: 1, policy: { ttl: 5, lowPriority: 'yes' }, webhook: 'not a url' });
    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['/body/input', '/body/extra', '/body/policy/ttl', '/body/policy/lowPriority', '/body/webhook']));
    expect(await queued()).toBe(0);
  });

  it('REST-CRUD-003 REST-ERROR-002 REST bodies reject unknown properties with their path', async () => {
    const before = (await h.rest('GET', '/templates')).body.length;
    const res = await h.rest('POST', '/templates', { name: 'n', imageName: 'i', colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: '/body/colour' }));
    expect((await h.rest('GET', '/templates')).body).toHaveLength(before);
  });

  it('QUEUE-SYNC-003 query parameters out of range (wait) → 400', async () => {
    const res = await h.request('POST', `${h.mock.queueV2Url(ep)}/runsync?wait=5`, { body: { input: {} } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('/query/wait');
  });

  it('QUEUE-JOB-013 QUEUE-JOB-014 /run bodies over 10 MB → 400; /runsync accepts up to 20 MB', async () => {
    const big = JSON.stringify({ input: { blob: 'x'.repeat(10 * 1024 * 1024) } });
    const run = await h.request('POST', `${h.mock.queueV2Url(ep)}/run`, { rawBody: big, headers: { 'content-type': 'application/json' } });
    expect(run.status).toBe(400);
    expect(await queued()).toBe(0);
    const sync = h.request('POST', `${h.mock.queueV2Url(ep)}/runsync?wait=1000`, { rawBody: big, headers: { 'content-type': 'application/json' } });
    // Advance only once the 10 MB upload has arrived and the job exists (no fixed sleep).
    for (let i = 0; i < 200 && (await queued()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await queued()).toBe(1);
    await h.advance(1_000);
    expect((await sync).status).toBe(200);
    const huge = JSON.stringify({ input: { blob: 'x'.repeat(20 * 1024 * 1024) } });
    const tooBig = await h.request('POST', `${h.mock.queueV2Url(ep)}/runsync`, { rawBody: huge, headers: { 'content-type': 'application/json' } });
    expect(tooBig.status).toBe(400);
  });

  it('unknown routes → 404, never 5xx', async () => {
    expect((await h.rest('GET', '/nothing-here')).status).toBe(404);
    expect((await h.queue(ep, 'GET', '/nothing-here')).status).toBe(404);
  });

  it('AUTH-003 a malformed %-escape in the endpoint id: 401 without a key, 404 with one, never 5xx', async () => {
    for (const id of ['%', '%E0%A4%A', '%ZZ']) {
      const url = `${h.mock.url}/v2/${id}/health`;
      expect((await h.request('GET', url, { key: null })).status, `${id} without a key`).toBe(401);
      expect((await h.request('GET', url)).status, `${id} with a key`).toBe(404);
      expect((await h.request('POST', `${h.mock.url}/v2/${id}/run`, { body: { input: {} } })).status, `${id} /run`).toBe(404);
    }
  });

  it('property: arbitrary JSON bodies to /run and REST creates never cause 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom('/run', '/runsync?wait=1000'), async (body, path) => {
        const pending = h.request('POST', `${h.mock.queueV2Url(ep)}${path}`, { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        if (path.startsWith('/runsync')) setTimeout(() => void h.advance(1_000), 5);
        const res = await pending;
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom('/pods', '/endpoints', '/templates', '/networkvolumes', '/containerregistryauth'), async (body, path) => {
        const res = await h.request('POST', `${h.mock.restV1Url}${path}`, { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });
});
