// Load-balancing workers that are HTTP server processes: the stdlib-only Python worker (examples/lb-workers/worker.py,
// `--worker NAME=FILE.py`) and a node:http one (`--worker NAME=exec:node …`). Health gating on GET /ping,
// streaming, request-count scaling, idle stop, a connection closed by the worker, a worker that never gets ready.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Harness, KEY } from './harness.js';

const PY = resolve('examples/lb-workers/worker.py');
const NODE = `exec:node ${resolve('examples/lb-workers/server.mjs')}`;
const SILENT = `exec:python3 -c "import sys,time; sys.stderr.write('boom: no server in here\\n'); sys.stderr.flush(); time.sleep(30)"`;

let h: Harness;
const lines: string[] = [];

async function lbEndpoint(name: string, workers: Record<string, number>, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await h.request('POST', `${h.mock.restV2Url}/serverless`, {
    body: { name, type: 'LOAD_BALANCER', image: 'x:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'REQUEST_COUNT', requestCount: 1 }, workers, ...extra },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

const lb = (id: string, path: string, init: RequestInit = {}) =>
  fetch(`${h.mock.lbUrl(id)}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string>) } });

beforeAll(async () => {
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  h = await Harness.start({ workers: { 'lb-py': PY, 'lb-node': NODE, 'lb-silent': SILENT } });
});
afterAll(async () => {
  await h.close();
  vi.restoreAllMocks();
});

describe('a stdlib Python HTTP server as the worker (FILE.py)', () => {
  let id: string;
  beforeAll(async () => {
    id = await lbEndpoint('lb-py', { min: 0, max: 2, idleTimeout: 9 }, { env: { GREETING: 'hello from env', INIT_PINGS: '3' } });
  });

  it('answers its own paths once GET /ping is 200 (204 while initialising): the request waits, then is forwarded', async () => {
    const res = await lb(id, '/generate?q=cat', { method: 'POST', body: '{"prompt":"a cat"}', headers: { 'x-custom': 'kept', 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ method: 'POST', path: '/generate', query: { q: ['cat'] }, body: '{"prompt":"a cat"}', custom: 'kept', authorization: null, endpoint: id, greeting: 'hello from env' });
  });

  it('streams a chunked answer through unchanged', async () => {
    const res = await lb(id, '/stream');
    expect(await res.text()).toBe('one two three');
  });

  it('a worker closing the connection before answering is 502; closing mid-answer cuts the answer; the mock stays up', async () => {
    const closed = await lb(id, '/close');
    expect(closed.status).toBe(502);
    await expect(lb(id, '/cut').then((r) => r.text())).rejects.toThrow();
    expect((await lb(id, '/after')).status).toBe(200);
  });

  it('scales by request count (requestCount 1), routes to the least busy ready worker, stops idle workers', async () => {
    const held = [lb(id, '/hold?ms=2500'), lb(id, '/hold?ms=2500')];
    const pool = h.mock.loadBalancer.pool(id)!;
    // Two requests in flight: a second process starts; once it is ready it is the least busy one.
    await vi.waitFor(() => expect(pool.view().filter((w) => w.state === 'ready')).toHaveLength(2), { timeout: 10_000, interval: 50 });
    const free = await (await lb(id, '/hold?ms=0')).json();
    const busy = await Promise.all(held.map(async (r) => (await (await r).json()).pid));
    expect(busy[0]).toBe(busy[1]);
    expect(free.pid).not.toBe(busy[0]);
    expect(pool.size).toBe(2);
    await h.advance(9_000);
    expect(pool.size).toBe(0);
  });
});

describe('other process workers', () => {
  it('a node:http server (exec:COMMAND) answers through the mock', async () => {
    const id = await lbEndpoint('lb-node', { min: 0, max: 1 });
    const res = await lb(id, '/anything?x=1', { method: 'PUT', body: 'abc' });
    expect(res.headers.get('x-worker')).toBe('node');
    expect(await res.json()).toMatchObject({ method: 'PUT', url: '/anything?x=1', bytes: 3 });
  });

  it('a worker that never answers /ping: 400 no workers available after 120 s, reported once with its last stderr line', async () => {
    const id = await lbEndpoint('lb-silent', { min: 0, max: 1 });
    const waiting = lb(id, '/generate');
    await h.untilOpen(1);
    // Let the process start and write its line (real time), then move the mock's clock past the bound.
    await new Promise((r) => setTimeout(r, 1_500));
    await h.advance(120_000);
    expect((await waiting).status).toBe(400);
    const second = lb(id, '/generate');
    await h.untilOpen(1);
    await h.advance(120_000);
    expect((await second).status).toBe(400);
    const reports = lines.filter((l) => l.includes('load-balancing worker') && l.includes(id));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain('did not answer GET /ping with 200 within 120 s; its last stderr line: boom: no server in here');
  });
});
