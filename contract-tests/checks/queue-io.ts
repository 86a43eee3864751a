// queue v2 stream, sync and error answers: QUEUE-STREAM-*, QUEUE-SYNC-001/003/005/006, QUEUE-ERROR-*.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, TERMINAL } from '../../src/conform/context.js';
import { operations } from '../../generated/operations.js';

// ---- stream ----------------------------------------------------------------------------------------

defineCheck('QUEUE-STREAM-001', async (ctx) => {
  const endpointId = await ctx.anyEndpoint();
  const id = await ctx.run(endpointId, { durationMs: 400, stream: ['a', 'b', 'c', 'd'] });
  await ctx.finish(endpointId, id, 400);
  const answer = await ctx.queue(endpointId, 'streamJob', { path: { jobId: id } });
  expectStatus(answer, 200, 'streamJob');
  expectEqual([answer.body.id, answer.body.status], [id, 'COMPLETED'], 'streamJob id/status');
  expect(Array.isArray(answer.body.stream) && answer.body.stream.every((c: object) => 'output' in c), 'stream elements lack output');
}, { needs: ['endpoint', 'jobs'] });

defineCheck('QUEUE-STREAM-002', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const chunks = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'];
  const id = await ctx.run(endpointId, { durationMs: 800, stream: chunks });
  await ctx.waitForStatus(endpointId, id, ['IN_PROGRESS', ...TERMINAL]);
  const got: unknown[] = [];
  let drained = false;
  const read = async () => {
    const answer = await ctx.queue(endpointId, 'streamJob', { path: { jobId: id } });
    got.push(...answer.body.stream.map((c: { output: unknown }) => c.output));
    drained = TERMINAL.includes(answer.body.status) && answer.body.stream.length === 0;
  };
  for (let i = 0; i < 12 && !drained; i++) {
    await read();
    if (!drained) await ctx.pass(150);
  }
  // A worker process streams on real time while a controlled clock jumps: let it end, then read the rest.
  if (!drained) {
    await ctx.waitForStatus(endpointId, id, TERMINAL);
    for (let i = 0; i < 2 && !drained; i++) await read();
  }
  expectEqual(got, chunks, 'chunks read over all streamJob calls');
}, { needs: ['jobs'] });

defineCheck('QUEUE-STREAM-003', async (ctx) => {
  const endpointId = await ctx.anyEndpoint();
  const id = await ctx.run(endpointId, { durationMs: 100, stream: ['x', 'y'] });
  await ctx.finish(endpointId, id, 100);
  await ctx.queue(endpointId, 'streamJob', { path: { jobId: id } });
  const again = await ctx.queue(endpointId, 'streamJob', { path: { jobId: id } });
  expectEqual([again.body.status, again.body.stream], ['COMPLETED', []], 'streamJob after draining a finished job');
}, { needs: ['endpoint', 'jobs'] });

// ---- sync ------------------------------------------------------------------------------------------

defineCheck('QUEUE-SYNC-001', async (ctx) => {
  const endpointId = await ctx.anyEndpoint();
  const answer = await ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { durationMs: 0, output: 'fast' } } }, query: { wait: 5000 } });
  expectStatus(answer, 200, 'runJobSync');
  expectEqual([answer.body.status, answer.body.output], ['COMPLETED', 'fast'], 'runJobSync record');
  expect(String(answer.body.id).startsWith(ctx.value('idPrefix')), `runJobSync id ${answer.body.id} does not start with sync-`);
}, { needs: ['endpoint', 'jobs'] });

defineCheck('QUEUE-SYNC-003', async (ctx) => {
  const endpointId = await ctx.anyEndpoint();
  const min = ctx.value<number>('waitMinMs');
  const max = ctx.value<number>('waitMaxMs');
  const id = await ctx.run(endpointId, { durationMs: 0 });
  await ctx.finish(endpointId, id, 0);
  for (const wait of [min - 1, max + 1, 'soon']) {
    expectStatus(await ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { durationMs: 0 } } }, query: { wait } }), 400, `runJobSync wait=${wait}`);
    expectStatus(await ctx.queue(endpointId, 'getJobStatusSync', { path: { jobId: id }, query: { wait } }), 400, `getJobStatusSync wait=${wait}`);
  }
  for (const wait of [min, max]) {
    expectStatus(await ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { durationMs: 0 } } }, query: { wait } }), 200, `runJobSync wait=${wait}`);
    expectStatus(await ctx.queue(endpointId, 'getJobStatusSync', { path: { jobId: id }, query: { wait } }), 200, `getJobStatusSync wait=${wait}`);
  }
}, { needs: ['endpoint', 'jobs'] });

defineCheck('QUEUE-SYNC-005', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, { durationMs: 300, output: 'same' });
  const pending = ctx.queue(endpointId, 'getJobStatusSync', { path: { jobId: id }, query: { wait: 60_000 } });
  await ctx.pass(300);
  const sync = await pending;
  expectStatus(sync, 200, 'getJobStatusSync');
  expectEqual(sync.body.status, 'COMPLETED', 'getJobStatusSync status once the job finished');
  expectEqual(sync.body, (await ctx.status(endpointId, id)).body, 'getJobStatusSync vs getJobStatus record');
}, { needs: ['jobs'] });

defineCheck('QUEUE-SYNC-006', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const body = { input: { mock: { durationMs: 500, output: 'both' } }, policy: { ttl: 60_000, executionTimeout: 10_000 } };
  const async = await ctx.queue(endpointId, 'runJob', { body });
  expectStatus(async, 200, 'runJob');
  expect(!TERMINAL.includes(async.body.status), 'runJob answered a terminal record: it waited for completion');
  const pending = ctx.queue(endpointId, 'runJobSync', { body, query: { wait: 60_000 } });
  await ctx.untilSubmitted(endpointId, 2);
  await ctx.pass(1_000);
  const sync = await pending;
  expectEqual([sync.status, sync.body.status, sync.body.output], [200, 'COMPLETED', 'both'], 'runJobSync answer with the same body');
}, { needs: ['jobs'] });

// ---- errors ----------------------------------------------------------------------------------------

defineCheck('QUEUE-ERROR-001', async (ctx) => {
  const unknown = 'cc-no-such-endpoint';
  for (const op of operations.filter((o) => o.surface === 'queueV2')) {
    const path: Record<string, string> = {};
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) path[name!] = name === 'openaiPath' ? 'v1/models' : 'cc-job-1';
    const answer = await ctx.queue(unknown, op.operationId, { path, body: op.bodyRequired ? { input: {} } : undefined });
    expectStatus(answer, 404, `${op.operationId} on an unknown endpoint`);
    expect(typeof answer.body?.message === 'string' && answer.body.message !== '', `${op.operationId}: 404 without message`);
  }
}, { needs: ['endpoint'] });

defineCheck('QUEUE-ERROR-002', async (ctx) => {
  const endpointId = await ctx.endpoint();
  expectStatus(await ctx.queue(endpointId, 'runJob', { rawBody: '{"input": {' }), 400, 'runJob with malformed JSON');
  expectStatus(await ctx.queue(endpointId, 'runJobSync', { rawBody: 'input=1', query: { wait: 1000 } }), 400, 'runJobSync with a non-JSON body');
  expectStatus(await ctx.queue(endpointId, 'runJobSync', { body: { input: {} }, query: { wait: 'x' } }), 400, 'runJobSync wait=x');
  expectStatus(await ctx.queue(endpointId, 'getJobStatus', { path: { jobId: ' ' } }), 400, 'getJobStatus with a blank job id');
  const health = await ctx.queue(endpointId, 'getHealth');
  const jobs = Object.values(health.body.jobs as Record<string, number>).reduce((a, b) => a + b, 0);
  expect(jobs === 0, `rejected submissions created jobs: health ${JSON.stringify(health.body.jobs)}`);
});

defineCheck('QUEUE-ERROR-003', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const answers = [
    await ctx.queue(endpointId, 'runJob', { body: {} }),
    await ctx.queue(endpointId, 'getJobStatus', { path: { jobId: 'cc-none' } }),
    await ctx.queue(endpointId, 'getHealth', { key: null }),
    await ctx.queue('cc-no-such-endpoint', 'getHealth'),
  ];
  for (const a of answers) {
    expect(a.status >= 400, `expected an error status, got ${a.status}`);
    expect(typeof a.body?.message === 'string' && a.body.message !== '', `${a.status} answer lacks {message}`);
  }
});
