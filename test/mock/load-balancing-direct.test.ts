// Direct access to a load-balancing endpoint's workers (x-load-balancing-endpoints.directAccess) with a Node
// fetch-handler worker (`--worker NAME=MODULE` exporting `(request) => Response`): forwarding, both address
// forms, account isolation, least-busy routing and request-count scaling, the no-worker bound, idle stop.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerDefinition } from '../../src/mock/index.js';
import { Harness, KEY } from './harness.js';

const OTHER = 'other-account-key';
const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
/** Requests the fetch handler holds until released (for concurrency and scaling). */
const held: (() => void)[] = [];

async function nodeWorker(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === '/hold') await new Promise<void>((resolve) => held.push(resolve));
  if (url.pathname === '/boom') throw new Error('the worker broke');
  const body = await request.text();
  return new Response(JSON.stringify({
    method: request.method, path: url.pathname, query: url.search, body,
    custom: request.headers.get('x-custom'), authorization: request.headers.get('authorization'),
  }), { status: 201, headers: { 'content-type': 'application/json', 'x-worker': 'node' } });
}

let h: Harness;
let id: string;

async function lbEndpoint(name: string, workers: Record<string, number>, requestCount = 1): Promise<string> {
  const created = await h.request('POST', `${h.mock.restV2Url}/serverless`, {
    body: { name, type: 'LOAD_BALANCER', image: 'x:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'REQUEST_COUNT', requestCount }, workers },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

function lb(endpointId: string, path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? KEY : init.key;
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  return fetch(`${h.mock.lbUrl(endpointId)}${path}`, { ...init, headers });
}

/** A raw request (a Host header, a path fetch would normalise). */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(h.mock.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { authorization: `Bearer ${KEY}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  h = await Harness.start({
    apiKeys: [{ key: KEY, scopes: [...ALL] }, { key: OTHER, scopes: [...ALL], account: 'acme' }],
    workers: { 'lb-node': nodeWorker as unknown as WorkerDefinition, 'lb-scale': nodeWorker as unknown as WorkerDefinition },
  });
  id = await lbEndpoint('lb-node', { min: 0, max: 2 });
});
afterAll(() => h.close());

describe('direct access: the request reaches a worker and its answer comes back unchanged', () => {
  it('forwards method, path, query, headers without Authorization and the body; status, headers and body come back', async () => {
    const res = await lb(id, '/generate?x=1&y=two', { method: 'POST', body: 'hello worker', headers: { 'x-custom': 'kept' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-worker')).toBe('node');
    expect(await res.json()).toEqual({ method: 'POST', path: '/generate', query: '?x=1&y=two', body: 'hello worker', custom: 'kept', authorization: null });
  });

  it('answers by Host {endpointId}.localhost the same way, the whole path being the worker\'s', async () => {
    const res = await raw('/v2/generate', { host: `${id}.localhost` });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body).path).toBe('/v2/generate');
  });

  it('refuses a path escaping the endpoint (400) and a Host naming an unknown id (404)', async () => {
    expect((await raw(`/lb/${id}/../../v1/pods`, {})).status).toBe(400);
    expect((await raw(`/lb/${id}/a/%2e%2e/b`, {})).status).toBe(400);
    const unknown = await raw('/generate', { host: 'nosuchendpoint.localhost' });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).message).toBe('endpoint nosuchendpoint not found');
  });

  it('authenticates with the owning account: no key 401, another account\'s key 404 as an absent endpoint', async () => {
    expect((await lb(id, '/generate', { key: null })).status).toBe(401);
    const foreign = await lb(id, '/generate', { key: OTHER });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ message: `endpoint ${id} not found` });
  });

  it('a queue endpoint has no direct address (404); a body over the payload limit is 413', async () => {
    const queue = await h.endpoint();
    expect((await lb(queue, '/generate')).status).toBe(404);
    const big = await raw(`/lb/${id}/generate`, { 'content-length': String(31_457_281) });
    expect(big.status).toBe(413);
  });

  it('a worker that throws answers 500 and the mock keeps serving', async () => {
    expect((await lb(id, '/boom')).status).toBe(500);
    expect((await lb(id, '/after')).status).toBe(201);
  });
});

describe('routing and scaling by request count', () => {
  it('starts one worker per requestCount requests up to workersMax, routes to the least busy, stops idle workers', async () => {
    const scaled = await lbEndpoint('lb-scale', { min: 0, max: 2, idleTimeout: 7 });
    const first = lb(scaled, '/hold');
    const second = lb(scaled, '/hold');
    await h.untilOpen(2);
    const pool = h.mock.loadBalancer.pool(scaled)!;
    expect(pool.view().map((w) => w.inFlight).sort()).toEqual([1, 1]);
    held.splice(0).forEach((release) => release());
    expect([(await first).status, (await second).status]).toEqual([201, 201]);
    await h.advance(6_999);
    expect(pool.size).toBe(2);
    await h.advance(1);
    expect(pool.size).toBe(0);
  });

  it('no ready worker within noWorkerWaitMs (workersMax 0): 400 no workers available, nothing queued after', async () => {
    const none = await lbEndpoint('lb-none', { min: 0, max: 0 });
    const waiting = lb(none, '/generate');
    await h.untilOpen(1);
    await h.advance(119_999);
    await h.advance(1);
    const res = await waiting;
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/^no workers available/);
  });
});
