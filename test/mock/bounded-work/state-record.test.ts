// --state's largest record (a job of a large input and its echoed output): the journal writes it from the
// JSON text the mock already produced a slice per turn (src/mock/json-text-cache.ts) — the same bytes
// JSON.stringify would give, and the job comes back whole after a restart.
import { describe, expect, it } from 'vitest';
import { jsonWithRememberedTexts, rememberJsonText } from '../../../src/mock/json-text-cache.js';
import { callJson, stateMocks } from '../state-harness.js';

const KEY = 'state-record-key-0123456789';
const state = stateMocks('state-record-', { clock: 'virtual', control: true, rateLimits: false, apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs'] }] });
const start = state.start;
const call = (method: string, url: string, body?: unknown) => callJson(method, url, KEY, body);

describe('json-text-cache', () => {
  it('gives exactly JSON.stringify\'s text, remembered values copied from their text wherever they are', () => {
    const input = { values: Array.from({ length: 50 }, (_, i) => ({ i, s: `"quoted" ${i}\n` })) };
    rememberJsonText(input, JSON.stringify(input));
    const job = { id: 'j', status: 'COMPLETED', input, output: { echo: input, note: 'n' }, error: undefined };
    expect(jsonWithRememberedTexts(job)).toBe(JSON.stringify(job));
    // Remembered text is what is written: a stale text would show (values are never changed once remembered).
    const fixed = { a: 1 };
    rememberJsonText(fixed, '{"a":2}');
    expect(JSON.parse(jsonWithRememberedTexts({ fixed }))).toEqual({ fixed: { a: 2 } });
    expect(jsonWithRememberedTexts({ plain: [1, 'x'] })).toBe('{"plain":[1,"x"]}');
  });
});

describe('--state with a large job', () => {
  it('a /runsync of 30,000 values (written in slices) is kept and restored whole, input and output', async () => {
    const file = state.path('jobs.state');
    let m = await start(file);
    const endpoint = (await call('POST', `${m.restV1Url}/endpoints`, { name: 'big', templateId: (await call('POST', `${m.restV1Url}/templates`, { name: 't', imageName: 'a/b:1', isServerless: true })).body.id, workersMin: 0, workersMax: 1 })).body;
    const input = { values: Array.from({ length: 30_000 }, (_, i) => i % 7), label: 'large' };
    const submitted = await call('POST', `${m.queueV2Url(endpoint.id)}/run`, { input });
    expect(submitted.status).toBe(200);
    m.clock.advance(60_000);
    const done = await call('GET', `${m.queueV2Url(endpoint.id)}/status/${submitted.body.id}`);
    expect(done.body.status).toBe('COMPLETED');
    expect(done.body.output).toEqual({ echo: input });
    await m.close();
    m = await start(file);
    const restored = await call('GET', `${m.queueV2Url(endpoint.id)}/status/${submitted.body.id}`);
    expect(restored.body).toEqual(done.body);
  });
});
