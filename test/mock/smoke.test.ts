import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

describe('smoke', () => {
  it('runs a job to completion on the virtual clock', async () => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { prompt: 'hi' });
    expect(id).toMatch(/^[0-9a-f-]{36}-u1$/);
    expect((await h.status(ep, id)).body.status).toBe('IN_PROGRESS');
    await h.advance(50);
    const done = await h.status(ep, id);
    expect(done.body).toMatchObject({ id, status: 'COMPLETED', output: { echo: { prompt: 'hi' } }, executionTime: 50, delayTime: 0 });
  });
});

describe('real clock', () => {
  it('jobs progress on wall-clock time without the control API', async () => {
    const real = await Harness.start({ clock: 'real', control: false });
    try {
      const ep = await real.endpoint();
      const res = await real.queue(ep, 'POST', '/runsync?wait=5000', { input: { mock: { durationMs: 5, output: 'done' } } });
      expect(res.body).toMatchObject({ status: 'COMPLETED', output: 'done' });
    } finally {
      await real.close();
    }
  });
});
