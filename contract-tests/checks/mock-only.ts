// Rules marked mock-only in rules.yaml: not observable black-box, checked in-process against the
// embedded mock (or against this package's own clients). QUEUE-JOB-011, QUEUE-JOB-012,
// QUEUE-RATE-013, CLIENT-RETRY-001, REST-ENDPOINT-008 (GPU availability set through the mock's
// core) and QUEUE-ERROR-004 (a worker crash asked for with input.mock.crash).
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus } from '../../src/conform/context.js';
import { createQueueClient } from '../../src/clients/index.js';
import { startMock } from '../../src/mock/index.js';

defineCheck('QUEUE-JOB-011', async (ctx) => {
  const engine = ctx.target.embedded!.core.engine;
  const endpointId = await ctx.endpoint({ workersMin: 0, workersMax: 2 });
  await ctx.run(endpointId, { durationMs: 1_000 }, { policy: { lowPriority: true } });
  await ctx.pass(0);
  await new Promise((r) => setTimeout(r, 10));
  expectEqual(engine.workersOf(endpointId).length, 0, 'workers after a lowPriority submission');
  await ctx.run(endpointId, { durationMs: 1_000 });
  await ctx.eventually('a worker for the normal job', async () => (engine.workersOf(endpointId).length > 0 ? true : undefined));
  return 'checked in-process: no worker spawned for the lowPriority job, one for a normal job';
}, { needs: ['jobs'], requires: ['embedded'] });

defineCheck('QUEUE-JOB-012', async (ctx) => {
  const engine = ctx.target.embedded!.core.engine;
  const endpointId = await ctx.endpoint();
  const s3Config = { accessId: 'cc-a', accessSecret: ctx.secret('s3 accessSecret'), bucketName: 'b', endpointUrl: 'https://s3.example.test', objectPath: 'p/' };
  const id = await ctx.run(endpointId, { durationMs: 100 }, { s3Config });
  expectEqual(engine.get(endpointId, id)?.s3Config, s3Config, 's3Config the worker receives');
  return 'checked in-process on the job the worker runs';
}, { requires: ['embedded'] });

defineCheck('QUEUE-RATE-013', async (ctx) => {
  const mock = ctx.target.embedded!;
  const perWorker = mock.core.options.requestsPerWorkerPer10s ?? ctx.value<number>('requestsPerWorkerPer10s');
  const endpointId = await ctx.endpoint({ workersMin: 0, workersMax: 3 });
  for (let i = 0; i < 3; i++) await ctx.run(endpointId, { durationMs: 600_000 }, { policy: { executionTimeout: 600_000 } });
  await ctx.eventually('3 running workers', async () => ((await ctx.queue(endpointId, 'getHealth')).body.workers.running === 3 ? true : undefined));
  await ctx.pass(10_000); // fresh window
  const limit = Math.max(2, 3 * perWorker); // purge-queue base limit 2
  for (let i = 0; i < limit; i++) expectStatus(await ctx.queue(endpointId, 'purgeQueue'), 200, `purgeQueue #${i + 1} of ${limit} (3 running workers)`);
  expectStatus(await ctx.queue(endpointId, 'purgeQueue'), 429, `purgeQueue #${limit + 1}`);
  return `effective limit max(2, 3 × ${perWorker}) = ${limit}`;
}, { needs: ['jobs'], requires: ['embedded'] });

defineCheck('CLIENT-RETRY-001', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  if (ctx.controlled) await ctx.pass(10_000);
  const delays: number[] = [];
  const client = createQueueClient({
    apiKey: ctx.target.apiKey,
    endpointBaseUrl: ctx.baseUrl('queueV2'),
    endpointId,
    maxRetries: 3,
    // The client's backoff sleeps on the target's clock, so Retry-After is honoured in virtual time.
    sleep: async (ms) => {
      delays.push(ms);
      if (ctx.controlled) await ctx.pass(ms);
      else await new Promise((r) => setTimeout(r, Math.min(ms, 11_000)));
    },
  });
  await client.purgeQueue();
  await client.purgeQueue();
  const third = await client.purgeQueue();
  expectEqual(third.status, 'completed', 'purgeQueue through the client after a 429');
  expect(delays.length >= 1, 'the client did not retry the 429');
  expect(delays[0]! >= 1_000, `the client waited ${delays[0]} ms, less than Retry-After`);
  return `client retried after ${delays.map((d) => `${d} ms`).join(', ')}`;
}, { needs: ['rest', 'queueV2'] });

defineCheck('REST-ENDPOINT-008', async (ctx) => {
  const mock = ctx.target.embedded!;
  const [first, second, third] = ['NVIDIA H100 80GB HBM3', 'NVIDIA A40', 'NVIDIA GeForce RTX 4090'];
  const gpuOf = async (unavailable: string[]) => {
    mock.core.unavailableGpuTypes.clear();
    for (const gpu of unavailable) mock.core.unavailableGpuTypes.add(gpu);
    const endpointId = await ctx.endpoint({ gpuTypeIds: [first, second, third], workersMin: 1, workersMax: 1 });
    const worker = await ctx.eventually('a worker', async () => mock.core.engine.workersOf(endpointId)[0]);
    return worker.gpuTypeId;
  };
  try {
    expectEqual(await gpuOf([]), first, 'GPU type with every type available');
    expectEqual(await gpuOf([first]), second, 'GPU type with the first unavailable');
    expectEqual(await gpuOf([first, second]), third, 'GPU type with the first two unavailable');
  } finally {
    mock.core.unavailableGpuTypes.clear();
  }
  return 'checked in-process: workers take the first available GPU type in priority order';
}, { needs: ['jobs'], requires: ['embedded'] });

defineCheck('QUEUE-ERROR-004', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const answer = await ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { crash: true, durationMs: 0 } } }, query: { wait: 5_000 } });
  expectStatus(answer, 500, 'runJobSync whose worker crashed');
  expect(typeof answer.body?.message === 'string' && answer.body.message.length > 0, 'the 500 answer carries the error body');
  return 'a crash injected with input.mock.crash is answered 500 with the error body';
}, { requires: ['embedded'] });

defineCheck('REST-RETIRED-001', async (ctx) => {
  const key = ctx.secret('retired-mock key');
  const retired = await startMock({ host: '127.0.0.1', port: 0, retireRestV1: true, apiKeys: [{ key, scopes: ['read', 'write', 'jobs', 'graphql'] }] });
  try {
    const auth = { authorization: `Bearer ${key}` };
    const cases: [string, string, unknown, RegExp][] = [
      ['GET', '/pods', undefined, /use GET \/v2\/pods \(REST v2 listPods\)/],
      ['POST', '/templates', { name: 'cc-retired', imageName: 'x:1' }, /use POST \/v2\/templates \(REST v2 createTemplate\)/],
      ['POST', '/pods/abc/reset', undefined, /resetPod has no REST v2 replacement/],
      ['GET', '/no-such-path', undefined, /use REST v2/],
    ];
    for (const [method, path, body, message] of cases) {
      for (const headers of [auth, {}]) {
        const answer = await ctx.http.raw(method, `${retired.restV1Url}${path}`, body, { ...headers });
        expectStatus(answer, 410, `${method} ${path} on a retired REST v1${'authorization' in headers ? '' : ' without a key'}`);
        expect(typeof answer.body?.message === 'string' && message.test(answer.body.message), `${method} ${path}: message "${answer.body?.message}" does not match ${message}`);
      }
    }
    const v2 = await ctx.http.raw('GET', `${retired.restV2Url}/templates`, undefined, auth);
    expectStatus(v2, 200, 'REST v2 listTemplates on the retired mock');
    expectEqual(v2.body.templates, [], 'templates after the retired REST v1 create');
  } finally {
    await retired.close();
  }
  return 'checked in-process on a second mock started with --retire-rest-v1';
}, { requires: ['embedded'] });
