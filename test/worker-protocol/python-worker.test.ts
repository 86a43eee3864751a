// A stdlib-only Python worker speaking RunPod's worker protocol, run by the mock as `--worker NAME=FILE.py`:
// the queue's rules hold with it exactly as with simulated workers.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Harness, type Res } from '../mock/harness.js';

const WORKER = 'test/worker-protocol/protocol_worker.py';
let h: Harness;
let ep: string;
const reports: string[] = [];

beforeAll(async () => {
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (String(chunk).includes('exited at start')) reports.push(String(chunk));
    return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
  });
  h = await Harness.start({ workers: { py: WORKER, broken: "exec:echo 'no model file' >&2; exit 3" }, workerKillGraceMs: 400 });
  ep = await h.endpoint({ name: 'py', workersMax: 1, templateId: await h.template({ env: { GREETING: 'hello' } }) });
});
afterAll(() => h.close());

/** Waits for a terminal status (/status-sync is released by the job's end, not by the clock). */
async function final(endpointId: string, id: string): Promise<any> {
  const res = await h.queue(endpointId, 'GET', `/status-sync/${id}?wait=120000`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Reads the worker's REST v2 log stream (it follows) until `text` shows, then hangs up. */
async function workerLogUntil(workerId: string, text: string): Promise<string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 10_000);
  const res = await fetch(`${h.mock.restV2Url}/serverless/${ep}/workers/${workerId}/logs?tail=50`, { headers: { authorization: 'Bearer test-key' }, signal: abort.signal });
  let seen = '';
  try {
    const reader = res.body!.getReader();
    while (!seen.includes(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
  } catch {
    // Aborted after 10 s: the assertion shows what arrived.
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return seen;
}

/** Reads /status until `ok` holds (the worker runs in real time; bounded). */
async function until(endpointId: string, id: string, ok: (body: any) => boolean): Promise<any> {
  let res: Res | undefined;
  for (let i = 0; i < 400; i++) {
    res = await h.status(endpointId, id);
    if (ok(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`status never matched: ${JSON.stringify(res?.body)}`);
}

describe('a Python worker behind the mock (FILE.py)', () => {
  it('completes a job: the worker gets the id the caller got and its output is the result', async () => {
    const res = await h.queue(ep, 'POST', '/runsync?wait=60000', { input: { prompt: 'hi' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'COMPLETED', output: { echo: { prompt: 'hi' } } });
    expect(await workerLogUntil(res.body.workerId, `job ${res.body.id} started`)).toContain(`job ${res.body.id} started`);
  });

  it('fails a job whose handler raises (the SDK error shape) or returns {error}', async () => {
    const raised = await final(ep, await h.run(ep, { raise: 'bad prompt' }));
    expect(raised.status).toBe('FAILED');
    expect(JSON.parse(raised.error)).toMatchObject({ error_message: 'bad prompt', error_type: "<class 'ValueError'>" });
    const returned = await final(ep, await h.run(ep, { error: 'no GPU' }));
    expect(returned).toMatchObject({ status: 'FAILED', error: 'no GPU' });
  });

  it('streams: chunks reach /stream, the output is the chunks', async () => {
    const id = await h.run(ep, { stream: ['a', 'b', 'c'] });
    const done = await final(ep, id);
    expect(done).toMatchObject({ status: 'COMPLETED', output: ['a', 'b', 'c'] });
    const stream = await h.queue(ep, 'GET', `/stream/${id}`);
    expect(stream.body.stream).toEqual([{ output: 'a' }, { output: 'b' }, { output: 'c' }]);
  });

  it('reports progress: IN_PROGRESS with the progress output, then completes', async () => {
    const id = await h.run(ep, { progress: ['25%', '50%'], step_ms: 300 });
    const seen = await until(ep, id, (b) => b.status === 'IN_PROGRESS' && b.output !== undefined);
    expect(['25%', '50%']).toContain(seen.output);
    expect(await final(ep, id)).toMatchObject({ status: 'COMPLETED', output: { done: true } });
  });

  it('cancel ends a running job at once; the worker stops it and takes the next job', async () => {
    const id = await h.run(ep, { sleep_ms: 60_000 });
    const running = await until(ep, id, (b) => b.status === 'IN_PROGRESS');
    expect((await h.queue(ep, 'POST', `/cancel/${id}`)).body.status).toBe('CANCELLED');
    const next = await final(ep, await h.run(ep, { n: 2 }));
    expect(next).toMatchObject({ status: 'COMPLETED', output: { echo: { n: 2 } } });
    expect(next.workerId, 'the same worker: it stopped the job, so it was not killed').toBe(running.workerId);
    expect((await h.status(ep, id)).body.status).toBe('CANCELLED');
  });

  it('executionTimeout ends a running job TIMED_OUT (mock clock); /retry runs it again with the same id', async () => {
    const id = await h.run(ep, { sleep_ms: 60_000 }, { policy: { executionTimeout: 5000 } });
    await until(ep, id, (b) => b.status === 'IN_PROGRESS');
    await h.advance(5001);
    expect((await h.status(ep, id)).body.status).toBe('TIMED_OUT');
    const retried = await h.queue(ep, 'POST', `/retry/${id}`);
    expect(retried.body).toEqual({ id, status: 'IN_QUEUE' });
    await until(ep, id, (b) => b.status === 'IN_PROGRESS');
    expect((await h.queue(ep, 'POST', `/cancel/${id}`)).body.status).toBe('CANCELLED');
  });

  it('a worker blocked in its handler past the kill grace is killed and replaced; its late result never lands', async () => {
    const id = await h.run(ep, { block_ms: 3000 });
    const running = await until(ep, id, (b) => b.status === 'IN_PROGRESS');
    // IN_PROGRESS comes with the hand-over: a stop read before the handler holds the loop finds no job of the
    // worker's yet, and its next poll then counts as the sign that it stopped (so it would not be killed).
    expect(await workerLogUntil(running.workerId, `job ${id} blocking`)).toContain(`job ${id} blocking`);
    expect((await h.queue(ep, 'POST', `/cancel/${id}`)).body.status).toBe('CANCELLED');
    const next = await final(ep, await h.run(ep, { n: 3 }));
    expect(next.status).toBe('COMPLETED');
    expect(next.workerId, 'a fresh worker replaced the killed one').not.toBe(running.workerId);
    expect((await h.status(ep, id)).body).toMatchObject({ status: 'CANCELLED' });
  });

  it('a process exiting mid-job ends the job FAILED (a held /runsync answers 500) and is replaced', async () => {
    const res = await h.queue(ep, 'POST', '/runsync?wait=60000', { input: { exit: 3 } });
    expect(res.status).toBe(500);
    const next = await final(ep, await h.run(ep, { n: 4 }));
    expect(next.status).toBe('COMPLETED');
  });

  it('the template and endpoint env reach the worker process', async () => {
    expect(await final(ep, await h.run(ep, { env: 'GREETING' }))).toMatchObject({ output: { env: 'hello' } });
  });

  it('refresh_worker (stopPod) completes the job and replaces the worker', async () => {
    const done = await final(ep, await h.run(ep, { refresh: true }));
    expect(done).toMatchObject({ status: 'COMPLETED', output: { refreshed: true } });
    const next = await final(ep, await h.run(ep, { n: 5 }));
    expect(next.workerId).not.toBe(done.workerId);
  });
});

describe('bad input', () => {
  const take = (endpointId: string, key: string) => fetch(`${h.mock.url}/v2/${endpointId}/job-take/w1?gpu=CPU&job_in_progress=0`, { headers: { authorization: key } });

  it('a worker key is its endpoint\'s: a wrong one is 401, an account key too, and it opens no management surface', async () => {
    expect((await take(ep, 'rpw_wrong')).status).toBe(401);
    expect((await take(ep, 'test-key')).status).toBe(401);
    const key = h.mock.core.workerHub.keyOf(ep);
    expect((await fetch(`${h.mock.restV1Url}/endpoints`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    const other = await h.endpoint({ name: 'other' });
    expect((await take(other, key)).status, "another endpoint's jobs are absent to it").toBe(404);
  });

  it('job-done for an unknown job, a terminal job, or with a body that is not JSON changes nothing (4xx)', async () => {
    const key = h.mock.core.workerHub.keyOf(ep);
    const post = (jobId: string, body: string) => fetch(`${h.mock.url}/v2/${ep}/job-done/w1/${jobId}?gpu=CPU&isStream=false`, { method: 'POST', headers: { authorization: key }, body });
    expect((await post('nope', '{"output":1}')).status).toBe(404);
    const id = await h.run(ep, { sleep_ms: 60_000 });
    await until(ep, id, (b) => b.status === 'IN_PROGRESS');
    expect((await post(id, 'not json')).status).toBe(400);
    expect((await post(id, '{"output":"forged"}')).status, 'not the worker running it').toBe(409);
    await h.queue(ep, 'POST', `/cancel/${id}`);
    expect((await post(id, '{"output":"late"}')).status).toBe(409);
    expect((await h.status(ep, id)).body).toMatchObject({ status: 'CANCELLED' });
    expect((await h.status(ep, id)).body.output).toBeUndefined();
  });

  it('a worker process that exits at start is reported once; its jobs wait as on a throttled endpoint', async () => {
    const broken = await h.endpoint({ name: 'broken' });
    const id = await h.run(broken, {});
    for (let i = 0; i < 200 && reports.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('no model file');
    const health = await h.queue(broken, 'GET', '/health');
    expect(health.body.workers.throttled).toBe(1);
    expect((await h.status(broken, id)).body.status).toBe('IN_QUEUE');
  });
});
