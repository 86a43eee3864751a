// Server-side rate limits: N requests in a window succeed, the next gets 429 with Retry-After and the
// error body, the window resets; concurrency limits where a request can be held open (sync waits).
// QUEUE-RATE-001..012, QUEUE-RATE-014, RATE-429-001.
import { defineCheck } from '../../src/conform/registry.js';
import { CheckFailure, type Answer, type CallOptions } from '../../src/conform/http.js';
import { expect, expectStatus, NeedsClock, type Ctx } from '../../src/conform/context.js';
import { getOperation } from '../../src/validation/index.js';

const PARALLEL = 32;

/** Arguments for one harmless call of the operation on the endpoint. */
async function argsFor(ctx: Ctx, endpointId: string, operationId: string): Promise<CallOptions> {
  switch (operationId) {
    case 'runJob': return { body: { input: { mock: { durationMs: 0 } } } };
    case 'runJobSync': return { body: { input: { mock: { durationMs: 0 } } }, query: { wait: 1000 } };
    case 'openaiProxy': return { path: { openaiPath: 'v1/chat/completions' }, body: { model: 'm', messages: [] } };
    case 'openaiProxyGet': return { path: { openaiPath: 'v1/models' } };
    case 'purgeQueue': case 'getHealth': case 'listRequests': return {};
    default: {
      // A queued job (the endpoint has no worker): status, stream and cancel all answer 200 for it.
      const id = await ctx.run(endpointId, { durationMs: 0 });
      if (operationId === 'getJobStatusSync') await ctx.finish(endpointId, id, 0); // answers at once
      if (operationId === 'retryJob') return { path: { jobId: 'cc-unknown-job' } }; // 404s count toward the limit too
      return { path: { jobId: id }, query: operationId === 'getJobStatusSync' ? { wait: 1000 } : {} };
    }
  }
}

function is429(answer: Answer, what: string): void {
  expectStatus(answer, 429, what);
  const retryAfter = answer.headers.get('retry-after');
  expect(retryAfter !== null && /^\d+$/.test(retryAfter), `${what}: Retry-After ${JSON.stringify(retryAfter)} is not whole seconds`);
  expect(typeof answer.body?.message === 'string' && answer.body.message !== '', `${what}: 429 without the error body`);
}

const WINDOW_MS = 10_000;
/** Answers after which a flood's pace is judged (real time only). */
const PACE_SAMPLE = 2 * PARALLEL;

/**
 * Sends `count` calls, PARALLEL at a time; returns status counts and the first 429. In real time a
 * flood that cannot fit into one window is stopped early (`tooSlow`): its outcome would prove nothing.
 */
async function flood(ctx: Ctx, endpointId: string, operationId: string, args: CallOptions, count: number) {
  const statuses = new Map<number, number>();
  let first429: Answer | undefined;
  let tooSlow: string | undefined;
  let next = 0;
  let answered = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < count && !tooSlow) {
      if (!ctx.controlled && answered >= PACE_SAMPLE) {
        const projected = ((Date.now() - started) / answered) * count;
        if (projected > 0.8 * WINDOW_MS) tooSlow = `${count} requests at this pace take ≈${Math.round(projected / 1000)} s, over 80% of the ${WINDOW_MS / 1000} s window`;
        if (tooSlow) break;
      }
      next++;
      const answer = await ctx.queue(endpointId, operationId, args); // schema-checked like every answer
      answered++;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 429) first429 ??= answer;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, count) }, worker));
  return { statuses, first429, tooSlow };
}

/** Requests of a window actually sent when the rest are counted through the control API. */
const SENT = PARALLEL;

/**
 * Counts `count` requests toward the endpoint's current window of the operation through the control
 * API (`POST {control}/rate-limits/consume`); 0 when the target's control API lacks that route, so the
 * caller floods instead. The answer's `used` (the window's count) must include them.
 */
async function consume(ctx: Ctx, endpointId: string, operationId: string, count: number): Promise<number> {
  const answer = await ctx.http.raw('POST', `${ctx.target.controlUrl}/rate-limits/consume`, { endpointId, operationId, count });
  if (answer.status === 404 || answer.status === 405) return 0;
  expectStatus(answer, 200, 'control API: POST /rate-limits/consume');
  expect(typeof answer.body?.used === 'number' && answer.body.used >= count, `control API: consume answered ${JSON.stringify(answer.body)}`);
  return count;
}

/**
 * Holds `count` requests of the operation open on the endpoint for `holdMs` of the clock through the control
 * API (`rate-limits/consume` with `holdMs`); 0 when the control API lacks that route or does not answer the
 * requests in flight (`inflight`), so the caller holds them all open itself.
 */
async function holdOpen(ctx: Ctx, endpointId: string, operationId: string, count: number, holdMs: number): Promise<number> {
  const answer = await ctx.http.raw('POST', `${ctx.target.controlUrl}/rate-limits/consume`, { endpointId, operationId, count, holdMs });
  if (answer.status === 404 || answer.status === 405 || answer.status === 400) return 0;
  expectStatus(answer, 200, 'control API: POST /rate-limits/consume with holdMs');
  return typeof answer.body?.inflight === 'number' && answer.body.inflight >= count ? count : 0;
}

const describe = (m: Map<number, number>) => [...m].map(([s, n]) => `${n}×${s}`).join(', ');

async function windowCheck(ctx: Ctx, operationId: string): Promise<string> {
  const limit = ctx.value<number>('requestsPer10s');
  const documented = getOperation('queueV2', operationId).rateLimit;
  expect(documented?.requestsPer10s === limit, `${operationId}: rules.yaml and the spec disagree on the limit`);
  // No worker, so the dynamic limit (running workers × per-worker figure) stays at the base limit.
  const endpointId = await ctx.endpoint({ workersMax: operationId === 'runJobSync' || operationId === 'getJobStatusSync' ? 1 : 0 });
  const args = await argsFor(ctx, endpointId, operationId);
  const okStatus = operationId === 'retryJob' ? 404 : 200;
  // The setup calls above may already count; a fresh window starts after the limit's reset.
  if (ctx.controlled) await ctx.pass(10_000);
  // With the control API's rate-limit route, all but the last SENT requests of the window are counted
  // by the target (same window, same counter) instead of being sent; the limit is reached all the same.
  const consumed = ctx.controlled && limit > SENT ? await consume(ctx, endpointId, operationId, limit - SENT) : 0;
  const within = await flood(ctx, endpointId, operationId, args, limit - consumed);
  if (within.tooSlow) throw new NeedsClock(`${within.tooSlow}; a limit is only observable when the flood fits into one window`);
  if ((within.statuses.get(okStatus) ?? 0) !== limit - consumed) {
    const counted = consumed ? ` after ${consumed} counted through the control API` : '';
    throw new CheckFailure(`${operationId}: ${limit - consumed} requests within one window${counted} answered ${describe(within.statuses)}; all should be ${okStatus}`);
  }
  const over = await ctx.queue(endpointId, operationId, args);
  if (!ctx.controlled && over.status !== 429) {
    // Without clock control a missing limit cannot be told from a window that rolled over: not a pass.
    throw new NeedsClock(`request ${limit + 1} answered ${over.status}; the window may have rolled over during the flood`);
  }
  is429(over, `${operationId} request ${limit + 1} within the window`);
  const retryAfter = Number(over.headers.get('retry-after'));
  await ctx.pass(retryAfter * 1000);
  expectStatus(await ctx.queue(endpointId, operationId, args), okStatus, `${operationId} after Retry-After (${retryAfter} s)`);
  const sent = consumed ? ` (${consumed} of them counted through the control API)` : '';
  return `${limit} × ${okStatus}${sent}, then 429 (Retry-After ${retryAfter} s), then ${okStatus} after the wait`;
}

/** Holds `limit` sync requests open (their job cannot finish), then expects the next one to get 429. */
async function concurrencyCheck(ctx: Ctx, operationId: 'runJobSync' | 'getJobStatusSync'): Promise<string> {
  if (!ctx.controlled) throw new NeedsClock('the concurrency limit needs the clock to hold requests open');
  const concurrent = ctx.value<number>('concurrent');
  const endpointId = await ctx.endpoint({ workersMax: 1 });
  const hold = { input: { mock: { durationMs: 120_000 } } };
  // With the control API's rate-limit route, all but the last SENT requests are held open by the target
  // (the same counter, released when the held ones are: after 61 s of the clock), as the window part counts
  // all but SENT; the limit is reached all the same, with SENT connections instead of hundreds.
  const byControl = concurrent > SENT ? await holdOpen(ctx, endpointId, operationId, concurrent - SENT, 61_000) : 0;
  const open = concurrent - byControl;
  let held: Promise<Answer>[];
  if (operationId === 'runJobSync') {
    held = Array.from({ length: open }, () => ctx.queue(endpointId, 'runJobSync', { body: hold, query: { wait: 60_000 } }));
  } else {
    const id = await ctx.run(endpointId, hold.input.mock);
    held = Array.from({ length: open }, () => ctx.queue(endpointId, 'getJobStatusSync', { path: { jobId: id }, query: { wait: 60_000 } }));
  }
  let probe: Answer;
  if (operationId === 'runJobSync') {
    // Every held request has reached the server once its job exists.
    await ctx.eventually('held requests to be in flight', async () => {
      const h = await ctx.queue(endpointId, 'getHealth');
      return h.body.jobs.inQueue + h.body.jobs.inProgress >= open ? true : undefined;
    }, 10_000);
    // The probe is held too if it is (wrongly) admitted, so it is awaited after the clock releases all.
    let settled = false;
    const pending = ctx.queue(endpointId, operationId, { body: hold, query: { wait: 60_000 } }).finally(() => {
      settled = true;
    });
    await ctx.eventually('the probe to be answered (or, wrongly, held)', async () => {
      if (settled) return true;
      const h = await ctx.queue(endpointId, 'getHealth');
      return h.body.jobs.inQueue + h.body.jobs.inProgress > open ? true : undefined;
    }, 10_000);
    await ctx.pass(61_000);
    probe = await pending;
  } else {
    // An admitted probe for an unknown job is answered 404 at once, so probing until the first 429
    // waits exactly for the held requests to arrive (bounded), with no fixed sleep.
    probe = await ctx.eventually('429 once the held requests are in flight', async () => {
      const answer = await ctx.queue(endpointId, operationId, { path: { jobId: 'cc-x' }, query: { wait: 1000 } });
      return answer.status === 429 ? answer : undefined;
    }, 10_000);
    await ctx.pass(61_000);
  }
  const answers = await Promise.all(held);
  is429(probe, `${operationId} with ${concurrent} requests in flight`);
  const bad = answers.filter((a) => a.status !== 200).length;
  expect(bad === 0, `${bad} of the ${open} held requests did not answer 200`);
  return byControl ? `${concurrent} held open (${byControl} of them through the control API), the next got 429` : `${concurrent} held open, the next got 429`;
}

const RATE_RULES: [string, string][] = [
  ['QUEUE-RATE-001', 'runJobSync'], ['QUEUE-RATE-002', 'runJob'], ['QUEUE-RATE-003', 'getJobStatus'], ['QUEUE-RATE-004', 'streamJob'],
  ['QUEUE-RATE-005', 'cancelJob'], ['QUEUE-RATE-006', 'purgeQueue'], ['QUEUE-RATE-007', 'openaiProxy'], ['QUEUE-RATE-008', 'listRequests'],
  ['QUEUE-RATE-009', 'getJobStatusSync'], ['QUEUE-RATE-010', 'retryJob'], ['QUEUE-RATE-011', 'getHealth'],
  ['QUEUE-RATE-014', 'openaiProxyGet'],
];

/** Operations whose accepted requests wait on a job (held /runsync, stream, status-sync, OpenAI). */
const WAITS_ON_JOBS = new Set(['runJobSync', 'streamJob', 'openaiProxy', 'getJobStatusSync']);

for (const [id, operationId] of RATE_RULES) {
  defineCheck(id, async (ctx) => {
    const notes = [await windowCheck(ctx, operationId)];
    if (operationId === 'runJobSync' || operationId === 'getJobStatusSync') notes.push(await concurrencyCheck(ctx, operationId));
    else if (ctx.values['concurrent'] !== null) notes.push('concurrency part not observable black-box (the operation answers at once)');
    return notes.join('; ');
  }, { timeoutMs: 60_000, needs: WAITS_ON_JOBS.has(operationId) ? ['jobs'] : [] });
}

defineCheck('QUEUE-RATE-012', async (ctx) => {
  const a = await ctx.endpoint({ workersMax: 0 });
  const b = await ctx.endpoint({ workersMax: 0 });
  if (ctx.controlled) await ctx.pass(10_000);
  for (let i = 0; i < 2; i++) expectStatus(await ctx.queue(a, 'purgeQueue'), 200, `purgeQueue #${i + 1} on endpoint A`);
  is429(await ctx.queue(a, 'purgeQueue'), 'purgeQueue #3 on endpoint A');
  expectStatus(await ctx.queue(a, 'getHealth'), 200, 'getHealth on endpoint A (another operation)');
  expectStatus(await ctx.queue(b, 'purgeQueue'), 200, 'purgeQueue on endpoint B (another endpoint)');
});

defineCheck('RATE-429-001', async (ctx) => {
  const a = await ctx.endpoint({ workersMax: 0 });
  if (ctx.controlled) await ctx.pass(10_000);
  let answer: Answer | undefined;
  for (let i = 0; i < 5 && answer?.status !== 429; i++) answer = await ctx.queue(a, 'purgeQueue');
  is429(answer!, 'purgeQueue beyond its limit');
  return 'every 429 of the run is checked by the rate rules; REST v1 states no limits';
}, { needs: ['rest', 'queueV2'] });
