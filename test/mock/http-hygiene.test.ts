// HTTP method hygiene (RFC 9110) and CORS: HTTP-ALLOW-001 (405 + Allow), HTTP-OPTIONS-001 (OPTIONS →
// 204 + Allow, no credentials needed), HTTP-HEAD-001 (HEAD answers like GET without a body),
// HTTP-CORS-001 (off by default; `--cors ORIGIN|*`).
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../src/cli/mock-command.js';
import { mockOperations } from '../../src/mock/spec-facts.js';
import { Harness, KEY } from './harness.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http directly: exact methods and headers, and HEAD answers read as sent (no body expected). */
function raw(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const auth = { authorization: `Bearer ${KEY}` };
const corsHeaderNames = (r: Raw) => Object.keys(r.headers).filter((h) => h.startsWith('access-control-'));

/** Every distinct (surface, path) of the operations table with its methods, and a concrete URL. */
function routes(h: Harness, endpointId: string) {
  const byPath = new Map<string, { url: string; methods: Set<string> }>();
  for (const op of mockOperations) {
    const concrete = op.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'openaiPath' ? 'v1/chat/completions' : 'some-id'));
    const url = op.surface === 'restV1' ? `${h.mock.restV1Url}${concrete}` : op.surface === 'restV2' ? `${h.mock.restV2Url}${concrete.replace(/^\/v2/, '')}` : `${h.mock.queueV2Url(endpointId)}${concrete}`;
    const entry = byPath.get(url) ?? { url, methods: new Set<string>() };
    entry.methods.add(op.method);
    byPath.set(url, entry);
  }
  return [...byPath.values()];
}

function expectedAllow(methods: Set<string>): string[] {
  const list = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => methods.has(m));
  if (methods.has('GET')) list.push('HEAD');
  return [...list, 'OPTIONS'].sort();
}
const allowOf = (r: Raw) => String(r.headers['allow'] ?? '').split(',').map((m) => m.trim()).filter(Boolean).sort();

let h: Harness;
afterEach(() => h?.close());

describe('RFC 9110 method hygiene', () => {
  it('HTTP-ALLOW-001 every 405 carries Allow with the methods of the path', async () => {
    h = await Harness.start();
    const ep = await h.endpoint();
    for (const route of routes(h, ep)) {
      const method = route.methods.has('PUT') ? 'PATCH' : 'PUT'; // REST v2 ssh-keys takes PUT
      const res = await raw(method, route.url, { ...auth, 'content-type': 'application/json' }, '{}');
      expect(res.status, `${method} ${route.url}`).toBe(405);
      expect(allowOf(res), `Allow of ${route.url}`).toEqual(expectedAllow(route.methods));
    }
    const graphql = await raw('GET', `${h.mock.graphqlUrl}?api_key=${KEY}`);
    expect(graphql.status).toBe(405);
    expect(allowOf(graphql)).toEqual(['OPTIONS', 'POST']);
  });

  it('HTTP-OPTIONS-001 OPTIONS on every known path → 204 with Allow, without credentials', async () => {
    h = await Harness.start();
    const ep = await h.endpoint();
    for (const route of routes(h, ep)) {
      const res = await raw('OPTIONS', route.url);
      expect(res.status, `OPTIONS ${route.url}`).toBe(204);
      expect(res.text).toBe('');
      expect(allowOf(res), `Allow of ${route.url}`).toEqual(expectedAllow(route.methods));
    }
    const graphql = await raw('OPTIONS', h.mock.graphqlUrl);
    expect([graphql.status, allowOf(graphql)]).toEqual([204, ['OPTIONS', 'POST']]);
    // An unknown path is still unknown (and auth still comes first there).
    expect((await raw('OPTIONS', `${h.mock.restV1Url}/nothing-here`)).status).toBe(401);
    expect((await raw('OPTIONS', `${h.mock.restV1Url}/nothing-here`, auth)).status).toBe(404);
  });

  it('HTTP-HEAD-001 HEAD answers like GET without a body: same status, auth and Content-Length', async () => {
    h = await Harness.start();
    const ep = await h.endpoint();
    const urls = [`${h.mock.restV1Url}/pods`, `${h.mock.restV1Url}/templates`, `${h.mock.queueV2Url(ep)}/health`, `${h.mock.restV1Url}/billing/pods`];
    for (const url of urls) {
      const get = await raw('GET', url, auth);
      const head = await raw('HEAD', url, auth);
      expect([head.status, head.text], `HEAD ${url}`).toEqual([get.status, '']);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
      expect((await raw('HEAD', url)).status, `HEAD ${url} without a key`).toBe(401);
    }
    expect((await raw('HEAD', `${h.mock.queueV2Url(ep)}/status/no-such-job-u1`, auth)).status).toBe(404);
    const postOnly = await raw('HEAD', `${h.mock.queueV2Url(ep)}/run`, auth);
    expect([postOnly.status, allowOf(postOnly)]).toEqual([405, ['OPTIONS', 'POST']]);
    expect((await raw('HEAD', `${h.mock.graphqlUrl}?api_key=${KEY}`)).status).toBe(405);
  });

  it('HTTP-HEAD-001 HEAD /stream hands out no chunk: the next GET still gets it', async () => {
    h = await Harness.start();
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 2_000, stream: ['a', 'b'] } });
    await h.advance(2_000);
    const url = `${h.mock.queueV2Url(ep)}/stream/${id}`;
    const head = await raw('HEAD', url, auth);
    const get = await raw('GET', url, auth);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(JSON.parse(get.text).stream).toEqual([{ output: 'a' }, { output: 'b' }]);
  });
});

describe('CORS', () => {
  it('HTTP-CORS-001 off by default: no Access-Control-* header on any answer', async () => {
    h = await Harness.start();
    const ep = await h.endpoint();
    const origin = { origin: 'https://docs.example.com' };
    const answers = [
      await raw('GET', `${h.mock.queueV2Url(ep)}/health`, { ...auth, ...origin }),
      await raw('GET', `${h.mock.restV1Url}/pods`, origin),
      await raw('OPTIONS', `${h.mock.restV1Url}/pods`, { ...origin, 'access-control-request-method': 'GET' }),
      await raw('OPTIONS', h.mock.graphqlUrl, { ...origin, 'access-control-request-method': 'POST' }),
    ];
    for (const answer of answers) expect(corsHeaderNames(answer)).toEqual([]);
  });

  it('HTTP-CORS-001 --cors *: preflight and every answer of the public surfaces allow any origin', async () => {
    h = await Harness.start({ cors: '*' });
    const ep = await h.endpoint({ workersMax: 0 });
    const preflight = await raw('OPTIONS', `${h.mock.queueV2Url(ep)}/run`, {
      origin: 'https://docs.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type',
      'access-control-max-age': '600',
    });
    expect(preflight.headers['vary']).toBeUndefined();
    const ok = await raw('GET', `${h.mock.queueV2Url(ep)}/health`, { ...auth, origin: 'https://a.example' });
    const denied = await raw('GET', `${h.mock.restV1Url}/pods`, { origin: 'https://a.example' });
    const graphql = await raw('POST', `${h.mock.graphqlUrl}?api_key=${KEY}`, { 'content-type': 'application/json' }, '{"query":"{ __typename }"}');
    for (const answer of [ok, denied, graphql]) {
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(String(answer.headers['access-control-expose-headers'])).toContain('Retry-After');
    }
    expect(denied.status).toBe(401);
    // The control API has no auth: it never opens itself to foreign pages.
    expect(corsHeaderNames(await raw('GET', `${h.mock.controlUrl}/clock`))).toEqual([]);
  });

  it('HTTP-CORS-001 --cors ORIGIN: that origin, with Vary: Origin', async () => {
    h = await Harness.start({ cors: 'https://docs.example.com' });
    const preflight = await raw('OPTIONS', `${h.mock.restV1Url}/pods/p1`, { origin: 'https://docs.example.com', 'access-control-request-method': 'PATCH' });
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': 'https://docs.example.com', vary: 'Origin' });
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    const list = await raw('GET', `${h.mock.restV1Url}/pods`, auth);
    expect(list.headers).toMatchObject({ 'access-control-allow-origin': 'https://docs.example.com', vary: 'Origin' });
  });

  it('--cors is parsed by the CLI and refuses anything but an origin or *', () => {
    expect(parseMockArgs(['--cors', '*'])).toMatchObject({ cors: '*' });
    expect(parseMockArgs(['--cors', 'http://localhost:3000'])).toMatchObject({ cors: 'http://localhost:3000' });
    expect(() => parseMockArgs(['--cors', 'docs.example.com'])).toThrow(/origin/);
    expect(() => parseMockArgs(['--cors', 'https://docs.example.com/path'])).toThrow(/origin/);
  });
});
