import { afterEach, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  ValidationError,
  createRestClient,
  restOperationSpec,
  type RestClientOptions,
} from '../../src/clients/index.js';
import { recordingSleep, refusedPortUrl, startFakeServer, type FakeServer, type Route } from './fake-server.js';

const API_KEY = 'rpa_RESTKEY_abcdefghij';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(route: Route, extra: Partial<RestClientOptions> = {}) {
  server = await startFakeServer(route);
  const { sleep, delays } = recordingSleep();
  const rest = createRestClient({ baseUrl: `${server.url}/v1`, apiKey: API_KEY, sleep, ...extra });
  return { rest, server, delays };
}

const pod = { id: 'pod-1', desiredStatus: 'RUNNING' };

describe('every REST v1 operation is reachable through a helper', () => {
  it('35 operations with method and path from the spec', () => {
    const rest = operations.filter((o) => o.surface === 'restV1');
    expect(rest).toHaveLength(35);
    for (const info of rest) expect(restOperationSpec(info.operationId)).toMatchObject({ method: info.method, path: info.path });
    expect(() => restOperationSpec('nope')).toThrow(/Unknown/);
  });

  it('helpers issue the right method and path (ids encoded, query serialised)', async () => {
    const { rest, server } = await client((req) => {
      if (req.method === 'DELETE') return { status: 204 };
      if (req.pathname === '/v1/pods' && req.method === 'POST') return { status: 201, body: pod };
      if (/^\/v1\/(pods|endpoints|templates|networkvolumes|containerregistryauth|billing\/\w+)$/.test(req.pathname)) return { body: [] };
      return { body: {} };
    }, { validateRequests: false });
    await rest.pods.list({ computeType: 'GPU' });
    await rest.pods.create({ name: 'p', imageName: 'img:1' });
    await rest.pods.get('pod-1', { includeMachine: true });
    await rest.pods.update('pod-1', { name: 'q' });
    await rest.pods.delete('pod-1');
    await rest.pods.start('pod-1');
    await rest.pods.stop('pod-1');
    await rest.pods.reset('pod-1');
    await rest.pods.restart('pod-1');
    await rest.endpoints.list();
    await rest.endpoints.create({ templateId: 't-1', gpuTypeIds: ['NVIDIA A40'], workersMin: 0, workersMax: 2, idleTimeout: 5 });
    await rest.endpoints.get('ep-1');
    await rest.endpoints.update('ep-1', { workersMax: 3 });
    await rest.endpoints.delete('ep-1');
    await rest.templates.list();
    await rest.templates.create({ name: 't', imageName: 'img:1' });
    await rest.templates.get('t-1');
    await rest.templates.update('t-1', { name: 't2' });
    await rest.templates.delete('t-1');
    await rest.networkVolumes.list();
    await rest.networkVolumes.create({ name: 'v', size: 10, dataCenterId: 'EU-RO-1' });
    await rest.networkVolumes.get('nv-1');
    await rest.networkVolumes.update('nv-1', { name: 'w' });
    await rest.networkVolumes.delete('nv-1');
    await rest.containerRegistryAuths.list();
    await rest.containerRegistryAuths.create({ name: 'r', username: 'u', password: 'p4ssw0rd!' });
    await rest.containerRegistryAuths.get('cra-1');
    await rest.containerRegistryAuths.delete('cra-1');
    await rest.billing.pods({ bucketSize: 'day' });
    await rest.billing.endpoints();
    await rest.billing.networkVolumes();
    await rest.request('updatePodViaPost', { path: { podId: 'a b' }, body: { name: 'z' } });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/pods?computeType=GPU',
      'POST /v1/pods',
      'GET /v1/pods/pod-1?includeMachine=true',
      'PATCH /v1/pods/pod-1',
      'DELETE /v1/pods/pod-1',
      'POST /v1/pods/pod-1/start',
      'POST /v1/pods/pod-1/stop',
      'POST /v1/pods/pod-1/reset',
      'POST /v1/pods/pod-1/restart',
      'GET /v1/endpoints',
      'POST /v1/endpoints',
      'GET /v1/endpoints/ep-1',
      'PATCH /v1/endpoints/ep-1',
      'DELETE /v1/endpoints/ep-1',
      'GET /v1/templates',
      'POST /v1/templates',
      'GET /v1/templates/t-1',
      'PATCH /v1/templates/t-1',
      'DELETE /v1/templates/t-1',
      'GET /v1/networkvolumes',
      'POST /v1/networkvolumes',
      'GET /v1/networkvolumes/nv-1',
      'PATCH /v1/networkvolumes/nv-1',
      'DELETE /v1/networkvolumes/nv-1',
      'GET /v1/containerregistryauth',
      'POST /v1/containerregistryauth',
      'GET /v1/containerregistryauth/cra-1',
      'DELETE /v1/containerregistryauth/cra-1',
      'GET /v1/billing/pods?bucketSize=day',
      'GET /v1/billing/endpoints',
      'GET /v1/billing/networkvolumes',
      'POST /v1/pods/a%20b/update',
    ]);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });
});

describe('REST client behaviour', () => {
  it('returns typed data; delete resolves undefined on 204', async () => {
    const { rest } = await client((req) => (req.method === 'DELETE' ? { status: 204 } : { status: 201, body: pod }));
    const created = await rest.pods.create({ name: 'p', imageName: 'img:1' });
    expect(created.id).toBe('pod-1');
    await expect(rest.pods.delete('pod-1')).resolves.toBeUndefined();
  });

  it('REST-REGAUTH: duplicate name → BadRequestError; the password never appears in the error', async () => {
    const password = 'hunter2-registry-pw';
    const { rest } = await client((req) => ({ status: 400, body: { message: `name already used (sent ${JSON.stringify(req.json)})` } }));
    const error = await rest.containerRegistryAuths.create({ name: 'dup', username: 'u', password }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(String(error)).not.toContain(password);
    expect(JSON.stringify(error)).not.toContain(password);
  });

  it('401 → AuthenticationError; 404 → NotFoundError with the operation id', async () => {
    const { rest } = await client((req) => (req.pathname.includes('pods') ? { status: 401, body: { message: 'Unauthorized' } } : { status: 404, body: { message: 'Template not found' } }));
    await expect(rest.pods.list()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(rest.templates.get('t-x')).rejects.toMatchObject({ name: 'NotFoundError', operationId: 'getTemplate', status: 404 });
    await expect(rest.templates.get('t-x')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('non-JSON error bodies become {message}', async () => {
    const { rest } = await client(() => ({ status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } }), { maxRetries: 0 });
    await expect(rest.pods.list()).rejects.toMatchObject({ status: 502, body: { message: '<html>Bad gateway</html>' } });
  });

  it('GET retried on 503; POST create not', async () => {
    const { rest, server } = await client((req, index) => (index === 0 || req.method === 'POST' ? { status: 503, body: { message: 'busy' } } : { body: [] }));
    await expect(rest.pods.list()).resolves.toEqual([]);
    await expect(rest.templates.create({ name: 't', imageName: 'i:1' })).rejects.toMatchObject({ status: 503 });
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'POST']);
  });

  it('missing required body field fails locally with its JSON path', async () => {
    const { rest, server } = await client(() => ({ body: {} }));
    const error = await rest.containerRegistryAuths.create({ name: 'r', username: 'u' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toContainEqual(expect.objectContaining({ path: '/body/password' }));
    expect(server.requests).toHaveLength(0);
  });

  it('connection refused → ConnectionError without the key', async () => {
    const url = await refusedPortUrl();
    const { sleep } = recordingSleep();
    const rest = createRestClient({ baseUrl: `${url}/v1`, apiKey: API_KEY, sleep });
    const error = await rest.pods.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).operationId).toBe('listPods');
    expect(String(error)).not.toContain(API_KEY);
  });

  it('per-call timeoutMs and AbortSignal apply to REST calls', async () => {
    const { rest } = await client(() => ({ hang: true }), { maxRetries: 0, timeoutMs: 60_000 });
    await expect(rest.pods.list(undefined, { timeoutMs: 20 })).rejects.toMatchObject({ name: 'TimeoutError', operationId: 'listPods' });
    const controller = new AbortController();
    const pending = rest.pods.get('pod-1', undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', operationId: 'getPod' });
  });

  it('raw: the typed openapi-fetch layer answers {data, error, response} without throwing, with auth and retries', async () => {
    const { rest, server, delays } = await client((req, index) =>
      req.pathname === '/v1/pods/pod-1' ? { body: pod }
        : index === 1 ? { status: 503, headers: { 'retry-after': '1' }, body: { message: 'busy' } }
          : { status: 404, body: { message: 'no such pod' } },
    );
    const found = await rest.raw.GET('/pods/{podId}', { params: { path: { podId: 'pod-1' } } });
    expect([found.data, found.error, found.response.status]).toEqual([pod, undefined, 200]);
    const missing = await rest.raw.GET('/pods/{podId}', { params: { path: { podId: 'nope' } } });
    expect([missing.data, missing.error, missing.response.status]).toEqual([undefined, { message: 'no such pod' }, 404]);
    expect(delays).toEqual([1000]); // the 503 was retried after Retry-After
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });
});

