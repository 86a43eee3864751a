// queue v2 submission, job records and the job state machine: QUEUE-JOB-*, QUEUE-RETRY-*,
// QUEUE-CANCEL-*, QUEUE-PURGE-*, QUEUE-HEALTH-*, QUEUE-REQUESTS-*, QUEUE-OPENAI-*
// (stream, sync and errors: queue-io.ts).
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, TERMINAL, type Ctx } from '../../src/conform/context.js';

const TRANSITIONS: Record<string, string[]> = {
  IN_QUEUE: ['IN_PROGRESS', 'CANCELLED', 'TIMED_OUT'],
  IN_PROGRESS: ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'],
  FAILED: ['IN_QUEUE'], TIMED_OUT: ['IN_QUEUE'], COMPLETED: [], CANCELLED: [],
};

function reachable(from: string): Set<string> {
  const seen = new Set<string>();
  const walk = (s: string) => {
    for (const next of TRANSITIONS[s] ?? []) {
      if (next === 'IN_QUEUE' || seen.has(next)) continue; // back to IN_QUEUE only through retryJob
      seen.add(next);
      walk(next);
    }
  };
  walk(from);
  return seen;
}

/** Records every status a job shows; fails on a transition the state machine does not allow. */
export class StatusTrail {
  readonly seen: string[] = [];
  constructor(private readonly ctx: Ctx, readonly endpointId: string, readonly jobId: string) {}
  note(status: string, how = 'getJobStatus'): void {
    const last = this.seen[this.seen.length - 1];
    if (last !== undefined && last !== status) {
      // Polling may miss intermediate states, so a later status must be reachable, not adjacent;
      // only retryJob may leave a terminal status (→ IN_QUEUE).
      const ok = how === 'retryJob' ? ['FAILED', 'TIMED_OUT'].includes(last) && status === 'IN_QUEUE' : reachable(last).has(status);
      expect(ok, `illegal transition ${last} → ${status} (seen via ${how}; trail ${this.seen.join(' → ')})`);
    }
    if (last !== status) this.seen.push(status);
  }
  async read(): Promise<any> {
    const answer = await this.ctx.status(this.endpointId, this.jobId);
    expectStatus(answer, 200, 'getJobStatus');
    this.note(answer.body.status);
    return answer.body;
  }
}

async function health(ctx: Ctx, endpointId: string): Promise<any> {
  const answer = await ctx.queue(endpointId, 'getHealth');
  expectStatus(answer, 200, 'getHealth');
  return answer.body;
}

/** An endpoint with no worker: jobs stay IN_QUEUE until workersMax is raised. */
const noWorkerEndpoint = (ctx: Ctx) => ctx.endpoint({ workersMin: 0, workersMax: 0 });

defineCheck('QUEUE-JOB-001', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const answer = await ctx.queue(endpointId, 'runJob', { body: { input: { prompt: 'hello', mock: { durationMs: 1000 } } } });
  expectStatus(answer, 200, 'runJob');
  expect(typeof answer.body.id === 'string' && answer.body.id !== '', 'runJob answered no id');
  expectEqual(answer.body.status, 'IN_QUEUE', 'runJob status');
});

defineCheck('QUEUE-JOB-002', async (ctx) => {
  const endpointId = await noWorkerEndpoint(ctx);
  const id = await ctx.run(endpointId, { durationMs: 100 });
  await ctx.pass(60_000);
  expectEqual((await ctx.status(endpointId, id)).body.status, 'IN_QUEUE', 'status of a job with no worker after 60 s');
  await ctx.updateEndpoint(endpointId, { workersMax: 1 });
  await ctx.waitForStatus(endpointId, id, ['IN_PROGRESS', ...TERMINAL]);
}, { needs: ['jobs'], realWaitMs: 60_000 });

defineCheck('QUEUE-JOB-003', async (ctx) => {
  const endpointId = await ctx.endpoint();
  for (const op of ['runJob', 'runJobSync']) {
    for (const body of [{}, { input: 'text' }, { input: [1, 2] }, { input: null }, { input: 5 }]) {
      expectStatus(await ctx.queue(endpointId, op, { body, query: op === 'runJobSync' ? { wait: 1000 } : {} }), 400, `${op} with ${JSON.stringify(body)}`);
    }
  }
  expectEqual((await health(ctx, endpointId)).jobs.inQueue, 0, 'jobs queued by refused submissions');
});

defineCheck('QUEUE-JOB-004', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const cases = [
    [{ input: {}, ccUnknown: 1 }, 'ccUnknown'],
    [{ input: {}, policy: { ttl: 20_000, ccUnknown: 1 } }, 'ccUnknown'],
    [{ input: {}, s3Config: { accessId: 'a', accessSecret: ctx.secret('s3 accessSecret'), bucketName: 'b', endpointUrl: 'https://s3.example.test', ccUnknown: 1 } }, 'ccUnknown'],
  ] as const;
  for (const op of ['runJob', 'runJobSync']) {
    for (const [body, field] of cases) {
      const answer = await ctx.queue(endpointId, op, { body, query: op === 'runJobSync' ? { wait: 1000 } : {} });
      expectStatus(answer, 400, `${op} with an unknown property`);
      expect((answer.body.errors ?? []).some((e: { path?: string }) => String(e.path).includes(field)), `${op}: errors[] does not name ${field}`);
    }
  }
});

defineCheck('QUEUE-JOB-005', async (ctx) => {
  const endpointId = await ctx.endpoint();
  for (const webhook of ['not a url', '/relative/path', 'example.com/hook']) {
    expectStatus(await ctx.queue(endpointId, 'runJob', { body: { input: {}, webhook } }), 400, `runJob webhook ${JSON.stringify(webhook)}`);
  }
  const full = { accessId: 'a', accessSecret: ctx.secret('s3 accessSecret'), bucketName: 'b', endpointUrl: 'https://s3.example.test' };
  for (const missing of Object.keys(full)) {
    const { [missing]: _, ...s3Config } = full as Record<string, string>;
    expectStatus(await ctx.queue(endpointId, 'runJob', { body: { input: {}, s3Config } }), 400, `runJob s3Config without ${missing}`);
  }
});

defineCheck('QUEUE-JOB-006', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, { durationMs: 100 });
  const statuses = ctx.value<string[]>('statuses');
  const first = await ctx.status(endpointId, id);
  expect(statuses.includes(first.body.status), `status ${first.body.status} is not documented`);
  const last = await ctx.finish(endpointId, id, 100);
  expect(statuses.includes(last.status), `status ${last.status} is not documented`);
}, { needs: ['jobs'] });

defineCheck('QUEUE-JOB-007', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 1 });
  const jobs = [
    { mock: { durationMs: 1_000, output: 'ok' } },
    { mock: { durationMs: 1_000, error: 'boom' } },
    { mock: { durationMs: 1_000 }, cancelAt: 500 },
  ];
  const trails = [];
  for (const j of jobs) trails.push(new StatusTrail(ctx, endpointId, await ctx.run(endpointId, j.mock)));
  for (let t = 0; t <= 4_000; t += 250) {
    for (const trail of trails) await trail.read();
    if (t === 500) {
      const answer = await ctx.queue(endpointId, 'cancelJob', { path: { jobId: trails[2]!.jobId } });
      expectStatus(answer, 200, 'cancelJob');
      trails[2]!.note(answer.body.status, 'cancelJob');
    }
    await ctx.pass(250);
  }
  for (const trail of trails) await ctx.waitForStatus(endpointId, trail.jobId, TERMINAL).then((r) => trail.note(r.status));
  const retried = await ctx.queue(endpointId, 'retryJob', { path: { jobId: trails[1]!.jobId } });
  expectStatus(retried, 200, 'retryJob of the FAILED job');
  trails[1]!.note(retried.body.status, 'retryJob');
  await ctx.pass(1_000);
  await trails[1]!.read();
  return trails.map((t) => t.seen.join('→')).join(', ');
}, { needs: ['jobs'] });

defineCheck('QUEUE-JOB-008', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 2 });
  const ok = await ctx.run(endpointId, { durationMs: 200, output: { answer: 42 } });
  const bad = await ctx.run(endpointId, { durationMs: 200, error: 'handler exploded' });
  await ctx.pass(200);
  const done = await ctx.waitForStatus(endpointId, ok, TERMINAL);
  expectEqual(done.status, 'COMPLETED', 'status of the succeeding job');
  expectEqual(done.output, { answer: 42 }, 'output');
  expect(Number.isInteger(done.delayTime) && Number.isInteger(done.executionTime), 'COMPLETED record lacks delayTime/executionTime');
  const failed = await ctx.waitForStatus(endpointId, bad, TERMINAL);
  expectEqual(failed.status, 'FAILED', 'status of the failing job');
  expect(failed.error !== undefined && failed.error !== null && failed.error !== '', 'FAILED record lacks error');
}, { needs: ['jobs'] });

defineCheck('QUEUE-JOB-009', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const runId = await ctx.run(endpointId, { durationMs: 100 });
  await ctx.finish(endpointId, runId, 100);
  const sync = await ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { durationMs: 0 } } }, query: { wait: 5000 } });
  expectStatus(sync, 200, 'runJobSync');
  for (const id of [runId, String(sync.body.id)]) {
    expect(id.length > 0, 'empty job id');
    expectStatus(await ctx.status(endpointId, id), 200, `getJobStatus(${id})`);
    expectStatus(await ctx.queue(endpointId, 'streamJob', { path: { jobId: id } }), 200, `streamJob(${id})`);
    expectStatus(await ctx.queue(endpointId, 'cancelJob', { path: { jobId: id } }), 200, `cancelJob(${id})`);
  }
}, { needs: ['jobs'] });

defineCheck('QUEUE-JOB-010', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const jobId = 'cc0a1b2c-3d4e-4f50-8a9b-0c1d2e3f4a5b-u1';
  for (const op of ctx.rule.operations ?? []) {
    const answer = await ctx.queue(endpointId, op, { path: { jobId }, query: op === 'getJobStatusSync' ? { wait: 1000 } : {} });
    expectStatus(answer, 404, `${op} of an unknown job id`);
  }
});

defineCheck('QUEUE-JOB-013', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const max = ctx.value<number>('maxBodyBytesRun');
  const prefix = '{"input":{"pad":"';
  const body = (size: number) => `${prefix}${'x'.repeat(size - prefix.length - 3)}"}}`;
  expectStatus(await ctx.queue(endpointId, 'runJob', { rawBody: body(max + 1) }), 400, `runJob with a ${max + 1}-byte body`);
  expectStatus(await ctx.queue(endpointId, 'runJob', { rawBody: body(max) }), 200, `runJob with a ${max}-byte body`);
});

defineCheck('QUEUE-JOB-014', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const max = ctx.value<number>('maxBodyBytesRunSync');
  // A small result (`output`): the default one echoes the input, 20 MB back that the rule does not judge.
  const prefix = '{"input":{"mock":{"durationMs":0,"output":"ok"},"pad":"';
  const body = (size: number) => `${prefix}${'x'.repeat(size - prefix.length - 3)}"}}`;
  expectStatus(await ctx.queue(endpointId, 'runJobSync', { rawBody: body(max + 1), query: { wait: 5000 } }), 400, `runJobSync with a ${max + 1}-byte body`);
  expectStatus(await ctx.queue(endpointId, 'runJobSync', { rawBody: body(max), query: { wait: 5000 } }), 200, `runJobSync with a ${max}-byte body`);
}, { needs: ['jobs'] });

// ---- retry, cancel, purge ------------------------------------------------------------------------

defineCheck('QUEUE-RETRY-001', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const input = { prompt: 'retry me', nonce: ctx.name('n') };
  const id = await ctx.run(endpointId, { durationMs: 100, failTimes: 1 }, {}, input);
  expectEqual((await ctx.finish(endpointId, id, 100)).status, 'FAILED', 'first attempt');
  const retried = await ctx.queue(endpointId, 'retryJob', { path: { jobId: id } });
  expectStatus(retried, 200, 'retryJob');
  expectEqual([retried.body.id, retried.body.status], [id, 'IN_QUEUE'], 'retryJob answer');
  const done = await ctx.finish(endpointId, id, 100);
  expectEqual(done.status, 'COMPLETED', 'status after the retry');
  expectEqual(done.output, { echo: { ...input, mock: { durationMs: 100, failTimes: 1 } } }, 'output of the retried job (its input echoed)');
}, { needs: ['jobs'] });

defineCheck('QUEUE-RETRY-002', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, { durationMs: 100, error: 'always' });
  const failed = await ctx.finish(endpointId, id, 100);
  expect(failed.error, 'FAILED record lacks error');
  const retries = failed.retries ?? 0;
  expectStatus(await ctx.queue(endpointId, 'retryJob', { path: { jobId: id } }), 200, 'retryJob');
  const queued = (await ctx.status(endpointId, id)).body;
  // A real worker may already have run the new attempt to its end (it fails again): only a record still
  // waiting or running proves anything about what the retry cleared.
  const ended = !['IN_QUEUE', 'IN_PROGRESS'].includes(queued.status);
  expect(ended || (queued.error === undefined && queued.output === undefined), 'retryJob kept the previous error/output');
  expectEqual(queued.retries ?? 0, retries + 1, 'retries after one retryJob');
}, { needs: ['jobs'] });

defineCheck('QUEUE-RETRY-003', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 1 });
  const running = await ctx.run(endpointId, { durationMs: 5_000 });
  const queued = await ctx.run(endpointId, { durationMs: 100 });
  await ctx.waitForStatus(endpointId, running, ['IN_PROGRESS']);
  const cases: [string, string][] = [[running, 'IN_PROGRESS'], [queued, 'IN_QUEUE']];
  for (const [id, status] of cases) {
    expectStatus(await ctx.queue(endpointId, 'retryJob', { path: { jobId: id } }), 400, `retryJob of an ${status} job`);
    expectEqual((await ctx.status(endpointId, id)).body.status, status, `status after the refused retry`);
  }
  expectEqual((await ctx.finish(endpointId, running, 5_000)).status, 'COMPLETED', 'first job');
  await ctx.finish(endpointId, queued, 100);
  const cancelled = await ctx.run(endpointId, { durationMs: 5_000 });
  expectStatus(await ctx.queue(endpointId, 'cancelJob', { path: { jobId: cancelled } }), 200, 'cancelJob');
  for (const [id, status] of [[running, 'COMPLETED'], [cancelled, 'CANCELLED']] as const) {
    expectStatus(await ctx.queue(endpointId, 'retryJob', { path: { jobId: id } }), 400, `retryJob of a ${status} job`);
    expectEqual((await ctx.status(endpointId, id)).body.status, status, `status after the refused retry`);
  }
}, { needs: ['jobs'] });

defineCheck('QUEUE-CANCEL-001', async (ctx) => {
  const endpointId = await noWorkerEndpoint(ctx);
  const id = await ctx.run(endpointId, { durationMs: 100, output: 'must not run' });
  const answer = await ctx.queue(endpointId, 'cancelJob', { path: { jobId: id } });
  expectStatus(answer, 200, 'cancelJob of an IN_QUEUE job');
  expectEqual([answer.body.id, answer.body.status], [id, 'CANCELLED'], 'cancelJob answer');
  await ctx.updateEndpoint(endpointId, { workersMax: 1 });
  await ctx.pass(1_000);
  const after = (await ctx.status(endpointId, id)).body;
  expectEqual(after.status, 'CANCELLED', 'status after a worker became free');
  expect(after.output === undefined, 'the cancelled job ran and produced output');
});

defineCheck('QUEUE-CANCEL-002', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, { durationMs: 2_000, stream: ['a', 'b', 'c', 'd'] });
  await ctx.waitForStatus(endpointId, id, ['IN_PROGRESS']);
  const answer = await ctx.queue(endpointId, 'cancelJob', { path: { jobId: id } });
  expectStatus(answer, 200, 'cancelJob of an IN_PROGRESS job');
  expectEqual([answer.body.id, answer.body.status], [id, 'CANCELLED'], 'cancelJob answer');
  await ctx.pass(3_000);
  const after = (await ctx.status(endpointId, id)).body;
  expectEqual(after.status, 'CANCELLED', 'status after the job would have finished');
  expect(after.output === undefined, 'the cancelled job produced output');
}, { needs: ['jobs'] });

defineCheck('QUEUE-CANCEL-003', async (ctx) => {
  const endpointId = await ctx.endpoint();
  for (const mock of [{ durationMs: 100 }, { durationMs: 100, error: 'x' }]) {
    const id = await ctx.run(endpointId, mock);
    const done = await ctx.finish(endpointId, id, 100);
    const answer = await ctx.queue(endpointId, 'cancelJob', { path: { jobId: id } });
    expectStatus(answer, 200, `cancelJob of a ${done.status} job`);
    expectEqual(answer.body.status, done.status, 'cancelJob answer status');
    expectEqual((await ctx.status(endpointId, id)).body.status, done.status, 'status after cancelJob');
  }
}, { needs: ['jobs'] });

defineCheck('QUEUE-PURGE-001', async (ctx) => {
  const endpointId = await noWorkerEndpoint(ctx);
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(await ctx.run(endpointId, { durationMs: 100 }));
  const answer = await ctx.queue(endpointId, 'purgeQueue');
  expectStatus(answer, 200, 'purgeQueue');
  expectEqual([answer.body.removed, answer.body.status], [3, ctx.value('resultStatus')], 'purgeQueue answer');
  for (const id of ids) expectStatus(await ctx.status(endpointId, id), 404, 'getJobStatus of a purged job');
});

defineCheck('QUEUE-PURGE-002', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 1 });
  const other = await noWorkerEndpoint(ctx);
  const done = await ctx.run(endpointId, { durationMs: 10 });
  await ctx.finish(endpointId, done, 10);
  const running = await ctx.run(endpointId, { durationMs: 5_000 });
  await ctx.waitForStatus(endpointId, running, ['IN_PROGRESS']);
  const queued = await ctx.run(endpointId, { durationMs: 100 });
  const elsewhere = await ctx.run(other, { durationMs: 100 });
  const answer = await ctx.queue(endpointId, 'purgeQueue');
  expectStatus(answer, 200, 'purgeQueue');
  expectEqual(answer.body.removed, 1, 'purgeQueue removed');
  expectStatus(await ctx.status(endpointId, queued), 404, 'the queued job after purge');
  expectEqual((await ctx.status(endpointId, running)).body.status, 'IN_PROGRESS', 'the running job after purge');
  expectEqual((await ctx.status(endpointId, done)).body.status, 'COMPLETED', 'the completed job after purge');
  expectEqual((await ctx.status(other, elsewhere)).body.status, 'IN_QUEUE', "another endpoint's queued job after purge");
}, { needs: ['jobs'] });

// ---- health, requests, openai --------------------------------------------------------------------

defineCheck('QUEUE-HEALTH-001', async (ctx) => {
  const h = await health(ctx, await ctx.endpoint());
  for (const k of ['completed', 'failed', 'inProgress', 'inQueue', 'retried']) expect(Number.isInteger(h.jobs?.[k]) && h.jobs[k] >= 0, `health jobs.${k} is not a non-negative integer`);
  for (const k of ['idle', 'running']) expect(Number.isInteger(h.workers?.[k]) && h.workers[k] >= 0, `health workers.${k} is not a non-negative integer`);
});

defineCheck('QUEUE-HEALTH-002', async (ctx) => {
  const endpointId = await noWorkerEndpoint(ctx);
  for (let i = 0; i < 4; i++) await ctx.run(endpointId, { durationMs: 100 });
  expectEqual((await health(ctx, endpointId)).jobs.inQueue, 4, 'inQueue after 4 submissions with no worker');
  expectStatus(await ctx.queue(endpointId, 'purgeQueue'), 200, 'purgeQueue');
  expectEqual((await health(ctx, endpointId)).jobs.inQueue, 0, 'inQueue after purge');
  await ctx.updateEndpoint(endpointId, { workersMax: 1 });
  const ok = await ctx.run(endpointId, { durationMs: 100 });
  await ctx.finish(endpointId, ok, 100);
  const bad = await ctx.run(endpointId, { durationMs: 100, error: 'x' });
  await ctx.finish(endpointId, bad, 100);
  let h = (await health(ctx, endpointId)).jobs;
  expectEqual([h.completed, h.failed, h.inQueue, h.inProgress], [1, 1, 0, 0], 'completed/failed/inQueue/inProgress');
  await ctx.queue(endpointId, 'retryJob', { path: { jobId: bad } });
  h = (await health(ctx, endpointId)).jobs;
  expect(h.retried >= 1, `retried is ${h.retried} after a retryJob`);
}, { needs: ['jobs'] });

defineCheck('QUEUE-REQUESTS-001', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 1 });
  const done = await ctx.run(endpointId, { durationMs: 10 });
  await ctx.finish(endpointId, done, 10);
  const a = await ctx.run(endpointId, { durationMs: 5_000 });
  await ctx.pass(1);
  const b = await ctx.run(endpointId, { durationMs: 100 });
  await ctx.waitForStatus(endpointId, a, ['IN_PROGRESS']);
  const answer = await ctx.queue(endpointId, 'listRequests');
  expectStatus(answer, 200, 'listRequests');
  const ids = (answer.body.requests as { id: string }[]).map((r) => r.id);
  expectEqual(ids, [a, b], 'listRequests ids (oldest first, no terminal job)');
}, { needs: ['jobs'] });

defineCheck('QUEUE-OPENAI-001', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const answer = await ctx.queue(endpointId, 'openaiProxy', { path: { openaiPath: 'v1/chat/completions' }, body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] } });
  expectStatus(answer, 200, 'openaiProxy v1/chat/completions');
  expectStatus(await ctx.queue('cc-no-such-endpoint', 'openaiProxy', { path: { openaiPath: 'v1/models' }, body: {} }), 404, 'openaiProxy on an unknown endpoint');
}, { needs: ['jobs'] });
