// Official-client compatibility: the published JS SDK (runpod-sdk 1.1.2, pinned in devDependencies) drives
// the mock's queue v2 surface unmodified; only its baseUrl is set, to the mock's root + /v2 (docs/official-sdks.md). It posts `{}` with
// Content-Type: application/json to body-less operations and sends that content type on every GET.
import runpodSdk from 'runpod-sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Harness, KEY } from '../mock/harness.js';

let h: Harness;
let endpointId: string;

beforeEach(async () => {
  h = await Harness.start();
  endpointId = await h.endpoint({ workersMin: 0, workersMax: 1 });
  // runSync prints one line per status-sync poll; keep the test output clean.
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

function sdkEndpoint() {
  const endpoint = runpodSdk(KEY, { baseUrl: `${h.mock.url}/v2` }).endpoint(endpointId);
  if (!endpoint) throw new Error('the SDK returned no endpoint');
  return endpoint;
}

describe('runpod-sdk 1.1.2 against the mock', () => {
  it('run then status: the job is submitted and read back COMPLETED', async () => {
    const endpoint = sdkEndpoint();
    const submitted = await endpoint.run({ input: { mock: { durationMs: 1_000, output: { ok: 1 } } } });
    expect(submitted).toEqual({ id: expect.stringMatching(/-u1$/), status: 'IN_QUEUE' });
    await h.advance(1_000);
    const status = await endpoint.status(submitted.id);
    expect(status).toMatchObject({ id: submitted.id, status: 'COMPLETED', output: { ok: 1 }, started: true, completed: true, succeeded: true });
  });

  it('runSync: /runsync?wait=… answers the finished job', async () => {
    const endpoint = sdkEndpoint();
    const pending = endpoint.runSync({ input: { mock: { durationMs: 2_000, output: 'done' } } }, 5_000);
    await h.untilOpen(1);
    await h.advance(2_000);
    expect(await pending).toMatchObject({ id: expect.stringMatching(/^sync-/), status: 'COMPLETED', output: 'done', completed: true, succeeded: true });
  });

  it('statusSync: /status-sync/{id}?wait=… holds until the job finishes', async () => {
    const endpoint = sdkEndpoint();
    const { id } = await endpoint.run({ input: { mock: { durationMs: 2_000, output: 'late' } } });
    const pending = endpoint.statusSync(id, 5_000);
    await h.untilOpen(1);
    await h.advance(2_000);
    expect(await pending).toMatchObject({ id, status: 'COMPLETED', output: 'late', completed: true, succeeded: true });
  });

  it('the SDK base URL is the mock root + /v2, as https://api.runpod.ai/v2; REST v2 on the same /v2 does not get in the way', async () => {
    expect(`${h.mock.url}/v2`).toBe(h.mock.restV2Url);
    const { id } = await sdkEndpoint().run({ input: { mock: { durationMs: 0 } } });
    expect(id).toMatch(/-u1$/);
  });

  it('health: GET with Content-Type: application/json and no body', async () => {
    const health = await sdkEndpoint().health();
    expect(health).toMatchObject({ jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0 }, workers: expect.any(Object) });
  });

  it('cancel: POST /cancel/{id} with body {} cancels the job', async () => {
    const endpoint = sdkEndpoint();
    const { id } = await endpoint.run({ input: { mock: { durationMs: 60_000 } } });
    await h.advance(1);
    expect(await endpoint.cancel(id)).toMatchObject({ id, status: 'CANCELLED' });
    expect((await h.status(endpointId, id)).body.status).toBe('CANCELLED');
  });

  it('purgeQueue: POST /purge-queue with body {} removes the queued jobs, not the running one', async () => {
    const endpoint = sdkEndpoint();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await endpoint.run({ input: { mock: { durationMs: 60_000 } } })).id);
    await h.advance(1);
    expect(await endpoint.purgeQueue()).toEqual({ removed: 2, status: 'completed' });
    expect((await h.status(endpointId, ids[0]!)).body.status).toBe('IN_PROGRESS');
  });

  it('stream: yields each chunk once, in order, and stops when the job completes', async () => {
    const endpoint = sdkEndpoint();
    const { id } = await endpoint.run({ input: { mock: { durationMs: 3_000, stream: ['a', 'b', 'c'] } } });
    await h.advance(1);
    const chunks = endpoint.stream(id);
    const seen: unknown[] = [];
    // The SDK polls without pause until a chunk arrives, so the clock moves before each pull.
    for (let i = 0; i < 3; i++) {
      await h.advance(1_000);
      const next = await chunks.next();
      expect(next.done).toBe(false);
      seen.push(next.value);
    }
    expect(seen).toEqual([{ output: 'a' }, { output: 'b' }, { output: 'c' }]);
    expect((await chunks.next()).done).toBe(true);
  });
});
