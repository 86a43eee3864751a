// RESTV2-PAGE-001 through the client: serverless.builds.list() and allReleases() walk every cursor page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestV2Client, UnprocessableEntityError } from '../../../src/index.js';
import { startMock, type RunningMock } from '../../../src/mock/index.js';

const KEY = 'builds-client-key-0123456789';
let mock: RunningMock;
let endpointId: string;
const client = () => createRestV2Client({ apiKey: KEY, baseUrl: mock.url, maxRetries: 0 });

beforeAll(async () => {
  mock = await startMock({ host: '127.0.0.1', port: 0, clock: 'virtual', rateLimits: false, apiKeys: [{ key: KEY, scopes: ['read', 'write'] }] });
  const endpoint = await client().serverless.create({ name: 'builds', type: 'QUEUE', image: 'a/b:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 0, max: 1 } });
  endpointId = endpoint.id;
  for (const commitMessage of ['one', 'two', 'three']) mock.core.builds.start(endpointId, mock.core.account, { commitMessage }, () => true);
  mock.clock.advance(120_000);
});
afterAll(() => mock?.close());

describe('REST v2 client: cursor pages', () => {
  it('RESTV2-PAGE-001 builds.list() yields every build newest first, one page of `limit` at a time', async () => {
    const seen: string[] = [];
    for await (const build of client().serverless.builds.list(endpointId, { limit: 1 })) seen.push(build.commitMessage ?? '');
    expect(seen).toEqual(['three', 'two', 'one']);
  });

  it('RESTV2-PAGE-001 allReleases() walks the releases, each GIT_BUILD release naming its build', async () => {
    const releases: { version?: number | null; source: string }[] = [];
    for await (const release of client().serverless.allReleases(endpointId, { limit: 2 })) releases.push(release);
    expect(releases.map((r) => r.version)).toEqual([4, 3, 2, 1]);
    expect(releases.filter((r) => r.source === 'GIT_BUILD')).toHaveLength(3);
  });

  it('RESTV2-PAGE-001 a malformed cursor is a 422 (UnprocessableEntityError)', async () => {
    await expect(client().request('listEndpointBuilds', { path: { id: endpointId }, query: { cursor: 'not-ours' } })).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it('RESTV2-BUILD-001 builds.get() reads one build', async () => {
    const [newest] = (await client().request('listEndpointBuilds', { path: { id: endpointId } })).builds;
    expect((await client().serverless.builds.get(endpointId, newest!.id)).status).toBe('COMPLETED');
  });
});
