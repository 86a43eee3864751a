// The worker protocol over HTTP (specs/worker/openapi.yaml): job-take, job-take-batch, job-done, job-stream,
// job-stop and ping under /v2/{endpointId}/, authenticated by the endpoint's worker key (not an account key).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockCore } from '../core.js';
import { readBody, sendError, sendJson, sendNoContent } from '../http.js';
import { needsTurns, sendJsonInTurns } from '../json-in-turns.js';
import { MAX_CHUNK_BYTES, MAX_OUTPUT_BYTES } from '../simulated-workers/types.js';
import type { Job } from '../types.js';
import type { WorkerResult } from '../jobs/external-run.js';
import { MAX_BATCH_SIZE, type WorkerHub } from './hub.js';

const PATH = /^\/(job-take|job-take-batch|job-stop|ping)\/([^/]+)$|^\/(job-done|job-stream)\/([^/]+)\/([^/]+)$/;
const WORKER_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Room for the JSON around an output or chunk of the largest allowed size. */
const ENVELOPE_BYTES = 64 * 1024;

export function isWorkerProtocolPath(relPath: string): boolean {
  // Every worker path starts `/job-` or `/ping/`: a job path (`/status/…`, `/run`) is told apart without the expression.
  return (relPath.startsWith('/job-') || relPath.startsWith('/ping/')) && PATH.test(relPath);
}

/** `Authorization: KEY` as runpod-python sends it (`Bearer KEY` is accepted too). */
function workerKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization?.trim();
  if (!header) return undefined;
  return header.replace(/^Bearer\s+/i, '') || undefined;
}

function query(search: string): URLSearchParams {
  return new URLSearchParams(search);
}

export function handleWorkerProtocol(core: MockCore, hub: WorkerHub, req: IncomingMessage, res: ServerResponse, endpointId: string, relPath: string, search: string): void | Promise<void> {
  const match = PATH.exec(relPath)!;
  const operation = (match[1] ?? match[3])!;
  const workerId = decodeURIComponent((match[2] ?? match[4])!);
  const jobId = match[5] === undefined ? undefined : decodeURIComponent(match[5]);
  const key = workerKey(req);
  const keyEndpoint = key === undefined ? undefined : hub.endpointOfKey(key);
  if (keyEndpoint === undefined) return reject(req, res, 401, 'Unauthorized: not a worker key of this endpoint (RUNPOD_AI_API_KEY)');
  // Another endpoint's worker key, or an endpoint deleted since: answered as absent.
  if (keyEndpoint !== endpointId || !core.accounts.storeOf('endpoints', endpointId)?.endpoints.has(endpointId)) {
    return reject(req, res, 404, `endpoint ${endpointId} not found`);
  }
  const wanted = operation === 'job-done' || operation === 'job-stream' ? 'POST' : 'GET';
  if (req.method !== wanted && !(wanted === 'GET' && req.method === 'HEAD')) {
    return reject(req, res, 405, `method ${req.method} not allowed at ${relPath}`, { allow: wanted === 'GET' ? 'GET, HEAD' : 'POST' });
  }
  if (!WORKER_ID.test(workerId)) return reject(req, res, 400, 'the worker id must be 1..64 characters of A-Z a-z 0-9 _ -');
  const params = query(search);
  switch (operation) {
    case 'job-take':
    case 'job-take-batch':
      return take(hub, req, res, endpointId, workerId, operation === 'job-take' ? 1 : params.get('batch_size'));
    case 'job-stop':
      return stop(hub, req, res, endpointId, workerId);
    case 'ping': {
      req.resume();
      const connection = hub.connectionOf(endpointId, workerId);
      if (!connection) return sendError(res, 404, `worker ${workerId} not found`);
      return sendNoContent(res);
    }
    case 'job-done':
      return done(core, hub, req, res, endpointId, workerId, jobId!, params.get('isStream') === 'true');
    default:
      return chunk(core, hub, req, res, endpointId, workerId, jobId!);
  }
}

async function take(hub: WorkerHub, req: IncomingMessage, res: ServerResponse, endpointId: string, workerId: string, size: number | string | null): Promise<void> {
  req.resume();
  const batch = typeof size !== 'number';
  const capacity = batch ? Number(size) : size;
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_BATCH_SIZE) {
    return sendError(res, 400, `batch_size must be an integer 1..${MAX_BATCH_SIZE}`);
  }
  const connection = hub.connectionOf(endpointId, workerId);
  if (!connection) {
    if (hub.isForeign(endpointId, workerId)) return sendError(res, 404, `worker ${workerId} not found`);
    return sendError(res, 429, 'the endpoint has as many workers as it may have', undefined, { 'retry-after': '5' });
  }
  const held = hub.take(connection, capacity);
  res.once('close', held.abandon);
  const jobs = await held.jobs;
  res.off('close', held.abandon);
  if (!jobs || jobs.length === 0 || res.destroyed) return sendNoContent(res);
  const payload = jobs.map(jobPayload);
  const body = batch ? payload : payload[0];
  if (needsTurns(body)) return sendJsonInTurns(res, 200, body);
  sendJson(res, 200, body);
}

/** What a worker gets of a job: its id and input (and the s3Config the submission handed to the worker). */
function jobPayload(job: Job): Record<string, unknown> {
  const payload: Record<string, unknown> = { id: job.id, input: job.input };
  if (job.s3Config !== undefined) payload['s3Config'] = job.s3Config;
  return payload;
}

async function stop(hub: WorkerHub, req: IncomingMessage, res: ServerResponse, endpointId: string, workerId: string): Promise<void> {
  req.resume();
  const connection = hub.connectionOf(endpointId, workerId);
  if (!connection) return sendError(res, 404, `worker ${workerId} not found`);
  const ids = await hub.stopPoll(connection);
  if (res.destroyed) return;
  if (!ids || ids.length === 0) return sendNoContent(res);
  sendJson(res, 200, { jobsToStop: ids });
}

/** The body runpod-python sends: JSON text (its Content-Type says form-urlencoded, the content is JSON). */
async function jsonBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<Record<string, unknown> | undefined> {
  const raw = await readBody(req, max);
  if (!raw.ok) {
    if (raw.reason === 'too-large') sendError(res, 413, `the body exceeds ${max} bytes`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw.raw.toString('utf8'));
  } catch {
    sendError(res, 400, 'the body is not JSON text (send the result as JSON, whatever the Content-Type)');
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    sendError(res, 400, 'the body must be a JSON object: {output}, {error} or {status: "IN_PROGRESS", output}');
    return undefined;
  }
  return value as Record<string, unknown>;
}

async function done(core: MockCore, hub: WorkerHub, req: IncomingMessage, res: ServerResponse, endpointId: string, workerId: string, jobId: string, isStream: boolean): Promise<void> {
  const body = await jsonBody(req, res, MAX_OUTPUT_BYTES + ENVELOPE_BYTES);
  if (!body) return;
  const connection = hub.knownConnection(endpointId, workerId);
  if (connection) hub.heard(connection);
  const verdict = core.engine.workerResult(endpointId, jobId, workerId, body as WorkerResult, isStream);
  if (!answerVerdict(core, res, endpointId, jobId, workerId, verdict)) return;
  // refresh_worker: the worker stops after this job and a fresh one replaces it.
  if (body['stopPod'] === true && verdict === 'accepted' && connection) {
    core.engine.workerGone(endpointId, connection.worker, 'the worker stopped itself (refresh_worker)');
  }
}

async function chunk(core: MockCore, hub: WorkerHub, req: IncomingMessage, res: ServerResponse, endpointId: string, workerId: string, jobId: string): Promise<void> {
  const body = await jsonBody(req, res, MAX_CHUNK_BYTES + ENVELOPE_BYTES);
  if (!body) return;
  const connection = hub.knownConnection(endpointId, workerId);
  if (connection) hub.heard(connection);
  if (!('output' in body)) return sendError(res, 400, 'a stream chunk is {output: …}');
  const verdict = core.engine.workerChunk(endpointId, jobId, workerId, body['output']);
  if (verdict === 'too-many') return sendError(res, 400, 'the job has streamed as many chunks as it may');
  answerVerdict(core, res, endpointId, jobId, workerId, verdict);
}

/** Answers a result or chunk post; true when it was taken. */
function answerVerdict(_core: MockCore, res: ServerResponse, endpointId: string, jobId: string, workerId: string, verdict: string): boolean {
  switch (verdict) {
    case 'absent':
      sendError(res, 404, `job ${jobId} not found on endpoint ${endpointId}`);
      return false;
    case 'terminal':
      sendError(res, 409, `job ${jobId} has already ended; a late result changes nothing`);
      return false;
    case 'not-running-here':
      sendError(res, 409, `job ${jobId} is not running on worker ${workerId}`);
      return false;
    default:
      sendJson(res, 200, {});
      return true;
  }
}

function reject(req: IncomingMessage, res: ServerResponse, status: number, message: string, headers?: Record<string, string>): void {
  req.resume();
  sendError(res, status, message, undefined, headers);
}
