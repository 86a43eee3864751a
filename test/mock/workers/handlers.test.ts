// Simulated workers by endpoint name: RunPod's handler contract (docs/workers.md "Handler contract").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from '../harness.js';
import type { WorkerContext, WorkerJob } from '../../../src/mock/index.js';

let h: Harness;
const seen: WorkerJob[] = [];
beforeAll(async () => {
  h = await Harness.start({
    workers: {
      upper: (job: WorkerJob) => {
        seen.push(job);
        return { text: String(job.input['prompt']).toUpperCase() };
      },
      thrower: () => {
        throw new Error('model not loaded');
      },
      'error-dict': () => ({ error: 'bad prompt' }),
      streamer: async function* (job: WorkerJob, context: WorkerContext) {
        for (let i = 0; i < 3; i++) {
          await context.sleep(100);
          yield { token: `${job.input['prompt']}-${i}` };
        }
      },
      forever: () => new Promise(() => {}),
      sleeper: async (_job: WorkerJob, context: WorkerContext) => {
        await context.sleep(5_000);
        return { slept: context.now() };
      },
      huge: () => 'x'.repeat(21 * 1024 * 1024),
      circular: () => {
        const a: Record<string, unknown> = {};
        a['self'] = a;
        return a;
      },
    },
  });
});
afterAll(() => h.close());

async function settle(ep: string, id: string, advanceMs = 0): Promise<Record<string, any>> {
  if (advanceMs > 0) await h.advance(advanceMs);
  for (let i = 0; i < 100; i++) {
    const res = await h.status(ep, id);
    if (!['IN_QUEUE', 'IN_PROGRESS'].includes(res.body.status)) return res.body;
    await new Promise((r) => setTimeout(r, 5));
  }
  return (await h.status(ep, id)).body;
}

describe('handler(job) by endpoint name', () => {
  it('the handler gets {id, input}; its return value is the output', async () => {
    const ep = await h.endpoint({ name: 'upper' });
    const id = await h.run(ep, { prompt: 'a cat' });
    expect(await settle(ep, id)).toMatchObject({ status: 'COMPLETED', output: { text: 'A CAT' } });
    expect(seen.at(-1)).toEqual({ id, input: { prompt: 'a cat' } });
  });

  it('input.mock still wins over the endpoint worker', async () => {
    const ep = await h.endpoint({ name: 'upper' });
    const id = await h.run(ep, { prompt: 'x', mock: { output: { from: 'mock' }, durationMs: 10 } });
    expect(await settle(ep, id, 10)).toMatchObject({ status: 'COMPLETED', output: { from: 'mock' } });
  });

  it('a throw makes the job FAILED with its message; a returned {error} too', async () => {
    const ep = await h.endpoint({ name: 'thrower' });
    expect(await settle(ep, await h.run(ep, {}))).toMatchObject({ status: 'FAILED', error: 'model not loaded' });
    const ep2 = await h.endpoint({ name: 'error-dict' });
    expect(await settle(ep2, await h.run(ep2, {}))).toMatchObject({ status: 'FAILED', error: 'bad prompt' });
  });

  it('an async generator streams through /stream; the output is the list of chunks', async () => {
    const ep = await h.endpoint({ name: 'streamer' });
    const id = await h.run(ep, { prompt: 'p' });
    await h.advance(1);
    await h.advance(100);
    const first = await h.queue(ep, 'GET', `/stream/${id}`);
    expect(first.body.stream).toEqual([{ output: { token: 'p-0' } }]);
    await h.advance(200);
    const rest = await h.queue(ep, 'GET', `/stream/${id}`);
    expect(rest.body.stream).toEqual([{ output: { token: 'p-1' } }, { output: { token: 'p-2' } }]);
    expect(await settle(ep, id)).toMatchObject({ status: 'COMPLETED', output: [{ token: 'p-0' }, { token: 'p-1' }, { token: 'p-2' }] });
  });

  it('context.sleep follows the virtual clock', async () => {
    const ep = await h.endpoint({ name: 'sleeper' });
    const submittedAt = h.mock.clock.now();
    const id = await h.run(ep, {});
    const done = await settle(ep, id, 5_000);
    expect(done).toMatchObject({ status: 'COMPLETED', executionTime: 5_000 });
    expect(done['output'].slept).toBe(submittedAt + 5_000);
  });

  it('a handler that never returns is cut at its time budget: TIMED_OUT (virtual clock)', async () => {
    const ep = await h.endpoint({ name: 'forever', executionTimeoutMs: 30_000 });
    const id = await h.run(ep, {});
    await h.advance(1);
    expect((await h.status(ep, id)).body.status).toBe('IN_PROGRESS');
    expect(await settle(ep, id, 30_000)).toMatchObject({ status: 'TIMED_OUT', error: expect.stringContaining('30000 ms') });
  });

  it('output beyond the result limit fails the job with that reason; the mock stays up', async () => {
    const ep = await h.endpoint({ name: 'huge' });
    expect(await settle(ep, await h.run(ep, {}))).toMatchObject({ status: 'FAILED', error: expect.stringContaining('exceeds the result limit of 20971520 bytes') });
    const ep2 = await h.endpoint({ name: 'circular' });
    expect(await settle(ep2, await h.run(ep2, {}))).toMatchObject({ status: 'FAILED', error: 'handler output is not JSON-serialisable' });
    expect((await h.queue(ep, 'GET', '/health')).status).toBe(200);
  });

  it('an endpoint of another name keeps the default echo worker', async () => {
    const ep = await h.endpoint({ name: 'plain' });
    const id = await h.run(ep, { a: 1 });
    expect(await settle(ep, id, 50)).toMatchObject({ status: 'COMPLETED', output: { echo: { a: 1 } } });
  });
});
