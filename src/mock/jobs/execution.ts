// How a queued job runs once a worker is free: cold start, the worker's plan (`input.mock`, the endpoint's
// handler or stubs, the fleet, the default echo worker), executionTimeout, and the handler runs /stream reads.
import type { Clock } from '../clock.js';
import type { Job, JobStatus, Worker } from '../types.js';
import type { HandlerRun } from '../simulated-workers/handler-run.js';
import type { WorkerPlan, WorkerRegistry } from '../simulated-workers/registry.js';
import type { Fleet } from '../simulated-workers/fleet.js';
import type { EndpointJobs } from './endpoint-jobs.js';
import type { JobTimers } from './job-timers.js';
import { availableChunks, outcomeOf, readDirective, type MockDirective } from './simulate.js';
import type { EndpointConfig } from './workers.js';
import { ExternalRun, type ExternalWorkerPort, type ResultVerdict, type WorkerResult } from './external-run.js';
import { MAX_STREAM_CHUNKS } from '../simulated-workers/types.js';

export const DEFAULT_EXECUTION_TIMEOUT_MS = 600_000;

export interface RunResult {
  output?: unknown;
  error?: unknown;
  outputText?: string;
}

export interface ExecutionDeps {
  clock: Clock;
  defaultJobDurationMs: number;
  endpointConfig(endpointId: string): EndpointConfig | undefined;
  workerEnv(endpointId: string): Record<string, string>;
  workers?: WorkerRegistry;
  fleet?: Fleet;
  /** Worker processes speaking the worker protocol (`--worker NAME=exec:…`). */
  external?: ExternalWorkerPort;
}

export interface ExecutionHooks {
  timers: JobTimers;
  /** The job is still the stored one (not deleted or replaced). */
  isStored(job: Job): boolean;
  /** The job's record changed (journal). */
  touch(jobId: string): void;
  /** Ends the job's run: frees its worker, records the terminal status, dispatches the next job. */
  end(ep: EndpointJobs, job: Job, status: JobStatus, result: RunResult): void;
  /** Hands out queued work (soon: on a timer due now). */
  dispatch(ep: EndpointJobs): void;
}

type Plan = { kind: 'directive'; directive: MockDirective | string } | Extract<WorkerPlan, { kind: 'handler' }>;

export class JobExecution {
  /** Handler runs of jobs (simulated-workers/), kept until the job is deleted or retried: /stream reads their chunks. */
  private readonly runs = new Map<string, HandlerRun>();
  /** Each worker's environment as it booted (envOf). */
  private readonly bootEnv = new WeakMap<Worker, Record<string, string>>();

  constructor(private readonly deps: ExecutionDeps, private readonly hooks: ExecutionHooks) {}

  /** The job's time budget: its own policy, else the endpoint's setting, else the default. */
  timeoutOf(ep: EndpointJobs, job: Job): number {
    const config = this.deps.endpointConfig(ep.endpointId) ?? {};
    return job.policy?.executionTimeout ?? config.executionTimeoutMs ?? DEFAULT_EXECUTION_TIMEOUT_MS;
  }

  start(ep: EndpointJobs, worker: Worker, job: Job): void {
    const now = this.deps.clock.now();
    const coldStartMs = this.deps.fleet?.coldStartMs ?? 0;
    if (coldStartMs > 0 && !worker.warm) return this.coldStart(ep, worker, job, now + coldStartMs);
    markStarted(ep, worker, job, now);
    // Not journaled: a restored running job goes back to the queue anyway, so this change could show
    // nothing after a restart (its record is written again when the job finishes or is cancelled).
    const timeout = this.timeoutOf(ep, job);
    const plan = this.planOf(job, true);
    if (plan.kind === 'handler') return this.startHandler(ep, job, plan.handler, now + timeout, timeout);
    const directive = plan.directive;
    const env = this.envOf(ep, worker);
    const duration = typeof directive === 'string' ? 0 : directive.durationMs;
    if (duration > timeout) {
      this.hooks.timers.setRun(job.id, now + timeout, () => this.hooks.end(ep, job, 'TIMED_OUT', { error: timeoutMessage(timeout) }));
      return;
    }
    this.hooks.timers.setRun(job.id, now + duration, () => {
      if (typeof directive === 'string') return this.hooks.end(ep, job, 'FAILED', { error: directive });
      const outcome = outcomeOf(job, directive, job.attempts, env);
      if (outcome.crashed) job.crashed = true;
      this.hooks.end(ep, job, outcome.status, outcome);
    });
  }

  /** Whether the endpoint's workers are processes speaking the worker protocol. */
  isExternal(endpointId: string): boolean {
    return this.deps.external?.serves(endpointId) ?? false;
  }

  /** Starts the job on a worker process that asked for work; its result arrives as workerResult(). */
  startExternal(ep: EndpointJobs, worker: Worker, job: Job): void {
    const now = this.deps.clock.now();
    markStarted(ep, worker, job, now);
    this.runs.set(job.id, new ExternalRun(worker, job.attempts, this.deps.external!, job.id));
    const timeout = this.timeoutOf(ep, job);
    this.hooks.timers.setRun(job.id, now + timeout, () => this.hooks.end(ep, job, 'TIMED_OUT', { error: timeoutMessage(timeout) }));
  }

  /** Worker processes take work only while they ask for it (an open job-take), up to what they ask for. */
  handOut(ep: EndpointJobs): void {
    const port = this.deps.external!;
    for (const worker of ep.pool.workers) {
      const capacity = port.capacityOf(worker);
      if (capacity === 0) continue;
      const taken: Job[] = [];
      for (let job = ep.nextQueued(); job; job = taken.length < capacity ? ep.nextQueued() : undefined) {
        this.startExternal(ep, worker, job);
        taken.push(job);
      }
      if (taken.length === 0) return;
      port.deliver(worker, taken);
    }
  }

  /** A worker process is gone: its running jobs end FAILED as a crashed worker's (a held /runsync answers 500). */
  workerGone(ep: EndpointJobs, worker: Worker, reason: string): void {
    for (const jobId of ep.pool.jobsOf(worker)) {
      const job = ep.jobs.get(jobId);
      if (!job || job.status !== 'IN_PROGRESS') continue;
      job.crashed = true;
      this.settle(jobId);
      this.hooks.end(ep, job, 'FAILED', { error: reason });
    }
    ep.pool.remove(worker);
    this.hooks.dispatch(ep);
  }

  /** The run of `job` on `workerId`, when that worker runs it now (a late or foreign post finds none). */
  private externalRun(job: Job, workerId: string): ExternalRun | undefined {
    const run = this.runs.get(job.id);
    if (!(run instanceof ExternalRun) || run.settled || run.worker.id !== workerId) return undefined;
    return job.status === 'IN_PROGRESS' && job.attempts === run.attempt ? run : undefined;
  }

  /**
   * A job-done post. `{status: 'IN_PROGRESS', output}` is a progress update (the output shows in /status until the
   * end); `{error}` fails the job, anything else completes it; a stream's final post may carry an empty output (the
   * chunks are then the output, as with in-process generator handlers). A terminal job never changes.
   */
  workerResult(ep: EndpointJobs, job: Job, workerId: string, result: WorkerResult, isStream: boolean): ResultVerdict {
    const run = this.externalRun(job, workerId);
    if (!run) return job.status === 'IN_PROGRESS' || job.status === 'IN_QUEUE' ? 'not-running-here' : 'terminal';
    if (result.status === 'IN_PROGRESS') {
      job.output = result.output;
      this.hooks.touch(job.id);
      return 'progress';
    }
    run.settled = true;
    if (result.error !== undefined && result.error !== null && result.error !== '') {
      delete job.output;
      this.hooks.end(ep, job, 'FAILED', { error: result.error });
      return 'accepted';
    }
    const empty = result.output === undefined || (Array.isArray(result.output) && result.output.length === 0);
    const output = isStream && empty && run.chunks.length > 0 ? run.chunks : result.output ?? null;
    this.hooks.end(ep, job, 'COMPLETED', { output });
    return 'accepted';
  }

  /** A job-stream post: one chunk for /stream. */
  workerChunk(job: Job, workerId: string, output: unknown): ResultVerdict | 'too-many' {
    const run = this.externalRun(job, workerId);
    if (!run) return job.status === 'IN_PROGRESS' || job.status === 'IN_QUEUE' ? 'not-running-here' : 'terminal';
    if (run.chunks.length >= MAX_STREAM_CHUNKS) return 'too-many';
    run.chunks.push(output);
    return 'accepted';
  }

  /** The job's run ended on the worker's side (its process is gone): nothing to stop. */
  settle(jobId: string): void {
    const run = this.runs.get(jobId);
    if (run instanceof ExternalRun) run.settled = true;
  }

  /** Cuts the job's handler run, if any (cancel, timeout, expiry). */
  abort(jobId: string, reason: string): void {
    this.runs.get(jobId)?.abort(reason);
  }

  /** Forgets the job's handler run (deleted or retried). */
  forget(jobId: string): void {
    this.runs.delete(jobId);
  }

  /** Hands out the stream chunks produced since the last read (drain on read). */
  drainStream(job: Job): unknown[] {
    const run = this.runs.get(job.id);
    let source: unknown[];
    let available: number;
    if (run) {
      source = run.chunks;
      available = source.length;
    } else {
      const plan = this.planOf(job);
      if (plan.kind !== 'directive' || typeof plan.directive === 'string' || !plan.directive.stream) return [];
      source = plan.directive.stream;
      available = availableChunks(plan.directive, job, this.deps.clock.now());
    }
    const chunks = source.slice(job.streamed, available);
    if (available > job.streamed) {
      job.streamed = available;
      this.hooks.touch(job.id);
    }
    return chunks;
  }

  /**
   * The environment a worker runs with, resolved at its first job and kept: a secret rotated afterwards
   * reaches workers that start later, while this one keeps its value (RunPod: "at their next boot").
   * Held here, never on the worker record, so no rendering of workers can carry a secret value.
   */
  private envOf(ep: EndpointJobs, worker: Worker): Record<string, string> {
    let env = this.bootEnv.get(worker);
    if (env === undefined) this.bootEnv.set(worker, (env = this.deps.workerEnv(ep.endpointId)));
    return env;
  }

  /** `input.mock` first, then the endpoint's simulated worker, then the default echo worker. */
  private planOf(job: Job, starting = false): Plan {
    const ownDirective = job.input['mock'] !== undefined;
    const found = ownDirective ? undefined : this.deps.workers?.planOf(job);
    // A process worker's jobs never reach here (startExternal); without a hub they run as the default worker.
    const plan = found?.kind === 'external' ? undefined : found;
    // The fleet draws only when a job starts, so reads (/stream) never shift the seeded sequence.
    if (!plan && !ownDirective && starting && this.deps.fleet) return { kind: 'directive', directive: this.deps.fleet.nextDirective() };
    return plan ?? { kind: 'directive', directive: readDirective(job.input, this.deps.defaultJobDurationMs) };
  }

  /** A fresh worker holds its first job queued for the fleet's cold start, then runs it (delayTime includes it). */
  private coldStart(ep: EndpointJobs, worker: Worker, job: Job, readyAt: number): void {
    worker.warm = true;
    ep.pool.occupy(worker, job.id);
    job.workerId = worker.id;
    this.hooks.timers.setRun(job.id, readyAt, () => {
      if (this.hooks.isStored(job) && job.status === 'IN_QUEUE') this.start(ep, worker, job);
    });
  }

  /** RunPod's handler contract: the handler's outcome ends the job, unless its time budget (`deadline`) ends it first. */
  private startHandler(ep: EndpointJobs, job: Job, handler: Extract<WorkerPlan, { kind: 'handler' }>['handler'], deadline: number, timeout: number): void {
    const run = this.deps.workers!.run(handler, { id: job.id, input: job.input }, ep.endpointId);
    const attempt = job.attempts;
    this.runs.set(job.id, run);
    const current = () => this.hooks.isStored(job) && job.status === 'IN_PROGRESS' && job.attempts === attempt;
    this.hooks.timers.setRun(job.id, deadline, () => {
      run.abort(timeoutMessage(timeout));
      this.hooks.end(ep, job, 'TIMED_OUT', { error: timeoutMessage(timeout) });
    });
    void run.done.then((outcome) => {
      if (current()) this.hooks.end(ep, job, outcome.status, outcome);
    });
  }
}

/** The job leaves the queue for `worker` (its attempt counts from here). */
export function markStarted(ep: EndpointJobs, worker: Worker, job: Job, now: number): void {
  ep.pool.occupy(worker, job.id);
  ep.setStatus(job, 'IN_PROGRESS');
  job.startedAt = now;
  job.delayTime = now - job.queuedAt;
  job.workerId = worker.id;
  job.attempts++;
}

export function timeoutMessage(timeout: number): string {
  return `executionTimeout of ${timeout} ms exceeded`;
}
