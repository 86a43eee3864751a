// The suite against a server it does not control (real clock, no control API), as an implementer's
// CI runs it: rules that need the clock are skipped, never passed, and --endpoint-id is used.
import { afterEach, describe, expect, test } from 'vitest';
import { runConformance, type TargetConfig } from '../../src/entries/conform.js';
import { remoteTarget } from '../../src/conform/target.js';
import { startMock, type FaultName } from '../../src/mock/index.js';

type Mock = Awaited<ReturnType<typeof startMock>>;
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Built from flags exactly as `compute-contract conform --rest-url … --endpoint-id …` does. */
async function remoteMock(faults: FaultName[] = [], endpointId?: string): Promise<TargetConfig> {
  // A short template delete delay: the suite's cleanup waits it out for real on a target without control.
  mock ??= await startMock({ port: 0, clock: 'real', control: false, faults, jobDurationMs: 10, templateDeleteDelayMs: 100 });
  const target = remoteTarget({
    '--rest-url': mock.restV1Url, '--queue-url': `${mock.url}/v2`, '--graphql-url': mock.graphqlUrl, '--api-key': 'mock-key',
    ...(endpointId ? { '--endpoint-id': endpointId } : {}),
  });
  if (typeof target !== 'object') throw new Error(`target not built: ${target}`);
  return target;
}

describe('conformance against a target without clock control', () => {
  test('QUEUE-RATE-002 against a server that never answers 429 is skipped (needs clock), not passed', async () => {
    const target = await remoteMock(['no-429']);
    const result = await runConformance({ target, reportsDir: null, progress: false, settings: { grep: '^QUEUE-RATE-00[12]$' } });
    const byId = Object.fromEntries(result.summary.results.map((r) => [r.id, r]));
    for (const id of ['QUEUE-RATE-001', 'QUEUE-RATE-002']) {
      expect(byId[id]?.outcome, `${id}: ${byId[id]?.reason}`).not.toBe('pass');
      expect(byId[id]?.reason).toMatch(/needs clock/);
    }
  }, 60_000);

  test('--endpoint-id: the checks that need no fresh endpoint submit their jobs to the given one', async () => {
    const target = await remoteMock();
    const auth = { authorization: 'Bearer mock-key', 'content-type': 'application/json' };
    const template = await (await fetch(`${target.restUrl}/templates`, {
      method: 'POST', headers: auth, body: JSON.stringify({ name: 'given-tpl', imageName: 'worker:1', isServerless: true }),
    })).json() as { id: string };
    const endpoint = await (await fetch(`${target.restUrl}/endpoints`, {
      method: 'POST', headers: auth, body: JSON.stringify({ name: 'given-ep', templateId: template.id, workersMax: 1 }),
    })).json() as { id: string };
    const result = await runConformance({ target: await remoteMock([], endpoint.id), reportsDir: null, progress: false, settings: { grep: '^QUEUE-SYNC-001$' } });
    expect(result.failing).toEqual([]);
    const health = await (await fetch(`${target.queueUrl}/${endpoint.id}/health`, { headers: auth })).json() as { jobs: { completed: number } };
    expect(health.jobs.completed).toBeGreaterThanOrEqual(1);
    // The given endpoint is the caller's: the suite must not delete it.
    expect((await fetch(`${target.restUrl}/endpoints/${endpoint.id}`, { headers: auth })).status).toBe(200);
  }, 60_000);
});
