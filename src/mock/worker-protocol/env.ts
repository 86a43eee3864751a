// The environment RunPod gives a queue worker (runpod-python 1.12.0 reads it: rp_job.py, rp_http.py, rp_ping.py,
// worker_state.py), pointing at the mock. The stop and batch URLs are derived from RUNPOD_WEBHOOK_GET_JOB by the SDK.
import { randomBytes } from 'node:crypto';

/** Heartbeat interval given to workers (RUNPOD_PING_INTERVAL, ms; the SDK's default). */
export const PING_INTERVAL_MS = 10_000;

export interface WorkerIdentity {
  /** The mock's base URL, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  endpointId: string;
  workerId: string;
  /** The endpoint's worker key (RUNPOD_AI_API_KEY): valid only on this endpoint's worker protocol. */
  key: string;
  /** GPU type of the worker (the URLs' `gpu` query parameter, as on RunPod); CPU when none. */
  gpuTypeId?: string;
}

/** The protocol's variables over the template's and endpoint's env (a user env can not redirect a worker). */
export function workerProtocolEnv(who: WorkerIdentity, userEnv: Record<string, string>): Record<string, string> {
  const base = `${who.baseUrl}/v2/${encodeURIComponent(who.endpointId)}`;
  // The SDK appends `&job_in_progress=…`, `&isStream=…`: the URLs must already carry a query string.
  const query = `?gpu=${encodeURIComponent(who.gpuTypeId ?? 'CPU')}`;
  return {
    ...userEnv,
    RUNPOD_WEBHOOK_GET_JOB: `${base}/job-take/$ID${query}`,
    RUNPOD_WEBHOOK_POST_OUTPUT: `${base}/job-done/$RUNPOD_POD_ID/$ID${query}`,
    RUNPOD_WEBHOOK_POST_STREAM: `${base}/job-stream/$RUNPOD_POD_ID/$ID${query}`,
    RUNPOD_WEBHOOK_PING: `${base}/ping/$RUNPOD_POD_ID${query}`,
    RUNPOD_AI_API_KEY: who.key,
    RUNPOD_POD_ID: who.workerId,
    RUNPOD_ENDPOINT_ID: who.endpointId,
    RUNPOD_POD_HOSTNAME: `${who.workerId}-mock`,
    RUNPOD_PING_INTERVAL: String(PING_INTERVAL_MS),
  };
}

/** `KEY=value` lines (docker --env-file: one variable a line, no quoting; a newline in a value is cut there). */
export function envFileLines(env: Record<string, string>): string {
  return Object.entries(env).map(([key, value]) => `${key}=${value.split(/\r?\n/)[0]}`).join('\n') + '\n';
}

export function newWorkerKey(): string {
  return `rpw_${randomBytes(24).toString('base64url')}`;
}
