import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { operations } from '../../../generated/operations.js';
import {
  ApiError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
  UnprocessableEntityError,
  ValidationError,
} from '../../../src/clients/errors.js';
import { REST_V2_DEFAULT_BASE_URL, REST_V2_OPERATIONS, createRestV2Client, type RestV2ClientOptions } from '../../../src/clients/rest-v2/index.js';
import { recordingSleep, startFakeServer, type FakeReply, type FakeServer, type Route } from '../fake-server.js';

const API_KEY = 'rpa_V2KEY_abcdefghijkl';
const PASSWORD = 'hunter2-super-secret';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(route: Route, extra: Partial<RestV2ClientOptions> = {}) {
  server = await startFakeServer(route);
  const { sleep, delays } = recordingSleep();
  const v2 = createRestV2Client({ baseUrl: server.url, apiKey: API_KEY, sleep, validateRequests: false, ...extra });
  return { v2, server, delays };
}

const problem = (status: number, title: string, detail: string, errors?: string[]) => ({
  status,
  headers: { 'content-type': 'application/problem+json' },
  body: { title, status, detail, ...(errors ? { errors } : {}) },
});

describe('operation table', () => {
  it('has the 67 operations of the bundled spec and of generated/operations.ts', () => {
    const spec = JSON.parse(readFileSync(new URL('../../../generated/rest-v2/openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const fromSpec: Record<string, [string, string]> = {};
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) if (op.operationId) fromSpec[op.operationId] = [method.toUpperCase(), path];
    }
    expect(Object.keys(fromSpec)).toHaveLength(67);
    expect(REST_V2_OPERATIONS).toEqual(fromSpec);
    const table = operations.filter((o) => (o.surface as string) === 'restV2');
    for (const info of table) expect(REST_V2_OPERATIONS[info.operationId as keyof typeof REST_V2_OPERATIONS]).toEqual([info.method, info.path]);
  });

  it('base URL: origin without /v2, default https://api.runpod.io', () => {
    expect(REST_V2_DEFAULT_BASE_URL).toBe('https://api.runpod.io');
    expect(() => createRestV2Client({ apiKey: 'k', baseUrl: 'https://api.runpod.ai/v2' })).toThrow(/without \/v2/);
    expect(() => createRestV2Client({ apiKey: '' })).toThrow(/apiKey/);
    expect(createRestV2Client({ apiKey: 'k' }).rateLimit).toBeUndefined();
  });
});

describe('helpers', () => {
  it('issue the right method and path, unwrap wrapped lists, keep rich answers whole', async () => {
    const { v2, server } = await client((req) => {
      const p = req.pathname;
      if (req.method === 'DELETE') return { status: 204 };
      if (req.method === 'POST' && p === '/v2/pods/p1/action') return req.json && (req.json as { action: string }).action === 'terminate' ? { status: 204 } : { body: { id: 'p1' } };
      if (req.method === 'POST') return { status: 201, body: { id: 'new' } };
      const lists: Record<string, string> = {
        '/v2/pods': 'pods',
        '/v2/clusters/c1/pods': 'pods',
        '/v2/serverless': 'endpoints',
        '/v2/templates': 'templates',
        '/v2/network-volumes': 'networkVolumes',
        '/v2/registries': 'registries',
        '/v2/registries/delegations': 'delegations',
        '/v2/clusters': 'clusters',
        '/v2/catalog/gpus': 'gpus',
        '/v2/catalog/cpus': 'cpus',
        '/v2/catalog/datacenters': 'dataCenters',
        '/v2/catalog/templates': 'templates',
      };
      const key = lists[p];
      if (key && req.method === 'GET') return { body: { [key]: [{ id: `${key}-1` }] } };
      if (p.startsWith('/v2/billing')) return { body: { records: [], metadata: { recordCount: 0 } } };
      if (p.endsWith('/workers')) return { body: { workers: [], summary: { total: 0 } } };
      if (p.endsWith('/releases')) return { body: { rollout: {}, releases: [] } };
      if (p === '/v2/account/ssh-keys') return { body: { keys: ['ssh-ed25519 AAAA me'] } };
      return { body: { id: p.split('/').pop() } };
    });

    expect(await v2.pods.list({ includeClusterPods: true })).toEqual([{ id: 'pods-1' }]);
    await v2.pods.create({ name: 'p', image: 'img:1' } as never);
    expect(await v2.pods.get('p1')).toEqual({ id: 'p1' });
    await v2.pods.update('p1', { name: 'q' } as never);
    expect(await v2.pods.delete('p1')).toBeUndefined();
    expect(await v2.pods.action('p1', 'stop')).toEqual({ id: 'p1' });
    expect(await v2.pods.action('p1', 'terminate')).toBeUndefined();
    expect(await v2.serverless.list()).toEqual([{ id: 'endpoints-1' }]);
    await v2.serverless.create({} as never);
    await v2.serverless.get('e1');
    await v2.serverless.update('e1', {} as never);
    await v2.serverless.delete('e1');
    expect(await v2.serverless.workers('e1')).toEqual({ workers: [], summary: { total: 0 } });
    expect(await v2.serverless.releases('e1')).toEqual({ rollout: {}, releases: [] });
    expect(await v2.templates.list()).toEqual([{ id: 'templates-1' }]);
    await v2.templates.create({} as never);
    await v2.templates.get('t1');
    await v2.templates.update('t1', {} as never);
    await v2.templates.delete('t1');
    expect(await v2.networkVolumes.list()).toEqual([{ id: 'networkVolumes-1' }]);
    await v2.networkVolumes.create({ name: 'v', size: 10, dataCenter: 'EU-RO-1' });
    await v2.networkVolumes.get('nv1');
    await v2.networkVolumes.update('nv1', { name: 'w' } as never);
    await v2.networkVolumes.delete('nv1');
    expect(await v2.registries.list()).toEqual([{ id: 'registries-1' }]);
    await v2.registries.create({ name: 'r', username: 'u', password: PASSWORD });
    await v2.registries.get('r1');
    await v2.registries.delete('r1');
    expect(await v2.registries.delegations.list()).toEqual([{ id: 'delegations-1' }]);
    await v2.registries.delegations.create({ resource: 'arn:aws:ecr:us-east-1:1:repository/x' } as never);
    await v2.registries.delegations.revoke('d1');
    expect(await v2.clusters.list()).toEqual([{ id: 'clusters-1' }]);
    await v2.clusters.create({} as never);
    await v2.clusters.get('c1');
    await v2.clusters.update('c1', {} as never);
    await v2.clusters.delete('c1');
    expect(await v2.clusters.pods('c1')).toEqual([{ id: 'pods-1' }]);
    expect(await v2.catalog.gpus()).toEqual([{ id: 'gpus-1' }]);
    await v2.catalog.gpu('NVIDIA A40');
    expect(await v2.catalog.cpus()).toEqual([{ id: 'cpus-1' }]);
    await v2.catalog.cpu('cpu3c');
    expect(await v2.catalog.dataCenters()).toEqual([{ id: 'dataCenters-1' }]);
    await v2.catalog.dataCenter('EU-RO-1');
    expect(await v2.catalog.publicTemplates()).toEqual([{ id: 'templates-1' }]);
    for (const read of [v2.billing.all, v2.billing.pods, v2.billing.serverless, v2.billing.endpoints, v2.billing.networkVolumes, v2.billing.clusters]) {
      expect(await read()).toEqual({ records: [], metadata: { recordCount: 0 } });
    }
    expect(await v2.account.sshKeys.get()).toEqual({ keys: ['ssh-ed25519 AAAA me'] });
    await v2.account.sshKeys.update({ keys: [] });
    await v2.request('getPod', { path: { id: 'a b' } });

    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v2/pods?includeClusterPods=true',
      'POST /v2/pods',
      'GET /v2/pods/p1',
      'PATCH /v2/pods/p1',
      'DELETE /v2/pods/p1',
      'POST /v2/pods/p1/action',
      'POST /v2/pods/p1/action',
      'GET /v2/serverless',
      'POST /v2/serverless',
      'GET /v2/serverless/e1',
      'PATCH /v2/serverless/e1',
      'DELETE /v2/serverless/e1',
      'GET /v2/serverless/e1/workers',
      'GET /v2/serverless/e1/releases',
      'GET /v2/templates',
      'POST /v2/templates',
      'GET /v2/templates/t1',
      'PATCH /v2/templates/t1',
      'DELETE /v2/templates/t1',
      'GET /v2/network-volumes',
      'POST /v2/network-volumes',
      'GET /v2/network-volumes/nv1',
      'PATCH /v2/network-volumes/nv1',
      'DELETE /v2/network-volumes/nv1',
      'GET /v2/registries',
      'POST /v2/registries',
      'GET /v2/registries/r1',
      'DELETE /v2/registries/r1',
      'GET /v2/registries/delegations',
      'POST /v2/registries/delegations',
      'DELETE /v2/registries/delegations/d1',
      'GET /v2/clusters',
      'POST /v2/clusters',
      'GET /v2/clusters/c1',
      'PATCH /v2/clusters/c1',
      'DELETE /v2/clusters/c1',
      'GET /v2/clusters/c1/pods',
      'GET /v2/catalog/gpus',
      'GET /v2/catalog/gpus/NVIDIA%20A40',
      'GET /v2/catalog/cpus',
      'GET /v2/catalog/cpus/cpu3c',
      'GET /v2/catalog/datacenters',
      'GET /v2/catalog/datacenters/EU-RO-1',
      'GET /v2/catalog/templates',
      'GET /v2/billing',
      'GET /v2/billing/pods',
      'GET /v2/billing/serverless',
      'GET /v2/billing/endpoints',
      'GET /v2/billing/network-volumes',
      'GET /v2/billing/clusters',
      'GET /v2/account/ssh-keys',
      'PUT /v2/account/ssh-keys',
      'GET /v2/pods/a%20b',
    ]);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.requests[5]!.json).toEqual({ action: 'stop' });
  });

  it('the raw layer answers {data, error, response} without throwing', async () => {
    const { v2 } = await client(() => problem(404, 'Not Found', 'pod not found'));
    const { data, error, response } = await v2.raw.GET('/v2/pods/{id}', { params: { path: { id: 'p9' } } });
    expect(data).toBeUndefined();
    expect(error).toEqual({ title: 'Not Found', status: 404, detail: 'pod not found' });
    expect(response.status).toBe(404);
  });
});

describe('problem+json errors', () => {
  const cases: Array<[number, new (...args: never[]) => ApiError]> = [
    [400, BadRequestError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [500, InternalServerError],
  ];
  for (const [status, ErrorClass] of cases) {
    it(`${status} → ${ErrorClass.name} carrying title/detail/errors`, async () => {
      const { v2 } = await client(() => problem(status, 'Some Title', 'what went wrong', ['$.name: too short']), { maxRetries: 0 });
      const error = (await v2.pods.get('p1').catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error.status).toBe(status);
      expect(error.problem).toEqual({ title: 'Some Title', status, detail: 'what went wrong', errors: ['$.name: too short'] });
      expect(error.message).toBe(`${status} what went wrong: $.name: too short (getPod)`);
    });
  }

  it('400 issues read the plain-string errors', async () => {
    const { v2 } = await client(() => problem(400, 'Bad Request', 'invalid body', ['$: bad']));
    const error = (await v2.pods.get('p1').catch((e: unknown) => e)) as BadRequestError;
    expect(error.issues).toEqual([{ path: '', message: '$: bad' }]);
  });

  it('a non-JSON error body becomes problem details from the status line', async () => {
    const { v2 } = await client(() => ({ status: 502, headers: { 'content-type': 'text/html' }, body: '<html>bad gateway</html>' }), { maxRetries: 0 });
    const error = (await v2.pods.list().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.problem).toMatchObject({ status: 502, detail: '<html>bad gateway</html>' });
  });

  it('the registry password and the API key never surface', async () => {
    const { v2 } = await client((req) =>
      problem(422, 'Unprocessable Entity', `rejected ${JSON.stringify(req.json)} with Bearer ${API_KEY}`, [`password ${PASSWORD} too weak`]),
    );
    const error = (await v2.registries.create({ name: 'r', username: 'u', password: PASSWORD }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    const surfaced = `${error.message} ${String(error)} ${JSON.stringify(error.toJSON())} ${JSON.stringify(error.problem)}`;
    expect(surfaced).not.toContain(PASSWORD);
    expect(surfaced).not.toContain(API_KEY);
    expect(surfaced).toContain('[REDACTED]');
  });
});

describe('retries and rate limits', () => {
  it('429 with Retry-After is retried after the asked wait; RateLimit headers are recorded', async () => {
    const { v2, server, delays } = await client((_req, index): FakeReply =>
      index === 0
        ? {
            ...problem(429, 'Too Many Requests', 'rate limit exceeded for the minute window'),
            headers: {
              'content-type': 'application/problem+json',
              'retry-after': '12',
              ratelimit: '"minute";r=0;t=12, "hour";r=100;t=3000',
              'ratelimit-policy': '"minute";q=60;w=60, "hour";q=3000;w=3600',
            },
          }
        : { headers: { ratelimit: '"minute";r=59;t=60', 'ratelimit-policy': '"minute";q=60;w=60' }, body: { pods: [] } },
    );
    const first = await v2.pods.list();
    expect(first).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([12_000]);
    expect(v2.rateLimit!.windows).toEqual([{ name: 'minute', remaining: 59, resetSeconds: 60, quota: 60, windowSeconds: 60 }]);
  });

  it('a 429 beyond the retry budget is a RateLimitError, and its RateLimit is the last seen', async () => {
    const { v2 } = await client(() => ({
      ...problem(429, 'Too Many Requests', 'rate limit exceeded'),
      headers: { 'content-type': 'application/problem+json', 'retry-after': '3', ratelimit: '"hour";r=0;t=3' },
    }), { maxRetries: 1 });
    const error = await v2.catalog.gpus().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
    expect(v2.rateLimit?.windows).toEqual([{ name: 'hour', remaining: 0, resetSeconds: 3 }]);
  });

  it('creates are not repeated after a 503; podAction start/stop are', async () => {
    const { v2, server } = await client((req, index) => (index < 2 ? problem(503, 'Service Unavailable', 'busy') : { status: 201, body: { id: req.pathname } }));
    await expect(v2.templates.create({} as never)).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
    await expect(v2.pods.action('p1', 'start', { maxRetries: 1 })).resolves.toEqual({ id: '/v2/pods/p1/action' });
    expect(server.requests).toHaveLength(3);
  });

  it('per-call maxRetries and AbortSignal', async () => {
    const { v2, server } = await client((_req, index) => (index < 5 ? problem(500, 'Internal Server Error', 'boom') : { body: { id: 'p1' } }));
    await expect(v2.pods.get('p1', { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
    const controller = new AbortController();
    controller.abort();
    await expect(v2.pods.get('p1', { signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(server.requests).toHaveLength(1);
  });

  it('abort while the server hangs; per-call timeoutMs', async () => {
    const { v2 } = await client(() => ({ hang: true }), { sleep: undefined });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(v2.pods.list(undefined, { signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
    await expect(v2.pods.list(undefined, { timeoutMs: 50, maxRetries: 0 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('request validation (restV2 validators)', () => {
  it('rejects an invalid body before sending', async () => {
    const { v2, server } = await client(() => ({ body: {} }), { validateRequests: true });
    const error = await v2.pods.action('p1', 'explode' as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
    await v2.networkVolumes.create({ name: 'v', size: 10, dataCenter: 'EU-RO-1' });
    expect(server.requests).toHaveLength(1);
  });
});
