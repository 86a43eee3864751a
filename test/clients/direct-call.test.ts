// The REST v1 / queue v2 request path (src/clients/direct-call.ts) builds requests and reads answers by
// openapi-fetch's rules without going through openapi-fetch: compared here with openapi-fetch itself.
import createClient, { createFinalURL, createQuerySerializer } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { callDirect, RequestBase } from '../../src/clients/direct-call.js';
import { ApiError } from '../../src/clients/errors.js';
import { simplePathSerializer } from '../../src/clients/path-serializer.js';
import type { RequestParts } from '../../src/validation/surface-loader.js';

const BASE = 'http://127.0.0.1:9/v1';
const headers = { 'X-Trace': 'abc', accept: 'text/plain', Authorization: 'Bearer k', Accept: 'application/json' };
const base = () => new RequestBase(BASE, headers, simplePathSerializer);
const check = { surface: 'restV1' as const, operationId: 'op', errorInit: { operationId: 'op' } };
const answering = (response: () => Response) => ({ retry: { maxRetries: 0, fetch: async () => response() } });

describe('direct calls build what openapi-fetch builds', () => {
  it.each<[RequestParts]>([
    [{ path: { podId: 'a b/c' } }],
    [{ path: { podId: 'p1' }, query: { includeMachine: true, gpuTypeId: ['NVIDIA A40', 'RTX 4090'], limit: 5 } }],
    [{ query: { name: 'ä&=?', empty: '', nested: { a: 1 } } }],
    [{}],
  ])('URL for %j', (parts) => {
    const expected = createFinalURL('/pods/{podId}', {
      baseUrl: BASE,
      params: { path: parts.path, query: parts.query } as never,
      querySerializer: createQuerySerializer(),
      pathSerializer: simplePathSerializer as never,
    });
    expect(base().url('/pods/{podId}', parts)).toBe(expected);
  });

  it('merges headers case-insensitively like openapi-fetch, with the JSON content type only for a body', async () => {
    const seen: Record<string, string>[] = [];
    const record = async (_url: string | URL | Request, init?: RequestInit) => {
      const flat: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, name) => (flat[name] = value));
      seen.push(flat);
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    };
    const viaOpenapiFetch = createClient({ baseUrl: BASE, headers, fetch: (request: Request) => record(request.url, { headers: request.headers }) });
    await viaOpenapiFetch.POST('/pods' as never, { body: { a: 1 } } as never);
    await callDirect(base(), { method: 'POST', path: '/pods', parts: { body: { a: 1 } }, retry: { maxRetries: 0, fetch: record } }, check);
    await callDirect(base(), { method: 'GET', path: '/pods', parts: {}, headers: { 'x-trace': 'call' }, retry: { maxRetries: 0, fetch: record } }, check);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[1]).toEqual({ accept: 'application/json', authorization: 'Bearer k', 'content-type': 'application/json', 'x-trace': 'abc' });
    expect(seen[2]).toEqual({ accept: 'application/json', authorization: 'Bearer k', 'x-trace': 'call' });
  });

  it('gives every call its own headers: a fetch that edits them does not change the next call', async () => {
    const sent: unknown[] = [];
    const editing = async (_url: string | URL | Request, init?: RequestInit) => {
      const own = init?.headers as Record<string, string>;
      sent.push({ ...own });
      own['x-added'] = 'by fetch';
      return new Response(null, { status: 204 });
    };
    const shared = base();
    await callDirect(shared, { method: 'GET', path: '/pods', parts: {}, retry: { maxRetries: 0, fetch: editing } }, check);
    await callDirect(shared, { method: 'GET', path: '/pods', parts: {}, retry: { maxRetries: 0, fetch: editing } }, check);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('reads answers by openapi-fetch rules: no body for 204 and length 0, JSON success, error text parsed when it is JSON', async () => {
    const call = (response: () => Response) => callDirect(base(), { method: 'GET', path: '/x', parts: {}, ...answering(response) }, check);
    expect(await call(() => new Response(null, { status: 204 }))).toMatchObject({ ok: true, data: undefined });
    expect(await call(() => new Response('', { status: 200, headers: { 'content-length': '0' } }))).toMatchObject({ ok: true, data: undefined });
    expect(await call(() => new Response('{"id":"p"}', { status: 200 }))).toMatchObject({ ok: true, data: { id: 'p' } });
    expect(await call(() => new Response('{"message":"no"}', { status: 404 }))).toMatchObject({ ok: false, body: { message: 'no' } });
    expect(await call(() => new Response('<html>bad gateway</html>', { status: 502 }))).toMatchObject({ ok: false, body: '<html>bad gateway</html>' });
    const broken = call(() => new Response('{not json', { status: 200, headers: { 'content-length': '9' } }));
    await expect(broken).rejects.toBeInstanceOf(ApiError);
    await expect(call(() => new Response('{not json', { status: 200, headers: { 'content-length': '9' } }))).rejects.toThrow(/Invalid response body/);
  });
});
