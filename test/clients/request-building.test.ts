import { describe, expect, it } from 'vitest';
import { simplePathSerializer } from '../../src/clients/path-serializer.js';
import { PreparedRequest, replayableBody } from '../../src/clients/prepared-request.js';
import { createRetryFetch } from '../../src/clients/retry-fetch.js';

describe('path serialisation', () => {
  it('fills every simple parameter, encoding reserved characters', () => {
    expect(simplePathSerializer('https://x/v1/pods/{podId}/stop', { podId: 'a b/c?' })).toBe('https://x/v1/pods/a%20b%2Fc%3F/stop');
    expect(simplePathSerializer('https://x/v2/{a}/status/{b}', { a: 'ep', b: 'sync-1-u1' })).toBe('https://x/v2/ep/status/sync-1-u1');
  });

  it('leaves a missing parameter as its placeholder (the server answers 404, nothing is guessed)', () => {
    expect(simplePathSerializer('https://x/v1/pods/{podId}', {})).toBe('https://x/v1/pods/{podId}');
  });

  it('reuses the compiled template without mixing up parameters between calls', () => {
    const template = 'https://x/v1/templates/{templateId}';
    expect(simplePathSerializer(template, { templateId: 't1' })).toBe('https://x/v1/templates/t1');
    expect(simplePathSerializer(template, { templateId: 't2' })).toBe('https://x/v1/templates/t2');
  });
});

describe('prepared requests', () => {
  it('rejects a malformed URL and a GET with a body, as new Request() does', () => {
    expect(() => new PreparedRequest('not a url')).toThrow(TypeError);
    expect(() => new PreparedRequest('http://127.0.0.1/x', { method: 'GET', body: '{}' })).toThrow(/GET method cannot have a body/);
  });

  it('keeps method, headers, redirect and signal', () => {
    const controller = new AbortController();
    const request = new PreparedRequest('http://127.0.0.1/x', { method: 'post', headers: { a: '1' }, body: '{}', signal: controller.signal });
    expect([request.method, request.headers.get('a'), request.redirect, request.signal]).toEqual(['POST', '1', 'follow', controller.signal]);
  });

  it('gives a body every attempt can resend: strings as they are, streams read once', async () => {
    expect(replayableBody(new PreparedRequest('http://127.0.0.1/x', { method: 'POST', body: '{"a":1}' }))).toBe('{"a":1}');
    const stream = new Blob(['{"b":2}']).stream();
    const body = await replayableBody(new PreparedRequest('http://127.0.0.1/x', { method: 'POST', body: stream, duplex: 'half' } as RequestInit));
    expect(new TextDecoder().decode(body as ArrayBuffer)).toBe('{"b":2}');
  });

  it('is sent by the retry fetch with the same parts on every attempt', async () => {
    const seen: Array<{ url: string; method?: string; body: unknown; auth: string | null }> = [];
    const fetch = createRetryFetch({
      maxRetries: 1,
      sleep: async () => undefined,
      fetch: async (input, init) => {
        seen.push({ url: String(input), method: init?.method, body: init?.body, auth: new Headers(init?.headers).get('authorization') });
        return new Response('{}', { status: seen.length === 1 ? 429 : 200, headers: { 'retry-after': '0' } });
      },
    });
    const response = await fetch(new PreparedRequest('http://127.0.0.1/v2/ep/run', { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"input":{}}' }));
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      { url: 'http://127.0.0.1/v2/ep/run', method: 'POST', body: '{"input":{}}', auth: 'Bearer k' },
      { url: 'http://127.0.0.1/v2/ep/run', method: 'POST', body: '{"input":{}}', auth: 'Bearer k' },
    ]);
  });
});
