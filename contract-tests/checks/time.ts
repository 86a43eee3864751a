// Rules that need time to pass (virtual clock via the control API, or real waiting in the slow
// tier): QUEUE-TTL-003..006, QUEUE-EXEC-003..006, QUEUE-RETENTION-*, QUEUE-SYNC-002/004,
// TEMPLATE-DELETE-001.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, TERMINAL, type Ctx } from '../../src/conform/context.js';

const DAY = 86_400_000;
const MIN = 60_000;

async function gone(ctx: Ctx, endpointId: string, jobId: string, what: string) {
  expectStatus(await ctx.status(endpointId, jobId), 404, what);
}
async function alive(ctx: Ctx, endpointId: string, jobId: string, what: string): Promise<any> {
  const answer = await ctx.status(endpointId, jobId);
  expectStatus(answer, 200, what);
  return answer.body;
}

defineCheck('QUEUE-TTL-003', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  const id = await ctx.run(endpointId, { durationMs: 100 });
  const ttl = ctx.value<number>('ttlDefaultMs');
  await ctx.pass(ttl - 1_000);
  await alive(ctx, endpointId, id, `getJobStatus ${ttl - 1000} ms after submission`);
  await ctx.pass(1_000);
  await gone(ctx, endpointId, id, 'getJobStatus once the default ttl passed');
}, { realWaitMs: DAY });

defineCheck('QUEUE-TTL-004', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  const id = await ctx.run(endpointId, { durationMs: 100 }, { policy: { ttl: 10_000 } });
  await ctx.pass(9_000);
  expectEqual((await alive(ctx, endpointId, id, 'status before ttl')).status, 'IN_QUEUE', 'status before ttl');
  await ctx.pass(1_500);
  await gone(ctx, endpointId, id, 'getJobStatus of a queued job after its ttl');
}, { realWaitMs: 10_500 });

defineCheck('QUEUE-TTL-005', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, { durationMs: 60_000 }, { policy: { ttl: 10_000, executionTimeout: 120_000 } });
  await ctx.waitForStatus(endpointId, id, ['IN_PROGRESS']);
  await ctx.pass(10_500);
  await gone(ctx, endpointId, id, 'getJobStatus of a running job after its ttl');
}, { needs: ['jobs'], realWaitMs: 10_500 });

defineCheck('QUEUE-TTL-006', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  const ttl = ctx.value<number>('ttlMs');
  const queued = ctx.value<number>('queuedMs');
  const remaining = ctx.value<number>('remainingMs');
  const id = await ctx.run(endpointId, { durationMs: 6 * DAY }, { policy: { ttl, executionTimeout: ttl } });
  await ctx.pass(queued);
  expectEqual((await alive(ctx, endpointId, id, 'status after 2 days queued')).status, 'IN_QUEUE', 'status after 2 days');
  await ctx.updateEndpoint(endpointId, { workersMax: 1 });
  await ctx.waitForStatus(endpointId, id, ['IN_PROGRESS']);
  await ctx.pass(remaining - 60_000);
  expectEqual((await alive(ctx, endpointId, id, 'status 1 min before the remaining time ends')).status, 'IN_PROGRESS', 'status');
  await ctx.pass(61_000);
  await gone(ctx, endpointId, id, 'getJobStatus once the 7-day ttl passed');
}, { needs: ['jobs'], realWaitMs: 7 * DAY });

defineCheck('QUEUE-EXEC-003', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const timeout = ctx.value<number>('executionTimeoutDefaultMs');
  const id = await ctx.run(endpointId, { durationMs: timeout + 60_000 });
  await ctx.waitForStatus(endpointId, id, ['IN_PROGRESS']);
  await ctx.pass(timeout - 1_000);
  expectEqual((await alive(ctx, endpointId, id, 'status')).status, 'IN_PROGRESS', 'status just before the default timeout');
  await ctx.pass(2_000);
  expectEqual((await ctx.waitForStatus(endpointId, id, TERMINAL)).status, 'TIMED_OUT', 'status after the default executionTimeout');
}, { needs: ['jobs'], realWaitMs: 10 * MIN });

defineCheck('QUEUE-EXEC-004', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, { durationMs: 20_000, failTimes: 0 }, { policy: { executionTimeout: 5_000 } });
  await ctx.waitForStatus(endpointId, id, ['IN_PROGRESS']);
  await ctx.pass(5_500);
  expectEqual((await ctx.waitForStatus(endpointId, id, TERMINAL)).status, 'TIMED_OUT', 'status after executionTimeout');
  const retried = await ctx.queue(endpointId, 'retryJob', { path: { jobId: id } });
  expectStatus(retried, 200, 'retryJob of a TIMED_OUT job');
  expectEqual([retried.body.id, retried.body.status], [id, 'IN_QUEUE'], 'retryJob answer');
}, { needs: ['jobs'], realWaitMs: 6_000 });

defineCheck('QUEUE-EXEC-005', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  const id = await ctx.run(endpointId, { durationMs: 3_000, output: 'ran' }, { policy: { executionTimeout: 5_000 } });
  await ctx.pass(8_000); // longer than the timeout, but queued
  expectEqual((await alive(ctx, endpointId, id, 'status')).status, 'IN_QUEUE', 'status after 8 s in the queue');
  await ctx.updateEndpoint(endpointId, { workersMax: 1 });
  await ctx.waitForStatus(endpointId, id, ['IN_PROGRESS']);
  await ctx.pass(3_000);
  expectEqual((await ctx.waitForStatus(endpointId, id, TERMINAL)).status, 'COMPLETED', 'a 3 s job with a 5 s timeout after 8 s queued');
}, { needs: ['jobs'], realWaitMs: 11_000 });

defineCheck('QUEUE-EXEC-006', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 2 });
  await ctx.updateEndpoint(endpointId, { executionTimeoutMs: 5_000 });
  const own = await ctx.run(endpointId, { durationMs: 8_000 }, { policy: { executionTimeout: 10_000 } });
  const plain = await ctx.run(endpointId, { durationMs: 8_000 });
  await ctx.waitForStatus(endpointId, own, ['IN_PROGRESS']);
  await ctx.waitForStatus(endpointId, plain, ['IN_PROGRESS']);
  await ctx.pass(8_500);
  expectEqual((await ctx.waitForStatus(endpointId, own, TERMINAL)).status, 'COMPLETED', 'job with its own 10 s timeout');
  expectEqual((await ctx.waitForStatus(endpointId, plain, TERMINAL)).status, 'TIMED_OUT', 'job under the endpoint 5 s timeout');
}, { needs: ['manage', 'queueV2', 'jobs'], realWaitMs: 9_000 });

async function retention(ctx: Ctx, kind: 'run' | 'runsync', keepMs: number, maxMs: number) {
  const endpointId = await ctx.endpoint();
  let id: string;
  if (kind === 'run') {
    id = await ctx.run(endpointId, { durationMs: 100 }, { policy: { ttl: 604_800_000 } });
    await ctx.finish(endpointId, id, 100);
  } else {
    const answer = await ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { durationMs: 0 } }, policy: { ttl: 604_800_000 } }, query: { wait: 5000 } });
    expectEqual(answer.body.status, 'COMPLETED', 'runJobSync status');
    id = answer.body.id;
  }
  await ctx.pass(keepMs - 1_000);
  expectEqual((await alive(ctx, endpointId, id, `status ${keepMs - 1000} ms after completion`)).status, 'COMPLETED', 'status');
  await ctx.pass(maxMs - keepMs + 2_000);
  await gone(ctx, endpointId, id, `status ${maxMs + 1000} ms after completion`);
  return { endpointId, id };
}

defineCheck('QUEUE-RETENTION-001', async (ctx) => {
  const ms = ctx.value<number>('resultRetentionRunMs');
  await retention(ctx, 'run', ms, ms);
}, { needs: ['jobs'], realWaitMs: 31 * MIN });

defineCheck('QUEUE-RETENTION-002', async (ctx) => {
  await retention(ctx, 'runsync', ctx.value<number>('resultRetentionRunSyncMs'), ctx.value<number>('resultRetentionRunSyncMaxMs'));
}, { needs: ['jobs'], realWaitMs: 5 * MIN });

defineCheck('QUEUE-RETENTION-003', async (ctx) => {
  await retention(ctx, 'run', 30 * MIN, 30 * MIN); // ttl was 7 days: retention, not ttl, removed it
  return 'ttl 7 days, gone after the 30-min retention';
}, { needs: ['jobs'], realWaitMs: 31 * MIN });

defineCheck('QUEUE-RETENTION-004', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, { durationMs: 100, error: 'x' });
  await ctx.finish(endpointId, id, 100);
  await ctx.pass(30 * MIN + 1_000);
  await gone(ctx, endpointId, id, 'getJobStatus after retention');
  expectStatus(await ctx.queue(endpointId, 'retryJob', { path: { jobId: id } }), 404, 'retryJob after retention');
}, { needs: ['jobs'], realWaitMs: 31 * MIN });

// The job lasts four times the wait: on a target whose workers run in real time it still outlives the wait
// by seconds, and the check costs 8 s of wall time there, not 30.
defineCheck('QUEUE-SYNC-002', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const pending = ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { durationMs: 8_000, output: 'late' } } }, query: { wait: 2_000 } });
  await ctx.untilSubmitted(endpointId, 1);
  await ctx.pass(2_500);
  const answer = await pending;
  expectStatus(answer, 200, 'runJobSync that outlives wait');
  expect(['IN_QUEUE', 'IN_PROGRESS'].includes(answer.body.status), `runJobSync answered ${answer.body.status} before the job could finish`);
  await ctx.pass(8_000);
  const done = await ctx.waitForStatus(endpointId, answer.body.id, TERMINAL);
  expectEqual([done.status, done.output], ['COMPLETED', 'late'], 'the job continued after runJobSync answered');
}, { needs: ['jobs'], realWaitMs: 11_000 });

defineCheck('QUEUE-SYNC-004', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const wait = ctx.value<number>('waitDefaultMs');
  let answered = false;
  const pending = ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { durationMs: 10 * MIN } } } }).then((a) => ((answered = true), a));
  await ctx.untilSubmitted(endpointId, 1);
  await ctx.pass(wait - 5_000);
  await new Promise((r) => setTimeout(r, 20)); // a wrong early answer has time to arrive
  expect(!answered, `runJobSync without wait answered before ${wait - 5000} ms`);
  await ctx.pass(6_000);
  const answer = await pending;
  expectStatus(answer, 200, 'runJobSync without wait');
  expect(['IN_QUEUE', 'IN_PROGRESS'].includes(answer.body.status), `status ${answer.body.status}`);
}, { needs: ['jobs'], realWaitMs: 95_000 });

// Judged through REST v1 when given, else REST v2 (GraphQL has no endpoint delete to end the use with).
defineCheck('TEMPLATE-DELETE-001', async (ctx) => {
  const t = await ctx.template({ isServerless: true, volumeInGb: 0 });
  const endpoint = await ctx.setUp.create('endpoint', { name: ctx.name('ep'), templateId: t.id, workersMax: 0 });
  const surface = ctx.setUp.surfaceFor('endpoint');
  expectEqual((await ctx.setUp.remove('endpoint', endpoint.id)).status, 204, `deleteEndpoint (${surface}) status`);
  const delay = ctx.value<number>('templateDeleteDelayMs');
  await ctx.pass(delay);
  expectEqual((await ctx.setUp.remove('template', t.id)).status, 204, `deleteTemplate (${surface}) status ${delay} ms after its last user was removed`);
}, { needs: ['rest'], realWaitMs: 2 * MIN });
