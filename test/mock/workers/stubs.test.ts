// Stub workers (docs/workers.md "Stubs"): rules tried in order, match = JSON subset of the input, a default rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from '../harness.js';
import { isJsonSubset } from '../../../src/mock/simulated-workers/stubs.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start({
    workers: {
      images: [
        { match: { prompt: 'fail me' }, error: 'NSFW content detected', durationMs: 20 },
        { match: { size: { width: 64 } }, output: { image_url: 'https://example.test/small.png' }, durationMs: 30 },
        { stream: ['a', 'b', 'c', 'd'], durationMs: 400 },
      ],
      strict: [{ match: { ok: true }, output: 1 }],
    },
  });
});
afterAll(() => h.close());

async function final(ep: string, id: string): Promise<Record<string, any>> {
  return (await h.status(ep, id)).body;
}

describe('stub rules', () => {
  it('the first matching rule decides: error after its duration', async () => {
    const ep = await h.endpoint({ name: 'images' });
    const id = await h.run(ep, { prompt: 'fail me', seed: 3 });
    await h.advance(20);
    expect(await final(ep, id)).toMatchObject({ status: 'FAILED', error: 'NSFW content detected', executionTime: 20 });
  });

  it('match is a JSON subset (nested objects)', async () => {
    const ep = await h.endpoint({ name: 'images' });
    const id = await h.run(ep, { prompt: 'cat', size: { width: 64, height: 64 } });
    await h.advance(30);
    expect(await final(ep, id)).toMatchObject({ status: 'COMPLETED', output: { image_url: 'https://example.test/small.png' } });
  });

  it('the default rule streams its chunks spread over durationMs', async () => {
    const ep = await h.endpoint({ name: 'images' });
    const id = await h.run(ep, { prompt: 'anything' });
    await h.advance(200);
    expect((await h.queue(ep, 'GET', `/stream/${id}`)).body.stream).toEqual([{ output: 'a' }, { output: 'b' }]);
    await h.advance(200);
    expect((await h.queue(ep, 'GET', `/stream/${id}`)).body.stream).toEqual([{ output: 'c' }, { output: 'd' }]);
    expect(await final(ep, id)).toMatchObject({ status: 'COMPLETED', output: ['a', 'b', 'c', 'd'] });
  });

  it('no matching rule and no default: the job fails saying so', async () => {
    const ep = await h.endpoint({ name: 'strict' });
    const id = await h.run(ep, { ok: false });
    await h.advance(50);
    expect(await final(ep, id)).toMatchObject({ status: 'FAILED', error: expect.stringContaining('no stub rule matches') });
  });

  it('control API: PUT /__control/workers/{name} sets stubs, DELETE removes them, reset forgets them', async () => {
    const ep = await h.endpoint({ name: 'from-control' });
    const put = await h.control('PUT', '/workers/from-control', { rules: [{ output: { stubbed: true }, durationMs: 5 }] });
    expect(put.status).toBe(200);
    expect(put.body.workers).toContainEqual({ name: 'from-control', kind: 'stubs', source: 'control:from-control', rules: 1 });
    const id = await h.run(ep, {});
    await h.advance(5);
    expect(await final(ep, id)).toMatchObject({ output: { stubbed: true } });
    expect((await h.control('DELETE', '/workers/from-control')).status).toBe(200);
    const id2 = await h.run(ep, { x: 1 });
    await h.advance(50);
    expect(await final(ep, id2)).toMatchObject({ output: { echo: { x: 1 } } });
  });

  it('control API: bad stubs are refused with the reason', async () => {
    const bad = await h.control('PUT', '/workers/x', { rules: [{ output: 1, error: 'e' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toContain('both output and error');
    const unknown = await h.control('PUT', '/workers/x', [{ respond: 1 }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toContain('respond is not a rule field');
  });
});

describe('isJsonSubset', () => {
  it('objects by key, arrays element-wise, scalars by value', () => {
    expect(isJsonSubset({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true);
    expect(isJsonSubset({ a: [1, { b: 2 }] }, { a: [1, { b: 2, c: 3 }] })).toBe(true);
    expect(isJsonSubset({ a: [1] }, { a: [1, 2] })).toBe(false);
    expect(isJsonSubset({ a: null }, { a: null })).toBe(true);
    expect(isJsonSubset({ a: null }, {})).toBe(false);
    expect(isJsonSubset({}, { anything: 1 })).toBe(true);
  });
});
