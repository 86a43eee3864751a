// Job engine of every queue-based endpoint: FIFO queue, workers (min/max, scale-up on queue
// pressure, idle scale-down), ttl, executionTimeout, result retention, /retry, /cancel, /purge-queue.
import type { Clock } from '../clock.js';
import type { FaultName } from '../options.js';
import { TERMINAL_STATUSES, type Job, type JobStatus, type Worker } from '../types.js';
import { TrackedMap, type ChangeSink } from '../state-journal/tracked-map.js';
import type { WorkerRegistry } from '../simulated-workers/registry.js';
import type { Fleet } from '../simulated-workers/fleet.js';
import { EndpointJobs } from './endpoint-jobs.js';
import { JobWaiters } from './waiters.js';
import { rememberJsonText } from '../json-text-cache.js';
import { JobExecution, type RunResult } from './execution.js';
import { JobTimers, ttlCounts, ttlDeadline } from './job-timers.js';
import type { EndpointConfig, WorkerLifecycle } from './workers.js';
import type { ExternalWorkerPort, ResultVerdict, WorkerResult } from './external-run.js';
import { clearAttempt, newJob, requeueRestored, type Submission } from './job-record.js';

export type { EndpointConfig } from './workers.js';
export type { Submission } from './job-record.js';
export { DEFAULT_TTL_MS } from './job-timers.js';
export { DEFAULT_EXECUTION_TIMEOUT_MS } from './execution.js';

export interface EngineDeps {
  clock: Clock;
  faults: ReadonlySet<FaultName>;
  defaultJobDurationMs: number;
  retentionMs: { run: number; runsync: number };
  endpointConfig(endpointId: string): EndpointConfig | undefined;
  /** Resolved environment of the endpoint's workers (secrets substituted). */
  workerEnv(endpointId: string): Record<string, string>;
  /** Called once per terminal transition (webhooks). */
  onTerminal(job: Job): void;
  /** GPU types that currently have no capacity (control API). */
  isGpuAvailable(gpuTypeId: string): boolean;
  /** The endpoints' simulated workers (stubs, handlers, built-ins); without it every job runs the default echo worker. */
  workers?: WorkerRegistry;
  /** Seeded randomness of the default worker (duration, failures, cold start); none = fixed duration. */
  fleet?: Fleet;
  /** --state: a large output's JSON text is kept with it for the journal (json-text-cache.ts). */
  keepJsonTexts?: boolean;
  /** Worker processes speaking the worker protocol (`--worker NAME=exec:…`): worker-protocol/hub.ts. */
  external?: ExternalWorkerPort & { lifecycleOf(endpointId: string): WorkerLifecycle; forgetKey(endpointId: string): void };
}

export class JobEngine {
  private readonly endpoints = new Map<string, EndpointJobs>();
  /** Every stored job; set/delete/touch are journaled with --state (status changes included). */
  private readonly jobs = new TrackedMap<Job>('jobs', false);
  private sink: ChangeSink | undefined;
  private readonly timers: JobTimers;
  private readonly waiters: JobWaiters;
  private readonly execution: JobExecution;

  constructor(private readonly deps: EngineDeps) {
    this.timers = new JobTimers(deps.clock, {
      ttlEnded: (job) => this.expire(job),
      isStored: (job) => this.jobs.peek(job.id) === job,
      retentionEnded: (job, at) => {
        const ep = this.endpoints.get(job.endpointId);
        if (ep && this.jobs.get(job.id) === job && job.expiresAt === at) this.delete(ep, job);
      },
    });
    this.execution = new JobExecution(deps, {
      timers: this.timers,
      isStored: (job) => this.jobs.get(job.id) === job,
      touch: (jobId) => this.jobs.touch(jobId),
      end: (ep, job, status, result) => this.endRun(ep, job, status, result),
      dispatch: (ep) => this.dispatch(ep),
    });
    this.waiters = new JobWaiters(deps.clock, (jobId) => this.jobs.get(jobId));
  }

  get jobCount(): number { return this.jobs.size; }

  /** Ttl entries held: ended jobs' are dropped in bulk, so this stays within about twice the stored jobs. */
  get ttlEntries(): number { return this.timers.ttlEntries; }

  /** Jobs the endpoint stores: queued, running, and terminal within result retention. */
  storedJobs = (endpointId: string): number => this.endpoints.get(endpointId)?.jobs.size ?? 0;

  /** Creates the endpoint's worker pool (workersMin idle workers) if it does not exist yet. */
  ensureEndpoint(endpointId: string): EndpointJobs {
    let ep = this.endpoints.get(endpointId);
    if (!ep) {
      ep = new EndpointJobs(endpointId, this.deps.clock, () => this.deps.endpointConfig(endpointId) ?? {}, this.deps.isGpuAvailable);
      this.endpoints.set(endpointId, ep);
      this.dispatch(ep);
    }
    return ep;
  }

  /** Billed worker time of the endpoint's finished work, ms (persisted with --state). */
  billedMs(endpointId: string): number {
    return this.endpoints.get(endpointId)?.billedMs ?? 0;
  }

  restoreBilledMs(endpointId: string, ms: number): void {
    this.ensureEndpoint(endpointId).billedMs = ms;
  }

  /** Journals every later change of a job or of billed time to `sink` (--state). */
  journalTo(sink: ChangeSink | undefined): void {
    this.sink = sink;
    this.jobs.sink = sink;
  }

  /** A stored job, without counting as a read (the journal). */
  peekJob(jobId: string): Job | undefined {
    return this.jobs.peek(jobId);
  }

  /** Re-reads the endpoint's worker settings (after an update). */
  reconfigure(endpointId: string): void {
    const ep = this.endpoints.get(endpointId);
    if (ep) this.dispatch(ep);
  }

  submit(endpointId: string, kind: Job['kind'], submission: Submission): Job {
    const ep = this.ensureEndpoint(endpointId);
    const job = newJob(endpointId, kind, submission, this.deps.clock.now());
    this.jobs.set(job.id, job);
    ep.add(job);
    this.timers.armTtl(job);
    this.enqueue(ep, job);
    return job;
  }

  get(endpointId: string, jobId: string): Job | undefined {
    const job = this.jobs.get(jobId);
    return job && job.endpointId === endpointId ? job : undefined;
  }

  /** Cancels a queued or running job; a terminal job is returned unchanged. */
  cancel(job: Job): Job {
    if (TERMINAL_STATUSES.has(job.status)) return job;
    const ep = this.endpoints.get(job.endpointId)!;
    // A job held through its worker's cold start has a worker but is still IN_QUEUE.
    if (job.status === 'IN_PROGRESS' || job.workerId !== undefined) this.releaseWorker(ep, job);
    this.finish(ep, job, 'CANCELLED', {});
    this.dispatch(ep);
    return job;
  }

  /**
   * Requeues a FAILED or TIMED_OUT job with the same id and input. 'not-retryable' for other
   * statuses; 'expired' (job deleted) when its ttl, counted from the original submission, has passed.
   */
  retry(job: Job): Job | 'not-retryable' | 'expired' {
    if (job.status !== 'FAILED' && job.status !== 'TIMED_OUT') return 'not-retryable';
    const ep = this.endpoints.get(job.endpointId)!;
    if (ttlDeadline(job) <= this.deps.clock.now()) {
      this.delete(ep, job);
      return 'expired';
    }
    let target = job;
    if (this.deps.faults.has('retry-new-id')) {
      target = this.submit(job.endpointId, job.kind, { input: job.input, webhook: job.webhook, policy: job.policy });
      return target;
    }
    clearAttempt(job, this.deps.clock.now());
    this.execution.forget(job.id);
    ep.retried++;
    ep.setStatus(job, 'IN_QUEUE');
    this.jobs.touch(job.id);
    // ttl keeps counting from the original submission: its entry, armed then, still counts (ttlCounts).
    this.enqueue(ep, job);
    return target;
  }

  /** Removes every queued job (running jobs are untouched); returns how many were removed. */
  purge(endpointId: string): number {
    const ep = this.ensureEndpoint(endpointId);
    const waiting = ep.takeQueued();
    for (const job of waiting) this.delete(ep, job);
    let removed = waiting.length;
    if (this.deps.faults.has('purge-removes-running')) {
      for (const job of [...ep.jobs.values()]) {
        if (job.status === 'IN_PROGRESS') {
          this.releaseWorker(ep, job);
          this.delete(ep, job);
          removed++;
        }
      }
      this.dispatch(ep);
    }
    return removed;
  }

  health(endpointId: string) {
    return this.ensureEndpoint(endpointId).health();
  }

  runningWorkers(endpointId: string): number {
    return this.endpoints.get(endpointId)?.pool.running ?? 0;
  }

  workersOf(endpointId: string): readonly Worker[] {
    return this.endpoints.get(endpointId)?.pool.workers ?? [];
  }

  /** Worker time the endpoint's jobs used so far, running jobs included (billing). */
  executionMsOf(endpointId: string): number {
    return this.endpoints.get(endpointId)?.executionMs() ?? 0;
  }

  /** When the endpoint's billed worker time was spent (REST v2 billing). */
  usageOf = (endpointId: string) => this.endpoints.get(endpointId)?.usageNow() ?? [];

  /** Queued and running jobs, oldest submission first. */
  activeJobs(endpointId: string): Job[] {
    const ep = this.ensureEndpoint(endpointId);
    const active: Job[] = [];
    for (const job of ep.jobs.values()) if (job.status === 'IN_QUEUE' || job.status === 'IN_PROGRESS') active.push(job);
    return active.sort((a, b) => a.submittedAt - b.submittedAt);
  }

  /** Hands out the stream chunks produced since the last read (drain on read). */
  drainStream(job: Job): unknown[] {
    return this.execution.drainStream(job);
  }

  /** Resolves with the job once terminal (or deleted → undefined), or with its current state after `ms`. */
  waitFor(job: Job, ms: number): Promise<Job | undefined> {
    return this.waiters.waitFor(job, ms);
  }

  /** Deletes an endpoint's jobs, workers and timers (endpoint deleted). */
  removeEndpoint(endpointId: string): void {
    this.deps.external?.forgetKey(endpointId);
    const ep = this.endpoints.get(endpointId);
    if (!ep) return;
    for (const job of [...ep.jobs.values()]) this.delete(ep, job);
    ep.pool.clear();
    this.endpoints.delete(endpointId);
    this.sink?.changed('billedMs', endpointId);
  }

  allJobs(): IterableIterator<Job> {
    return this.jobs.values();
  }

  /** Restores jobs from a snapshot: running jobs go back to the queue (their worker is gone). */
  restore(jobs: Job[]): void {
    // Retention queues need expiries in order.
    jobs = [...jobs].sort((a, b) => (a.finishedAt ?? a.submittedAt) - (b.finishedAt ?? b.submittedAt));
    for (const job of jobs) {
      const ep = this.ensureEndpoint(job.endpointId);
      requeueRestored(job);
      this.jobs.set(job.id, job);
      ep.add(job);
      if (ttlCounts(job)) this.timers.armTtl(job);
      if (TERMINAL_STATUSES.has(job.status)) this.armRetention(ep, job);
      else this.enqueue(ep, job);
    }
  }

  /** --state could not keep a change of this job: it goes back to its kept value (undefined: not kept at all). */
  revertJob(jobId: string, kept: Job | undefined): void {
    const current = this.jobs.peek(jobId);
    const ep = current && this.endpoints.get(current.endpointId);
    if (current && ep) this.delete(ep, current);
    if (kept) this.restore([kept]);
  }

  clear(): void {
    for (const ep of [...this.endpoints.values()]) this.removeEndpoint(ep.endpointId);
    this.timers.clearDeadlines();
  }

  // ---- internals -------------------------------------------------------------------------

  /** A job's ttl ended: deleted unless it ended first (a FAILED job keeps its entry only for a later /retry). */
  private expire(job: Job): void {
    if (this.deps.faults.has('status-after-ttl-200') || TERMINAL_STATUSES.has(job.status)) return;
    const ep = this.endpoints.get(job.endpointId);
    if (!ep || this.jobs.get(job.id) !== job) return;
    if (job.status === 'IN_PROGRESS' || job.workerId !== undefined) this.releaseWorker(ep, job);
    this.delete(ep, job);
    this.dispatch(ep);
  }

  private enqueue(ep: EndpointJobs, job: Job): void {
    ep.enqueue(job);
    this.dispatch(ep);
  }

  /**
   * Workers pick up work on a timer due "now" rather than synchronously, so a submission is always
   * answered IN_QUEUE (like the real service) and the pickup follows the clock.
   */
  private dispatch(ep: EndpointJobs): void {
    if (ep.dispatchPending) return;
    ep.dispatchPending = true;
    this.deps.clock.at(this.deps.clock.now(), () => {
      ep.dispatchPending = false;
      if (this.endpoints.get(ep.endpointId) === ep) this.dispatchNow(ep);
    });
  }

  private dispatchNow(ep: EndpointJobs): void {
    const external = this.execution.isExternal(ep.endpointId);
    ep.pool.lifecycle = external ? this.deps.external!.lifecycleOf(ep.endpointId) : undefined;
    // Scale up on queue pressure (lowPriority jobs do not count), then hand out work FIFO.
    ep.pool.scale(ep.scalingDemand);
    if (external) return this.execution.handOut(ep);
    for (const worker of ep.pool.workers) {
      if (worker.state !== 'idle') continue;
      const job = ep.nextQueued();
      if (!job) break;
      this.start(ep, worker, job);
    }
  }

  // ---- worker protocol (worker-protocol/routes.ts; the work is execution.ts's) ----------------

  /** A worker process asks for work, or its endpoint's workers changed: hand out queued jobs. */
  workersChanged(endpointId: string): void {
    const ep = this.endpoints.get(endpointId);
    if (ep) this.dispatch(ep);
  }

  /** The endpoint's worker pool (created with the endpoint's engine record). */
  poolOf(endpointId: string) {
    return this.ensureEndpoint(endpointId).pool;
  }

  /** A job-done post of a worker process; 'absent' when the endpoint stores no such job. */
  workerResult(endpointId: string, jobId: string, workerId: string, result: WorkerResult, isStream: boolean): ResultVerdict | 'absent' {
    const ep = this.endpoints.get(endpointId);
    const job = this.get(endpointId, jobId);
    return ep && job ? this.execution.workerResult(ep, job, workerId, result, isStream) : 'absent';
  }

  /** A job-stream post of a worker process. */
  workerChunk(endpointId: string, jobId: string, workerId: string, output: unknown): ResultVerdict | 'too-many' | 'absent' {
    const job = this.get(endpointId, jobId);
    return job ? this.execution.workerChunk(job, workerId, output) : 'absent';
  }

  /** A worker process is gone (exited, killed, replaced): its jobs end FAILED as crashed; it is replaced. */
  workerGone(endpointId: string, worker: Worker, reason: string): void {
    const ep = this.endpoints.get(endpointId);
    if (ep) this.execution.workerGone(ep, worker, reason);
  }

  private start(ep: EndpointJobs, worker: Worker, job: Job): void {
    this.execution.start(ep, worker, job);
  }

  /** A run ends: its worker is freed, the job takes its terminal status, the next job is dispatched. */
  private endRun(ep: EndpointJobs, job: Job, status: JobStatus, result: RunResult): void {
    this.releaseWorker(ep, job);
    this.finish(ep, job, status, result);
    this.dispatch(ep);
  }

  private releaseWorker(ep: EndpointJobs, job: Job): void {
    this.execution.abort(job.id, 'the job ended (cancelled, timed out or expired)');
    this.timers.cancelRun(job.id);
    if (ep.pool.release(job.id) && job.startedAt !== undefined) {
      ep.bill(job.startedAt, this.deps.clock.now());
      this.sink?.changed('billedMs', ep.endpointId);
    }
  }

  private finish(ep: EndpointJobs, job: Job, status: JobStatus, result: RunResult): void {
    const now = this.deps.clock.now();
    ep.setStatus(job, status);
    this.timers.cancelRun(job.id);
    job.finishedAt = now;
    if (job.startedAt !== undefined) job.executionTime = now - job.startedAt;
    if (result.output !== undefined) job.output = result.output;
    if (result.outputText !== undefined && this.deps.keepJsonTexts) rememberJsonText(result.output, result.outputText);
    if (result.error !== undefined) job.error = typeof result.error === 'string' ? result.error : JSON.stringify(result.error);
    this.jobs.touch(job.id);
    // Once terminal, result retention governs how long the record stays (independently of ttl).
    if (!ttlCounts(job)) this.timers.forgetTtl();
    this.armRetention(ep, job);
    this.waiters.notify(job, job);
    this.deps.onTerminal(job);
  }

  private armRetention(_ep: EndpointJobs, job: Job): void {
    let retention = this.deps.retentionMs[job.kind];
    if (this.deps.faults.has('retention-too-short')) retention = Math.floor(retention / 2);
    job.expiresAt = (job.finishedAt ?? this.deps.clock.now()) + retention;
    this.timers.armRetention(job, job.expiresAt);
  }

  private delete(ep: EndpointJobs, job: Job): void {
    this.timers.cancelRun(job.id);
    if (ttlCounts(job)) this.timers.forgetTtl();
    ep.remove(job);
    this.execution.forget(job.id);
    this.jobs.delete(job.id);
    this.waiters.notify(job, undefined);
  }
}
