// RESTV2-SECRET-002 on the mock: a secret value sent to any REST v2 secret operation — accepted, refused
// (409, 422, 400 for an oversized or malformed body) or for another account — never comes back in a
// status line, header or body, and never reaches a log line (--log, console, stdout, stderr).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../../../src/mock/index.js';

const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
const KEY = 'key-a';
const OTHER = 'key-b';
let mock: RunningMock;
const logged: string[] = [];
const answers: string[] = [];

async function send(method: string, path: string, body?: unknown, options: { key?: string; raw?: string } = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${mock.restV2Url}/account/secrets${path}`, {
    method, headers: { authorization: `Bearer ${options.key ?? KEY}`, 'content-type': 'application/json' },
    body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  const headers: string[] = [];
  res.headers.forEach((value, name) => void headers.push(`${name}: ${value}`));
  answers.push(`${res.status} ${res.statusText} ${headers.join('\n')} ${text}`);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr] as const) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      logged.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
  mock = await startMock({ port: 0, host: '127.0.0.1', clock: 'virtual', log: true, apiKeys: [{ key: KEY, scopes: [...ALL] }, { key: OTHER, scopes: [...ALL], account: 'acme' }] });
});
afterAll(async () => {
  await mock?.close();
  vi.restoreAllMocks();
});

describe('RESTV2-SECRET-002 a secret value is write-only', () => {
  it('no answer and no log line carries a value, whatever the operation and outcome', async () => {
    const values = Array.from({ length: 9 }, (_, i) => `sv${i}-${Math.random().toString(36).slice(2)}-write-only`);
    const made = await send('POST', '', { name: 'hf-token', value: values[0], description: 'd' });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    await send('GET', '');
    await send('GET', '?name=HF-TOKEN');
    await send('GET', `/${id}`);
    expect((await send('PATCH', `/${id}`, { value: values[1] })).status).toBe(200);
    expect((await send('POST', '', { name: 'HF-token', value: values[2] })).status).toBe(409);
    expect((await send('POST', '', { name: 'RUNPOD_X', value: values[3] })).status).toBe(422);
    expect((await send('PATCH', `/${id}`, { name: 'renamed', value: values[4] })).status).toBe(422);
    expect((await send('POST', '', { name: 'é', value: values[5], extra: values[5] })).status).toBe(422);
    // Not JSON: the parser's message must not quote the text around the value.
    expect((await send('POST', '', undefined, { raw: `{"name": "x", "value": "${values[6]}" oops` })).status).toBe(400);
    expect((await send('PATCH', `/${id}`, { value: values[7] }, { key: OTHER })).status).toBe(404);
    const huge = `${values[8]}${'x'.repeat(33 * 1024 * 1024)}`;
    expect((await send('POST', '', { name: 'huge', value: huge })).status).toBe(400);
    await send('DELETE', `/${id}`);
    const everything = [...answers, ...logged].join('\n');
    expect(logged.some((line) => line.includes('/v2/account/secrets')), '--log wrote request lines').toBe(true);
    for (const value of values) expect(everything.includes(value), `a value in an answer or log line`).toBe(false);
    expect(everything).not.toMatch(/"value"\s*:/);
  });
});
