// Job operations on a load-balancing endpoint: QUEUE-LB-* (specs/queue-v2 x-load-balancing-endpoints).
// The endpoint is created through REST v2 (the only management surface with `type`), so these rules run
// against the real service after REST v1's retirement too.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectStatus, short, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';

const POOL = 'ADA_24';
/** A job id no job has: status, stream, cancel and retry need one. */
const SOME_JOB = '00000000-0000-4000-8000-000000000000-u1';

/** A load-balancing endpoint (deleted after the check) running `image`; its id. Shared with lb-direct.ts. */
export async function lbEndpoint(ctx: Ctx, image: string = ctx.target.workerImage): Promise<string> {
  const created = await ctx.v2('createEndpoint', {
    body: {
      name: ctx.name('lb'), type: 'LOAD_BALANCER', image, gpu: { pools: [POOL] },
      scaling: { type: 'REQUEST_COUNT', requestCount: 4 }, workers: { min: 0, max: 1 },
    },
  });
  expectStatus(created, 201, 'createEndpoint (REST v2, type LOAD_BALANCER)');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteEndpoint', { path: { id } }));
  return id;
}

type Probe = [label: string, operationId: string, options: Record<string, unknown>];

const PROBES: readonly Probe[] = [
  ['POST /run', 'runJob', { body: { input: { prompt: 'hello' } } }],
  ['GET /status', 'getJobStatus', { path: { jobId: SOME_JOB } }],
  ['GET /status-sync', 'getJobStatusSync', { path: { jobId: SOME_JOB }, query: { wait: 1000 } }],
  ['GET /stream', 'streamJob', { path: { jobId: SOME_JOB } }],
  ['POST /cancel', 'cancelJob', { path: { jobId: SOME_JOB } }],
  ['POST /retry', 'retryJob', { path: { jobId: SOME_JOB } }],
  ['POST /purge-queue', 'purgeQueue', {}],
  ['GET /health', 'getHealth', {}],
  ['GET /requests', 'listRequests', {}],
  ['POST /openai/v1/chat/completions', 'openaiProxy', { path: { openaiPath: 'v1/chat/completions' }, body: { model: 'any', messages: [{ role: 'user', content: 'hi' }] } }],
  ['GET /openai/v1/models', 'openaiProxyGet', { path: { openaiPath: 'v1/models' } }],
  // Last: a target that serves it holds the request until a job ends, so it is only sent when every other refusal held.
  ['POST /runsync', 'runJobSync', { body: { input: { prompt: 'hello' } }, query: { wait: 1000 } }],
];
/** A refusal is immediate; a /runsync held longer than this counts as served. */
const HELD_MS = 5_000;

/**
 * Sends each probe and hands its answer to `judge`, which returns a problem or undefined. /runsync goes
 * only when nothing failed before it, and a /runsync held past HELD_MS is a problem of its own.
 */
async function probeAll(ctx: Ctx, endpointId: string, judge: (label: string, answer: Answer) => string | undefined, probes: readonly Probe[] = PROBES): Promise<string[]> {
  const problems: string[] = [];
  for (const [label, operationId, options] of probes) {
    if (operationId === 'runJobSync' && problems.length > 0) break;
    let answer: Answer;
    try {
      answer = await ctx.queue(endpointId, operationId, { ...options, signal: AbortSignal.timeout(HELD_MS) });
    } catch (error) {
      // The client reports an aborted request as a failure without an answer.
      if (!/no answer within/.test((error as Error).message)) throw error;
      problems.push(`${label} held the request for ${HELD_MS} ms (served like a job) instead of refusing it`);
      continue;
    }
    const problem = judge(label, answer);
    if (problem) problems.push(problem);
  }
  return problems;
}

const carriesJob = (answer: Answer): boolean => {
  const body = answer.body as Record<string, unknown> | undefined;
  return typeof body?.['id'] === 'string' || typeof body?.['status'] === 'string' || (typeof body?.['jobs'] === 'object' && body['jobs'] !== null);
};

defineCheck('QUEUE-LB-001', async (ctx) => {
  const endpointId = await lbEndpoint(ctx);
  const problems = await probeAll(ctx, endpointId, (label, answer) => {
    if (answer.status < 400 || answer.status >= 500 || answer.status === 401 || answer.status === 429) return `${label} answered ${answer.status} ${short(answer.body)}`;
    if (carriesJob(answer)) return `${label} was refused (${answer.status}) but its answer carries a job or counts: ${short(answer.body)}`;
    return undefined;
  });
  expect(problems.length === 0, `job operations on a load-balancing endpoint:\n  ${problems.join('\n  ')}`);
}, { needs: ['restV2'] });

defineCheck('QUEUE-LB-002', async (ctx) => {
  const endpointId = await lbEndpoint(ctx);
  const status = ctx.value<number>('status');
  const problems: string[] = [];
  const unauthenticated = await ctx.queue(endpointId, 'runJob', { body: { input: {} }, key: null });
  if (unauthenticated.status !== 401) problems.push(`POST /run without a key answered ${unauthenticated.status}, not 401`);
  problems.push(...await probeAll(ctx, endpointId, (label, answer) => {
    const message = (answer.body as { message?: unknown } | undefined)?.message;
    if (answer.status !== status) return `${label} answered ${answer.status}, not ${status}`;
    if (typeof message !== 'string' || !/load.balanc/i.test(message)) return `${label}: ErrorBody message ${short(message)} does not name the endpoint as load-balancing`;
    if (answer.headers.get('retry-after') !== null || answer.headers.get('ratelimit') !== null) return `${label}: the refusal carries rate-limit headers (counted in a window)`;
    return undefined;
  }));
  expect(problems.length === 0, `refusals on a load-balancing endpoint:\n  ${problems.join('\n  ')}`);
}, { needs: ['restV2'] });
