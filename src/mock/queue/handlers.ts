// queue v2 operation handlers (12 operations). The endpoint id is checked before these run.
import { error, type Handler, type MockCore, type Reply, type RequestContext } from '../core.js';
import type { Submission } from '../jobs/engine.js';
import { renderJob, renderJobWithText } from '../jobs/render.js';
import { needsTurns, writeJsonInTurns } from '../json-in-turns.js';
import { rememberJsonText } from '../json-text-cache.js';
import { jobCeilingFailure } from '../state/capacity.js';
import type { Job } from '../types.js';
import { answerOpenAiGet, answerOpenAiPost } from '../simulated-workers/openai/route.js';

const DEFAULT_WAIT_MS = 90_000;

function jobOf(core: MockCore, ctx: RequestContext): Job | Reply {
  const job = core.engine.get(ctx.params['endpointId']!, ctx.params['jobId']!);
  return job ?? error(404, 'job not found (unknown id, ttl expired, or result retention passed)');
}
const isReply = (value: Job | Reply): value is Reply => 'status' in value && !('endpointId' in value);

function waitMs(ctx: RequestContext): number {
  const wait = ctx.query['wait'];
  return wait === undefined ? DEFAULT_WAIT_MS : Number(wait);
}

function submission(body: unknown): Submission {
  const b = body as Submission;
  const s: Submission = { input: b.input };
  if (b.webhook !== undefined) s.webhook = b.webhook;
  if (b.policy !== undefined) s.policy = b.policy;
  if (b.s3Config !== undefined) s.s3Config = b.s3Config;
  return s;
}

/** QUEUE-CAPACITY-001 / CAPACITY-HEAP-001: a submission past a ceiling is refused and stores nothing. */
function refusedSubmission(core: MockCore, endpointId: string): Reply | undefined {
  const stored = { endpoint: core.engine.storedJobs(endpointId), total: core.engine.jobCount };
  const refused = jobCeilingFailure(core.options.limits, stored);
  if (!refused) return undefined;
  return { ...error(refused.status, refused.message), headers: { 'retry-after': String(refused.retryAfterSeconds) } };
}

/**
 * Submits the job unless a ceiling refuses it, then answers. With --state a large input is first written out
 * a slice per turn and remembered as text, so the journal records the job without serialising the input again
 * in one turn (json-text-cache.ts); the ceilings are checked again after those turns.
 */
function submitAndAnswer(
  core: MockCore, endpointId: string, kind: Job['kind'], body: unknown, answer: (job: Job) => Reply | Promise<Reply>,
): Reply | Promise<Reply> {
  const refused = refusedSubmission(core, endpointId);
  if (refused) return refused;
  const s = submission(body);
  if (core.options.stateFile === undefined || !needsTurns(s.input)) return answer(core.engine.submit(endpointId, kind, s));
  const pieces: string[] = [];
  return writeJsonInTurns(s.input, (text) => pieces.push(text), s).then(() => {
    const refusedNow = refusedSubmission(core, endpointId);
    if (refusedNow) return refusedNow;
    rememberJsonText(s.input, pieces.join(''));
    return answer(core.engine.submit(endpointId, kind, s));
  });
}

/** /run's answer, its text made here: two short fields, never an answer to write a slice per turn. */
export function submittedAnswer(job: Job): Reply {
  const body = { id: job.id, status: job.status };
  return { status: 200, body, json: JSON.stringify(body) };
}

async function waitAndRender(core: MockCore, job: Job, ms: number): Promise<Reply> {
  const final = await core.engine.waitFor(job, ms);
  if (!final) return error(404, 'job was deleted while waiting (ttl expired)');
  if (final.crashed) return error(500, 'Internal error: the worker crashed while running the job');
  return { status: 200, body: renderJob(final) };
}

export const queueHandlers: Record<string, Handler> = {
  runJob: (core, ctx) => submitAndAnswer(core, ctx.params['endpointId']!, 'run', ctx.body, submittedAnswer),
  runJobSync: (core, ctx) => submitAndAnswer(core, ctx.params['endpointId']!, 'runsync', ctx.body, (job) => waitAndRender(core, job, waitMs(ctx))),
  getJobStatus: (core, ctx) => {
    const job = jobOf(core, ctx);
    if (isReply(job)) return job;
    const { body, json } = renderJobWithText(job);
    return { status: 200, body, json };
  },
  getJobStatusSync: (core, ctx) => {
    const job = jobOf(core, ctx);
    return isReply(job) ? job : waitAndRender(core, job, waitMs(ctx));
  },
  streamJob: (core, ctx) => {
    const job = jobOf(core, ctx);
    if (isReply(job)) return job;
    const handedOut = job.streamed;
    const chunks = core.engine.drainStream(job);
    // HEAD answers like GET (same length) but must not consume the chunks a later GET hands out.
    if (ctx.head) job.streamed = handedOut;
    return { status: 200, body: { id: job.id, status: job.status, stream: chunks.map((output) => ({ output })) } };
  },
  cancelJob: (core, ctx) => {
    const job = jobOf(core, ctx);
    return isReply(job) ? job : { status: 200, body: renderJob(core.engine.cancel(job)) };
  },
  retryJob: (core, ctx) => {
    const job = jobOf(core, ctx);
    if (isReply(job)) return job;
    const result = core.engine.retry(job);
    if (result === 'not-retryable') return error(400, `only FAILED or TIMED_OUT jobs can be retried; this job is ${job.status}`);
    if (result === 'expired') return error(404, 'job expired (ttl) and cannot be retried');
    return { status: 200, body: { id: result.id, status: result.status } };
  },
  purgeQueue: (core, ctx) => ({
    status: 200,
    body: { removed: core.engine.purge(ctx.params['endpointId']!), status: 'completed' },
  }),
  getHealth: (core, ctx) => ({ status: 200, body: core.engine.health(ctx.params['endpointId']!) }),
  listRequests: (core, ctx) => ({
    status: 200,
    body: {
      requests: core.engine.activeJobs(ctx.params['endpointId']!).map((job) => ({
        id: job.id,
        status: job.status,
        submittedAt: new Date(job.submittedAt).toISOString(),
      })),
    },
  }),
  openaiProxy: answerOpenAiPost,
  openaiProxyGet: answerOpenAiGet,
};
