// A job's record on its own: how a submission becomes one, what a /retry clears of the attempt before, and
// what a restart makes of a job that was running. The engine (engine.ts) decides when; this says what changes.
import type { Job, JobPolicy } from '../types.js';
import { newJobId } from './job-id.js';

export interface Submission {
  input: Record<string, unknown>;
  webhook?: string;
  policy?: JobPolicy;
  s3Config?: Record<string, unknown>;
}

/** A queued job of the submission (ids as RunPod's: `sync-<uuid>-u1` for /runsync, `<uuid>-u1` for /run). */
export function newJob(endpointId: string, kind: Job['kind'], submission: Submission, now: number): Job {
  const job: Job = {
    id: newJobId(kind === 'runsync'),
    endpointId,
    kind,
    status: 'IN_QUEUE',
    input: submission.input,
    submittedAt: now,
    queuedAt: now,
    retries: 0,
    attempts: 0,
    streamed: 0,
  };
  if (submission.webhook !== undefined) job.webhook = submission.webhook;
  if (submission.policy !== undefined) job.policy = submission.policy;
  if (submission.s3Config !== undefined) job.s3Config = submission.s3Config;
  return job;
}

/** /retry: the previous attempt's result, times and worker are cleared; the id, input and ttl stay. */
export function clearAttempt(job: Job, now: number): void {
  delete job.expiresAt;
  delete job.output;
  delete job.error;
  delete job.executionTime;
  delete job.delayTime;
  delete job.startedAt;
  delete job.finishedAt;
  delete job.workerId;
  delete job.crashed;
  job.streamed = 0;
  job.retries++;
  job.queuedAt = now;
}

/** A job restored as running goes back to the queue: its worker did not survive the restart. */
export function requeueRestored(job: Job): void {
  if (job.status !== 'IN_PROGRESS') return;
  job.status = 'IN_QUEUE';
  delete job.startedAt;
  delete job.workerId;
}
