// --state keeps REST v2 builds and the releases they made: after a restart the builds list, each build's
// state and times, and the GIT_BUILD releases come back, and a build caught mid-way goes on where it was
// (docs/rest-v2-mock.md, Builds).
import { describe, expect, it } from 'vitest';
import { callJson, stateMocks } from './state-harness.js';

const KEY = 'builds-state-key-0123456789';
const state = stateMocks('builds-state-', { clock: 'virtual', control: true, rateLimits: false, apiKeys: [{ key: KEY, scopes: ['read', 'write'] }] });
const { start, restart } = state;
const call = (method: string, url: string, body?: unknown) => callJson(method, url, KEY, body);

describe('--state with REST v2 builds', () => {
  it('RESTV2-BUILD-002 builds and their GIT_BUILD releases survive a restart; a build caught mid-way finishes after it', async () => {
    const file = state.path('builds.state');
    let m = await start(file);
    const endpoint = (await call('POST', `${m.restV2Url}/serverless`, { name: 'b', type: 'QUEUE', image: 'a/b:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 0, max: 1 } })).body;
    const push = async (body: Record<string, unknown>) => (await call('POST', `${m.controlUrl}/endpoints/${endpoint.id}/builds`, body)).body as { id: string };
    const done = await push({ commitHash: 'aaaaaaa' });
    m.clock.advance(120_000);
    const failing = await push({ commitHash: 'bbbbbbb', outcome: 'FAILED' });
    const midway = await push({ commitHash: 'ccccccc' });
    m.clock.advance(10_000);
    const before = (await call('GET', `${m.restV2Url}/serverless/${endpoint.id}/builds`)).body.builds;
    expect(before.map((b: { status: string }) => b.status)).toEqual(['BUILDING', 'BUILDING', 'COMPLETED']);

    m = await restart(file);
    const builds = `${m.restV2Url}/serverless/${endpoint.id}/builds`;
    expect((await call('GET', builds)).body.builds).toEqual(before);
    const releases = (await call('GET', `${m.restV2Url}/serverless/${endpoint.id}/releases`)).body.releases;
    expect(releases[0]).toMatchObject({ source: 'GIT_BUILD', buildId: done.id });
    expect(m.core.builds.get(endpoint.id, done.id)!.log.lastTs).toBeGreaterThan(0);

    m.clock.advance(120_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await call('GET', `${builds}/${failing.id}`)).body).toMatchObject({ status: 'FAILED', error: expect.any(String) });
    expect((await call('GET', `${builds}/${midway.id}`)).body).toMatchObject({ status: 'COMPLETED', completedAt: expect.any(String) });
    const after = (await call('GET', `${m.restV2Url}/serverless/${endpoint.id}/releases`)).body.releases;
    expect(after[0]).toMatchObject({ source: 'GIT_BUILD', buildId: midway.id });

    m = await restart(file);
    expect((await call('GET', `${m.restV2Url}/serverless/${endpoint.id}/builds`)).body.builds.map((b: { status: string }) => b.status)).toEqual(['COMPLETED', 'FAILED', 'COMPLETED']);
    expect((await call('GET', `${m.restV2Url}/serverless/${endpoint.id}/releases`)).body.releases.slice(0, 2).map((r: { buildId: string | null }) => r.buildId)).toEqual([midway.id, done.id]);
  });
});
