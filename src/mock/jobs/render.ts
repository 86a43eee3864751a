// Wire shape of a job record (JobRecord): only id and status always, the rest once known.
import { TERMINAL_STATUSES, type Job } from '../types.js';
import { needsTurns } from '../json-in-turns.js';

export interface JobRecordBody {
  id: string;
  status: string;
  delayTime?: number;
  executionTime?: number;
  output?: unknown;
  error?: string;
  retries?: number;
  workerId?: string;
}

export function renderJob(job: Job): JobRecordBody {
  const body: JobRecordBody = { id: job.id, status: job.status };
  if (job.delayTime !== undefined) body.delayTime = job.delayTime;
  if (job.executionTime !== undefined) body.executionTime = job.executionTime;
  if (job.output !== undefined) body.output = job.output;
  if (job.error !== undefined) body.error = job.error;
  if (job.retries > 0) body.retries = job.retries;
  if (job.workerId !== undefined) body.workerId = job.workerId;
  return body;
}

/** A job record and its JSON text, computed once for a finished job read again (a polled `/status`). */
export interface RenderedJob {
  body: JobRecordBody;
  /** `JSON.stringify(body)`; undefined for a job not finished yet, or an answer too large to write in one turn. */
  json?: string;
}

/** Texts kept: the most recently rendered finished jobs, each at most 16 KiB of JSON (≤ 16 MiB in all). */
const MAX_REMEMBERED = 1024;
const MAX_REMEMBERED_CHARS = 16 * 1024;
const remembered = new Map<Job, Required<RenderedJob>>();

/** Whether `body` is what renderJob(job) gives now: the same fields, compared by identity (a /retry changes them). */
function rendersAs(body: JobRecordBody, job: Job): boolean {
  return body.status === job.status && body.id === job.id && body.output === job.output && body.error === job.error
    && body.delayTime === job.delayTime && body.executionTime === job.executionTime && body.workerId === job.workerId
    && (body.retries ?? 0) === job.retries;
}

/**
 * renderJob with the JSON text. A terminal job changes only by /retry (its status and retries with it), and
 * its output is never changed in place once set, so its text is made once and reused while the fields it was
 * made from are the same; a job still queued or running is rendered each time.
 */
export function renderJobWithText(job: Job): RenderedJob {
  if (!TERMINAL_STATUSES.has(job.status)) return { body: renderJob(job) };
  const known = remembered.get(job);
  if (known && rendersAs(known.body, job)) return known;
  const body = renderJob(job);
  if (needsTurns(body)) return { body };
  const json = JSON.stringify(body);
  if (known) remembered.delete(job);
  if (json.length > MAX_REMEMBERED_CHARS) return { body, json };
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
  const entry = { body, json };
  remembered.set(job, entry);
  return entry;
}
