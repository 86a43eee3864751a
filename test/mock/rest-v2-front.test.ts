// The REST v2 front of the mock: problem details, statuses by where a request is wrong, quota windows
// with RateLimit fields, and REST v1 retirement. Rules RESTV2-ERROR-*, RESTV2-RATE-*, REST-RETIRED-001.
import { afterEach, describe, expect, it } from 'vitest';
import { restV2RateLimitWindows } from '../../generated/operations.js';
import { startMock, type MockOptions, type RunningMock } from '../../src/mock/index.js';

const KEY = 'front-key';
let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
const start = async (options: MockOptions = {}) =>
  (mock = await startMock({ host: '127.0.0.1', port: 0, clock: 'virtual', apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }, { key: 'read-key', scopes: ['read'], account: 'other-account' }], ...options }));

async function call(method: string, path: string, options: { body?: unknown; raw?: string; key?: string | null } = {}) {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? KEY : options.key;
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${mock!.restV2Url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('REST v2 errors are problem details (RESTV2-ERROR-001)', () => {
  it('answers 401, 403, 404, 405 and 422 as application/problem+json with title, status and detail', async () => {
    await start();
    const cases = [
      [await call('GET', '/templates', { key: null }), 401],
      [await call('POST', '/templates', { key: 'read-key', body: { name: 'x', image: 'x:1' } }), 403],
      [await call('GET', '/templates/none'), 404],
      [await call('PUT', '/templates'), 405],
      [await call('POST', '/templates', { body: { name: 'x' } }), 422],
    ] as const;
    for (const [answer, status] of cases) {
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect(answer.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
    }
  });

  it('names where the request is wrong: path → 404, query → 400, body → 422, malformed JSON → 400 (RESTV2-ERROR-002)', async () => {
    await start();
    expect((await call('GET', `/templates/${'x'.repeat(200)}`)).status).toBe(404);
    expect((await call('GET', '/pods?includeClusterPods=maybe')).status).toBe(400);
    const invalid = await call('POST', '/templates', { body: { name: 'x', image: 'x:1', disk: 'big' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual([expect.stringContaining('/body/disk')]);
    expect((await call('POST', '/templates', { raw: '{"name":' })).status).toBe(400);
    expect((await call('GET', '/templates')).body.templates).toEqual([]);
  });

  it('405 lists the path\'s methods in Allow; OPTIONS answers 204 without credentials (RESTV2-HTTP-001)', async () => {
    await start();
    const refused = await call('PATCH', '/account/ssh-keys');
    expect(refused.headers.get('allow')).toBe('GET, HEAD, PUT, OPTIONS');
    const options = await call('OPTIONS', '/templates', { key: null });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('REST v2 quota windows (RESTV2-RATE-001, RESTV2-RATE-002)', () => {
  const minute = restV2RateLimitWindows.find((w) => w.name === 'minute')!;

  it('reports every window of the spec on success and error answers, one less per request', async () => {
    await start({ clockStart: Date.UTC(2026, 10, 24, 12, 0, 0) });
    const first = await call('GET', '/templates');
    const second = await call('GET', '/templates/none');
    const policy = restV2RateLimitWindows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', ');
    expect(first.headers.get('ratelimit-policy')).toBe(policy);
    expect(second.headers.get('ratelimit-policy')).toBe(policy);
    expect(first.headers.get('ratelimit')).toBe(`"minute";r=${minute.limit - 1};t=60, "hour";r=2999;t=3600, "day";r=49999;t=43200`);
    expect(second.headers.get('ratelimit')).toBe(`"minute";r=${minute.limit - 2};t=60, "hour";r=2998;t=3600, "day";r=49998;t=43200`);
    expect((await call('GET', '/templates', { key: null })).headers.get('ratelimit')).toBeNull();
  });

  it('answers 429 with Retry-After to the window reset past the quota, and admits again after it', async () => {
    await start({ clockStart: Date.UTC(2026, 10, 24, 12, 0, 15) });
    for (let i = 0; i < minute.limit; i++) expect((await call('GET', '/templates')).status).toBe(200);
    const refused = await call('GET', '/templates');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(refused.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=45, /);
    expect(refused.body.detail).toBe('rate limit exceeded for the minute window');
    expect((await call('GET', '/templates', { key: 'read-key' })).status).toBe(200); // per account (per-user windows)
    mock!.clock.advance(45_000);
    expect((await call('GET', '/templates')).status).toBe(200);
  });

  it('are off with rateLimits: false (no RateLimit fields: the caller is exempt)', async () => {
    await start({ rateLimits: false });
    const answer = await call('GET', '/templates');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit')).toBeNull();
  });
});

describe('--retire-rest-v1 (REST-RETIRED-001)', () => {
  it('answers every REST v1 request 410 naming the REST v2 replacement, before auth, and stores nothing', async () => {
    await start({ retireRestV1: true });
    const v1 = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${mock!.restV1Url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { message: string } };
    };
    expect(await v1('GET', '/endpoints')).toEqual({ status: 410, body: { message: 'REST v1 was retired on 2026-11-15; use GET /v2/serverless (REST v2 listEndpoints) instead' } });
    expect((await v1('POST', '/pods/p1/reset')).body.message).toMatch(/resetPod has no REST v2 replacement: /);
    expect((await v1('POST', '/templates', { name: 't', imageName: 'x:1' })).status).toBe(410);
    expect((await call('GET', '/templates')).body.templates).toEqual([]);
  });
});
