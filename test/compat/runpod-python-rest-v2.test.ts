// Official-client interop, wire level: the runpod-python REST v2 wrapper's requests (fixture
// test/compat/sdk-wire/runpod-python-rest-v2.json, written from its public source) replayed in order
// against the mock with the SDK's base URL = the mock's root, each answer judged as the SDK reads it;
// then its serverless client runpod.Endpoint (runpod-python-endpoint.json) with base URL = root + /v2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { loadWireFixture, Replay } from './sdk-wire.js';

const KEY = 'python-sdk-key';
const fixture = loadWireFixture('runpod-python-rest-v2.json');
const start = (rateLimits: number) =>
  startMock({ host: '127.0.0.1', port: 0, clock: 'virtual', rateLimits, apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }] });

describe(`${fixture.sdk} (${fixture.version}) against the mock, base URL = the mock's root`, () => {
  let mock: RunningMock;
  let replay: Replay;
  beforeAll(async () => {
    // Quotas scaled up: the replay is one caller sending more than 60 requests within a virtual minute.
    mock = await start(100);
    replay = new Replay(fixture, { baseUrl: mock.url, apiKey: KEY, advance: (ms) => void mock.clock.advance(ms) });
  });
  afterAll(() => mock.close());

  // The steps build on each other (ids saved by earlier ones), so they run in order, one test each.
  for (const step of fixture.steps) {
    it(step.helper, async () => {
      expect(await replay.step(step)).toEqual([]);
    });
  }
});

describe(`${fixture.sdk}: a helper past the REST v2 quota raises QueryError with retry_after`, () => {
  it('429 is problem+json with a detail and a Retry-After in seconds', async () => {
    const step = fixture.rateLimited!;
    // 60 per minute scaled to 3: the fourth call of the minute is refused.
    const mock = await start(0.05);
    try {
      const replay = new Replay(fixture, { baseUrl: mock.url, apiKey: KEY, advance: (ms) => void mock.clock.advance(ms) });
      const allowed = { ...step, expect: { sdk: 'returns-key' as const, key: 'pods' } };
      for (let i = 0; i < 3; i++) expect(await replay.step(allowed)).toEqual([]);
      expect(await replay.step(step)).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

const endpointFixture = loadWireFixture('runpod-python-endpoint.json');

describe(`${endpointFixture.sdk}: ${endpointFixture.version}, base URL = the mock's root + /v2`, () => {
  let mock: RunningMock;
  let replay: Replay;
  beforeAll(async () => {
    mock = await start(100);
    const base = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const template = await (await fetch(`${mock.url}/v1/templates`, { method: 'POST', headers: base, body: JSON.stringify({ name: 'py-worker', imageName: 'w:1', isServerless: true, volumeInGb: 0 }) })).json() as { id: string };
    const endpoint = await (await fetch(`${mock.url}/v1/endpoints`, { method: 'POST', headers: base, body: JSON.stringify({ name: 'py-endpoint', templateId: template.id, workersMin: 0, workersMax: 1 }) })).json() as { id: string };
    replay = new Replay(endpointFixture, { baseUrl: `${mock.url}/v2`, apiKey: KEY, advance: (ms) => void mock.clock.advance(ms) });
    replay.remember('endpoint', endpoint);
  });
  afterAll(() => mock.close());

  for (const step of endpointFixture.steps) {
    it(step.helper, async () => {
      expect(await replay.step(step)).toEqual([]);
    });
  }
});
