// Worker processes behind the mock beyond one job at a time: attach mode (a worker the test starts itself with
// the environment of /__control/endpoints/{id}/worker-env), scaling between workersMin and workersMax on the
// virtual clock, `compute-contract worker --concurrency N`, webhooks, a process exiting mid-job, and what a
// worker key cannot do.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, KEY } from '../mock/harness.js';

const PY = 'test/worker-protocol/protocol_worker.py';
const NODE_WORKER = `exec:${process.execPath} --import tsx src/cli/main.ts worker --handler conformance --concurrency 3`;
let h: Harness;
let hook: Server;
const hooked: any[] = [];
let hookUrl = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  h = await Harness.start({ workers: { scaled: PY, exits: PY, conc: NODE_WORKER }, workerKillGraceMs: 2000 });
  hook = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      hooked.push(JSON.parse(text));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await h.close();
  await new Promise((r) => hook.close(r));
});

/** Reads `read` until `ok` holds: worker processes run on real time (bounded: 15 s). */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 600 && !ok(value); i++) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
    }
  expect(ok(value), `never held: ${JSON.stringify(value)}`).toBe(true);
  return value;
}

/** Live processes started with the endpoint's worker environment (Linux /proc). */
function processesOf(endpointId: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`RUNPOD_ENDPOINT_ID=${endpointId}`)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

const health = async (ep: string) => (await h.queue(ep, 'GET', '/health')).body.workers as { idle: number; initializing: number; running: number; throttled: number };
const total = (w: { idle: number; initializing: number; running: number }) => w.idle + w.initializing + w.running;
const final = async (ep: string, id: string) => (await h.queue(ep, 'GET', `/status-sync/${id}?wait=60000`)).body;

describe('attach mode', () => {
  it('a worker started with worker-env counts in /health like a spawned one and takes the endpoint\'s jobs', async () => {
    const ep = await h.endpoint({ name: 'attached', workersMax: 1 });
    const res = await fetch(`${h.mock.controlUrl}/endpoints/${ep}/worker-env`);
    expect(res.status).toBe(200);
    const env: Record<string, string> = {};
    for (const line of (await res.text()).split('\n')) {
      const at = line.indexOf('=');
      if (at > 0 && !line.startsWith('#')) env[line.slice(0, at)] = line.slice(at + 1);
    }
    expect(env['RUNPOD_WEBHOOK_GET_JOB']).toContain(`/v2/${ep}/job-take/$ID?`);
    expect(await health(ep)).toMatchObject({ idle: 0, running: 0 });
    const child = spawn('python3', [PY], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: 'ignore' });
    children.push(child);
    expect(await until(() => health(ep), (w) => w.idle === 1)).toMatchObject({ idle: 1, running: 0 });
    const done = await h.queue(ep, 'POST', '/runsync?wait=60000', { input: { attached: true } });
    expect(done.body).toMatchObject({ status: 'COMPLETED', output: { echo: { attached: true } }, workerId: env['RUNPOD_POD_ID'] });
    child.kill('SIGKILL');
  });
});

describe('scaling of worker processes', () => {
  it('keeps workersMin, scales to workersMax while jobs wait, stops the extra processes after idleTimeout', async () => {
    const ep = await h.endpoint({ name: 'scaled', workersMin: 1, workersMax: 3, idleTimeout: 5 });
    expect(await until(() => health(ep), (w) => w.idle === 1)).toMatchObject({ idle: 1, initializing: 0, running: 0 });
    const ids = [await h.run(ep, { sleep_ms: 60_000 }), await h.run(ep, { sleep_ms: 60_000 }), await h.run(ep, { sleep_ms: 60_000 })];
    expect(await until(() => health(ep), (w) => w.running === 3)).toMatchObject({ running: 3, idle: 0 });
    const workers = new Set(await Promise.all(ids.map(async (id) => (await h.status(ep, id)).body.workerId)));
    expect(workers.size, 'one process a job').toBe(3);
    for (const id of ids) expect((await h.queue(ep, 'POST', `/cancel/${id}`)).body.status).toBe('CANCELLED');
    expect(total(await health(ep))).toBe(3);
    await h.advance(4_000);
    expect(total(await health(ep)), 'idle for less than idleTimeout: all stay').toBe(3);
    await h.advance(1_001);
    expect(await health(ep)).toMatchObject({ idle: 1, running: 0, initializing: 0 });
    const left = h.mock.core.engine.workersOf(ep).map((w) => w.id);
    expect([...workers].filter((id) => left.includes(id)), 'one of the three stays').toHaveLength(1);
    expect(await until(async () => processesOf(ep), (pids) => pids.length === 1), 'the other two processes were stopped').toHaveLength(1);
    // A stopped process that asks once more (its SIGTERM not handled yet) is not a worker attaching.
    const gone = [...workers].find((id) => !left.includes(id))!;
    const late = await fetch(`${h.mock.url}/v2/${ep}/job-take/${gone}?gpu=CPU&job_in_progress=0`, { headers: { authorization: h.mock.core.workerHub.keyOf(ep) } });
    expect(late.status).toBe(404);
    expect(total(await health(ep))).toBe(1);
  });
});

describe('compute-contract worker --concurrency 3', () => {
  it('runs three jobs at once in one process (job-take-batch)', async () => {
    const ep = await h.endpoint({ name: 'conc', workersMax: 1 });
    const ids = await Promise.all([1, 2, 3].map((n) => h.run(ep, { n, mock: { durationMs: 600_000 } })));
    const running = await Promise.all(ids.map((id) => until(() => h.status(ep, id).then((r) => r.body), (b) => b.status === 'IN_PROGRESS')));
    expect(new Set(running.map((b) => b.workerId)).size, 'one worker runs all three').toBe(1);
    expect(await health(ep)).toMatchObject({ running: 1, idle: 0 });
    expect((await h.queue(ep, 'GET', '/health')).body.jobs.inProgress).toBe(3);
    for (const id of ids) expect((await h.queue(ep, 'POST', `/cancel/${id}`)).body.status).toBe('CANCELLED');
    const next = await h.queue(ep, 'POST', '/runsync?wait=60000', { input: { mock: { durationMs: 0, output: 'after' } } });
    expect(next.body).toMatchObject({ status: 'COMPLETED', output: 'after', workerId: running[0].workerId });
  }, 60_000);
});

describe('jobs of worker processes', () => {
  let ep = '';
  beforeAll(async () => void (ep = await h.endpoint({ name: 'exits', workersMax: 1 })));

  it('a job\'s webhook is called on completion, as with simulated workers', async () => {
    const id = await h.run(ep, { hooked: 1 }, { webhook: hookUrl });
    expect(await final(ep, id)).toMatchObject({ status: 'COMPLETED' });
    const call = await until(async () => hooked.find((b) => b.id === id), (b) => b !== undefined);
    expect(call).toMatchObject({ id, status: 'COMPLETED', output: { echo: { hooked: 1 } } });
  });

  it('a process exiting mid-job ends the job FAILED with the reason; a new process takes the next job', async () => {
    const id = await h.run(ep, { exit: 3 });
    expect((await h.queue(ep, 'GET', `/status-sync/${id}?wait=60000`)).status, 'a crashed worker\'s job: 500, as with simulated workers').toBe(500);
    const failed = (await h.status(ep, id)).body;
    expect(failed).toMatchObject({ status: 'FAILED', error: 'the worker process exited (code 3) while running the job' });
    const next = await final(ep, await h.run(ep, { n: 2 }));
    expect(next).toMatchObject({ status: 'COMPLETED', output: { echo: { n: 2 } } });
    expect(next.workerId).not.toBe(failed.workerId);
    expect((await h.queue(ep, 'POST', `/retry/${id}`)).body, 'FAILED, so /retry runs it again').toEqual({ id, status: 'IN_QUEUE' });
    await h.queue(ep, 'POST', `/cancel/${id}`);
  });
});

describe('what a worker key cannot do', () => {
  it('post for another endpoint\'s job, touch another endpoint, or call the queue, REST and GraphQL surfaces', async () => {
    const mine = await h.endpoint({ name: 'key-mine', workersMax: 0 });
    const other = await h.endpoint({ name: 'key-other', workersMax: 0 });
    const key = h.mock.core.workerHub.keyOf(mine);
    const foreignJob = await h.run(other, { n: 1 });
    const post = (ep: string, jobId: string) => fetch(`${h.mock.url}/v2/${ep}/job-done/w1/${jobId}?gpu=CPU&isStream=false`, { method: 'POST', headers: { authorization: key }, body: '{"output":"forged"}' });
    expect((await post(mine, foreignJob)).status, 'a job of another endpoint is absent on mine').toBe(404);
    expect((await post(other, foreignJob)).status, 'another endpoint is absent to my key').toBe(404);
    const stop = await fetch(`${h.mock.url}/v2/${other}/job-stop/w1?gpu=CPU`, { headers: { authorization: key } });
    expect(stop.status).toBe(404);
    expect((await h.status(other, foreignJob)).body).toMatchObject({ status: 'IN_QUEUE' });
    expect((await h.queue(mine, 'POST', '/run', { input: {} }, key)).status, 'queue v2').toBe(401);
    expect((await h.queue(mine, 'GET', '/health', undefined, key)).status, 'queue v2').toBe(401);
    expect((await fetch(`${h.mock.restV2Url}/endpoints`, { headers: { authorization: `Bearer ${key}` } })).status, 'REST v2').toBe(401);
    const graphql = await fetch(`${h.mock.graphqlUrl}?api_key=${encodeURIComponent(key)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ myself { id } }' }) });
    expect([401, 403]).toContain(graphql.status);
    expect((await fetch(`${h.mock.restV1Url}/endpoints`, { headers: { authorization: `Bearer ${KEY}` } })).status, 'the account key still works').toBe(200);
  });
});
