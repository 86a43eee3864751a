import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start({
  apiKeys: [
    { key: 'test-key', scopes: ['read', 'write', 'jobs', 'graphql'] },
    { key: 'reader', scopes: ['read'] },
    { key: 'jobs-only', scopes: ['jobs'] },
  ],
})));
afterEach(() => h.close());

describe('authentication and scopes', () => {
  it.each([
    ['missing', null],
    ['unknown', 'wrong-key'],
  ])('AUTH-001 AUTH-002 AUTH-004 GQL-AUTH-002 %s key → 401 with the error body on every surface', async (_label, key) => {
    for (const res of [
      await h.rest('GET', '/pods', undefined, key),
      await h.rest('POST', '/pods', { bogus: true }, key),
      await h.rest('GET', '/pods/does-not-exist', undefined, key),
      await h.rest('GET', '/no/such/route', undefined, key),
      await h.queue('unknown-endpoint', 'POST', '/run', { input: {} }, key),
      await h.queue('unknown-endpoint', 'GET', '/status/x', undefined, key),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/Unauthorized/);
    }
    expect((await h.graphql('{ podTemplate(id: "x") { id } }', undefined, key)).status).toBe(401);
  });

  it('AUTH-003 AUTH-005 a key without the operation scope → 401 before any other processing', async () => {
    expect((await h.rest('GET', '/pods', undefined, 'reader')).status).toBe(200);
    expect((await h.rest('POST', '/templates', { nonsense: 1 }, 'reader')).status).toBe(401);
    const ep = await h.endpoint();
    expect((await h.queue(ep, 'POST', '/run', { input: {} }, 'reader')).status).toBe(401);
    expect((await h.queue(ep, 'POST', '/run', { input: {} }, 'jobs-only')).status).toBe(200);
    expect((await h.rest('GET', '/pods', undefined, 'jobs-only')).status).toBe(401);
    expect((await h.graphql('{ podTemplate(id: "x") { id } }', undefined, 'jobs-only')).status).toBe(401);
  });

  it('GQL-AUTH-001 GQL-AUTH-003 GraphQL accepts ?api_key= and a Bearer header', async () => {
    expect((await h.graphql('{ podTemplate(id: "x") { id } }')).status).toBe(200);
    const res = await h.request('POST', h.mock.graphqlUrl, { body: { query: '{ podTemplate(id: "x") { id } }' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { podTemplate: null } });
  });

  it('the control API takes no API key and is absent unless enabled', async () => {
    expect((await h.control('GET', '/clock')).status).toBe(200);
    const plain = await Harness.start({ control: false });
    try {
      expect((await plain.control('GET', '/clock')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
