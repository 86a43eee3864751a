// A job run by a worker process (worker protocol): the engine sees it as any handler run (chunks for /stream,
// abort on cancel/timeout/expiry), while the work happens in the process and its result arrives over HTTP.
import type { HandlerRun, RunOutcome } from '../simulated-workers/handler-run.js';
import type { Job, Worker } from '../types.js';

/** What the engine needs from the worker processes of an endpoint (src/mock/worker-protocol/hub.ts). */
export interface ExternalWorkerPort {
  /** Whether the endpoint's jobs go to protocol workers: a process worker is configured, or a worker attached. */
  serves(endpointId: string): boolean;
  /** Jobs the worker asks for now (an open job-take); 0 when it is not waiting for work. */
  capacityOf(worker: Worker): number;
  /** Answers the worker's open job-take with these jobs (already IN_PROGRESS on it). */
  deliver(worker: Worker, jobs: Job[]): void;
  /** The job ended without the worker's result (cancel, timeout, ttl): signal it on the stop channel. */
  stop(worker: Worker, jobId: string): void;
}

export class ExternalRun implements HandlerRun {
  readonly chunks: unknown[] = [];
  /** Never settles: the outcome arrives as the worker's job-done (JobExecution.workerResult). */
  readonly done = new Promise<RunOutcome>(() => {});
  /** The worker's own result ended the run: nothing to stop. */
  settled = false;

  constructor(readonly worker: Worker, readonly attempt: number, private readonly port: ExternalWorkerPort, private readonly jobId: string) {}

  abort(): void {
    if (this.settled) return;
    this.settled = true;
    this.port.stop(this.worker, this.jobId);
  }
}

/** A job-done body, read from the JSON text the worker sent. */
export interface WorkerResult {
  output?: unknown;
  error?: unknown;
  status?: unknown;
  stopPod?: unknown;
}

export type ResultVerdict = 'accepted' | 'progress' | 'terminal' | 'not-running-here';
