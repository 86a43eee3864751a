// How the suite finds load-balancing endpoints' address (LB-* rules): --lb-url (a template with {id}), else
// derived from the queue URL's host form (https://api.runpod.ai/v2 → https://{id}.api.runpod.ai), else none
// (the rules are skipped naming --lb-url). One mock, started once, judged through the derived Host form.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runConformance } from '../../src/entries/conform.js';
import { lbUrlFromQueueUrl, remoteTarget, type TargetConfig } from '../../src/conform/target.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';

const KEY = 'lb-url-first-key';
const SECOND = 'lb-url-second-key';
const target = (values: Record<string, string>) => remoteTarget({ '--api-key': KEY, ...values });

describe('the load-balancing address of a remote target', () => {
  test('derived from the queue URL host form; an IP address or another path derives none', () => {
    expect(lbUrlFromQueueUrl('https://api.runpod.ai/v2')).toBe('https://{id}.api.runpod.ai');
    expect(lbUrlFromQueueUrl('http://localhost:8787/v2/')).toBe('http://{id}.localhost:8787');
    expect(lbUrlFromQueueUrl('http://127.0.0.1:8787/v2')).toBeUndefined();
    expect(lbUrlFromQueueUrl('http://[::1]:8787/v2')).toBeUndefined();
    expect(lbUrlFromQueueUrl('https://gateway.example.com/queue/v2')).toBeUndefined();
  });

  test('--lb-url wins over the derived one; it must hold {id} once and be an http(s) URL without a query', () => {
    expect((target({ '--queue-url': 'https://api.runpod.ai/v2' }) as TargetConfig).lbUrl).toBe('https://{id}.api.runpod.ai');
    expect((target({ '--queue-url': 'http://127.0.0.1:8787/v2', '--lb-url': 'http://127.0.0.1:8787/lb/{id}/' }) as TargetConfig).lbUrl).toBe('http://127.0.0.1:8787/lb/{id}');
    expect((target({ '--queue-url': 'http://127.0.0.1:8787/v2' }) as TargetConfig).lbUrl).toBeUndefined();
    expect(target({ '--queue-url': 'http://127.0.0.1:8787/v2', '--lb-url': 'http://127.0.0.1:8787/lb' })).toMatch(/must contain \{id\} once/);
    expect(target({ '--queue-url': 'http://127.0.0.1:8787/v2', '--lb-url': 'ftp://{id}.example.com' })).toMatch(/http\(s\) URL/);
    expect(target({ '--queue-url': 'http://127.0.0.1:8787/v2', '--lb-url': 'https://{id}.example.com/?x=1' })).toMatch(/without query/);
  });
});

describe('LB-* against a mock it does not control, through the derived Host form {id}.localhost', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({
      host: '127.0.0.1', port: 0, control: false,
      apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }, { key: SECOND, scopes: ['read', 'write', 'jobs', 'graphql'], account: 'second' }],
    });
  });
  afterAll(() => mock.close());

  test('each rule runs and passes; without a worker image the forwarding rule is skipped naming --lb-worker-image', async () => {
    const port = new URL(mock.url).port;
    const local = { '--queue-url': `http://localhost:${port}/v2`, '--rest-v2-url': `http://localhost:${port}/v2`, '--second-api-key': SECOND };
    const run = async (values: Record<string, string>) => {
      const built = target(values) as TargetConfig;
      const result = await runConformance({ target: built, reportsDir: null, progress: false, settings: { grep: '^LB-' } });
      return Object.fromEntries(result.summary.results.filter((r) => r.skipKind !== 'filtered').map((r) => [r.id, r.outcome === 'skip' ? `skip: ${r.reason}` : r.outcome === 'pass' ? 'pass' : `${r.outcome}: ${r.reason}`]));
    };
    expect(await run({ ...local, '--lb-worker-image': 'echo:1' })).toEqual({ 'LB-AUTH-001': 'pass', 'LB-ISOLATION-001': 'pass', 'LB-FORWARD-001': 'pass' });
    const withoutImage = await run(local);
    expect(withoutImage['LB-FORWARD-001']).toMatch(/^skip: needs --lb-worker-image/);
  }, 60_000);
});
