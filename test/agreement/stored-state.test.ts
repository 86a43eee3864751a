// What the agreement phase takes as a refused request's trace in stored state leaves out what the clock moves
// on its own: a pod that boots into RUNNING between the two looks is no stored change.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Fixtures } from '../../src/agreement/fixtures.js';
import type { RequestCase } from '../../src/agreement/requests.js';
import { allOperations } from '../../src/agreement/runner.js';
import { Transport } from '../../src/agreement/transport.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { POD_BOOT_MS } from '../../src/mock/rest-v2/pod-status.js';

const KEY = 'agreement-stored-state-key-0123';
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({
    host: '127.0.0.1', port: 0, clock: 'virtual', control: true, rateLimits: false, templateDeleteDelayMs: 0,
    apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }],
  });
});
afterAll(() => mock.close());

it('AGREE-INVALID-001 a scratch pod booting into RUNNING (status, actions, runtime, ssh) is no stored change', async () => {
  const transport = new Transport({ restV2Url: mock.restV2Url, queueUrl: `${mock.url}/v2`, graphqlUrl: mock.graphqlUrl, apiKey: KEY, controlUrl: mock.controlUrl! });
  const fixtures = new Fixtures(transport, { workerImage: 'compute-contract/conformance-worker:1', secret: () => undefined });
  await fixtures.setup();
  const podAction = allOperations().find((op) => op.surface === 'restV2' && op.operationId === 'podAction')!;
  const refused: RequestCase = { op: podAction, path: { podId: 'any' }, query: {}, body: 'not-a-value', bodyMode: 'json' };
  const pods = async () => ((await transport.restV2('GET', '/pods')).body as { pods: { id: string; status: string; ssh: { proxy: unknown } }[] }).pods;

  // The setup let its pods boot; a restart makes them STARTING (no ssh) again, for POD_BOOT_MS.
  const made = await pods();
  expect(made.length, 'the setup made pods (else the checks below hold for none)').toBeGreaterThan(0);
  for (const pod of made) expect((await transport.restV2('POST', `/pods/${pod.id}/action`, { action: 'restart' })).status).toBe(200);
  const before = await fixtures.observe(refused);
  expect((await pods()).map((pod) => [pod.status, pod.ssh.proxy])).toEqual(made.map(() => ['STARTING', null]));
  await transport.pass(POD_BOOT_MS + 1_000);
  expect((await pods()).map((pod) => [pod.status, pod.ssh.proxy !== null])).toEqual(made.map(() => ['RUNNING', true]));
  expect(await fixtures.observe(refused)).toBe(before);
  await fixtures.cleanup();
}, 30_000);
