// RESTV2-SECRET-004 and RESTV2-SECRET-008 on the mock at their edges: the value's 16,777,215 UTF-8 bytes
// (a body of twice that is still read), the description's 65,535 bytes, and 100 secrets per account on
// both surfaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../src/mock/index.js';

const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
let mock: RunningMock;

async function v2(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  for (;;) {
    const res = await fetch(`${mock.restV2Url}/account/secrets${path}`, { method, headers: { authorization: 'Bearer key-a', 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    // REST v2 allows 60 requests a minute: wait the window out on the virtual clock.
    if (res.status === 429) {
      await fetch(`${mock.controlUrl}/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 60_000 }) });
      continue;
    }
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
}

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', clock: 'virtual', control: true, apiKeys: [{ key: 'key-a', scopes: [...ALL] }] });
});
afterAll(() => mock?.close());

describe('RESTV2-SECRET-004 byte bounds', () => {
  it('a value of 16,777,215 bytes is stored; one byte more, or as many two-byte characters past the bytes, is 422 naming the bound', async () => {
    const largest = await v2('POST', '', { name: 'largest', value: 'v'.repeat(16_777_215) });
    expect(largest.status).toBe(201);
    expect(await v2('DELETE', `/${largest.body.id}`)).toMatchObject({ status: 204 });
    const over = await v2('POST', '', { name: 'over', value: 'v'.repeat(16_777_216) });
    expect(over).toMatchObject({ status: 422 });
    const wide = await v2('POST', '', { name: 'wide', value: 'é'.repeat(8_388_608) });
    expect(wide.body.errors).toEqual(['/body/value: must be at most 16777215 bytes of UTF-8']);
  });

  it('a description of 65,535 bytes is stored, 65,536 (in two-byte characters) is 422; updateSecret alike', async () => {
    const made = await v2('POST', '', { name: 'described', value: 'v', description: 'd'.repeat(65_535) });
    expect(made.status).toBe(201);
    expect((await v2('PATCH', `/${made.body.id}`, { description: 'é'.repeat(32_768) })).body.errors).toEqual(['/body/description: must be at most 65535 bytes of UTF-8']);
    expect((await v2('POST', '', { name: 'described-2', value: 'v', description: 'é'.repeat(32_768) })).status).toBe(422);
    await v2('DELETE', `/${made.body.id}`);
  });
});

describe('RESTV2-SECRET-008 100 secrets per account', () => {
  it('the 101st is 400 over REST v2 and an error over GraphQL; a delete makes room', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push((await v2('POST', '', { name: `s${i}`, value: 'v' })).body.id);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(await v2('POST', '', { name: 's100', value: 'v' })).toMatchObject({ status: 400, body: { detail: expect.stringMatching(/100 secrets/) } });
    const gql = await fetch(`${mock.graphqlUrl}?api_key=key-a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation { secretCreate(input: {name: "g", value: "v"}) { id } }' }) });
    expect(((await gql.json()) as { errors?: { message: string }[] }).errors?.[0]?.message).toMatch(/100 secrets/);
    expect((await v2('GET', '')).body.secrets).toHaveLength(100);
    await v2('DELETE', `/${ids[0]}`);
    expect((await v2('POST', '', { name: 's100', value: 'v' })).status).toBe(201);
  });
});
