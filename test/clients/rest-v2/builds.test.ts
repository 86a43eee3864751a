// RESTV2-PAGE-001 / RESTV2-BUILD-001 through the client: serverless.builds.list() resolves the 100 most recent
// builds (the list is not paginated), releases() the whole release history with its rollout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestV2Client } from '../../../src/index.js';
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

describe('REST v2 client: builds and releases', () => {
  it('RESTV2-PAGE-001 builds.list() resolves every build newest first, in one answer', async () => {
    const builds = await client().serverless.builds.list(endpointId);
    expect(builds.map((b) => b.commitMessage)).toEqual(['three', 'two', 'one']);
  });

  it('RESTV2-PAGE-001 builds.list() holds the 100 most recent builds; an older one is read by id', async () => {
    const other = await client().serverless.create({ name: 'many', type: 'QUEUE', image: 'a/b:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 0, max: 1 } });
    const started = Array.from({ length: 103 }, (_, i) => mock.core.builds.start(other.id, mock.core.account, { commitMessage: `push ${i + 1}` }, () => true));
    const builds = await client().serverless.builds.list(other.id);
    expect(builds).toHaveLength(100);
    expect(builds[0]!.commitMessage).toBe('push 103');
    expect(builds.at(-1)!.commitMessage).toBe('push 4');
    const oldest = started[0] as { id: string };
    expect((await client().serverless.builds.get(other.id, oldest.id)).commitMessage).toBe('push 1');
  });

  it('RESTV2-BUILD-002 releases() answers every release newest first, each GIT_BUILD release naming its build', async () => {
    const { releases, rollout } = await client().serverless.releases(endpointId);
    expect(releases.map((r) => r.version)).toEqual([4, 3, 2, 1]);
    expect(releases.filter((r) => r.source === 'GIT_BUILD')).toHaveLength(3);
    expect(rollout.percentOnLatest).toBe(0);
  });

  it('RESTV2-BUILD-001 builds.get() reads one build', async () => {
    const [newest] = await client().serverless.builds.list(endpointId);
    expect((await client().serverless.builds.get(endpointId, newest!.id)).status).toBe('COMPLETED');
  });
});
