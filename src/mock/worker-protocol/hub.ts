// The worker processes of every endpoint whose worker is `exec:COMMAND` / `FILE.py`, and workers that attach on
// their own: their processes, their held job-take and job-stop polls, their stop signals and kill grace, the
// endpoint's worker key, and the start back-off. The queue itself stays the engine's (jobs/engine.ts).
import type { JobEngine } from '../jobs/engine.js';
import type { ExternalWorkerPort } from '../jobs/external-run.js';
import type { WorkerLifecycle } from '../jobs/workers.js';
import type { Job, Worker } from '../types.js';
import type { ChangeSink } from '../state-journal/tracked-map.js';
import { launchWorkerProcess, RESTART_BACKOFF_MAX_MS, RestartBackoff, type OutputStream, type WorkerProcess } from '../worker-processes/launcher.js';
import { newWorkerKey, workerProtocolEnv } from './env.js';

/** How long a job-take or job-stop is held open without news before it is answered 204 (real time). */
export const POLL_HOLD_MS = 30_000;
/** An attached worker that has asked nothing for this long is counted out (real time). */
export const ATTACHED_SILENCE_MS = 3 * POLL_HOLD_MS;
/** Most jobs one job-take-batch may ask for. */
export const MAX_BATCH_SIZE = 64;
/** Ids of stopped worker processes remembered, so a late request of one is not taken for a worker attaching. */
const MAX_RETIRED_IDS = 4096;
/** The --state journal kind of the endpoints' worker keys (endpoint id → key). */
export const WORKER_KEYS_KIND = 'workerKeys';

export interface HubDeps {
  /** The process command of the endpoint's workers (undefined: not a process worker). */
  commandOf(endpointId: string): string | undefined;
  /** The template's and endpoint's env, secrets resolved. */
  userEnvOf(endpointId: string): Record<string, string>;
  /** A worker's output line → the endpoint's worker log (REST v2 getWorkerLogs). */
  log(endpointId: string, workerId: string, stream: OutputStream | 'system', line: string): void;
  /** One line on the mock's stderr (start failures, reported once per run of failures). */
  report(line: string): void;
  /** Grace between a stop signal and the kill of a process that shows no sign of stopping (real time). */
  killGraceMs: number;
}

interface HeldPoll<T> {
  answer(value: T | undefined): void;
  timer: NodeJS.Timeout;
}

interface Connection {
  endpointId: string;
  worker: Worker;
  process?: WorkerProcess;
  take?: HeldPoll<Job[]> & { capacity: number };
  stopPoll?: HeldPoll<string[]>;
  /** Stop signals not handed out yet. */
  toStop: string[];
  /** Armed when a stop is signalled; cleared by the worker's next request after it got the signal. */
  killTimer?: NodeJS.Timeout;
  stopHandedOut: boolean;
  silenceTimer?: NodeJS.Timeout;
  gone: boolean;
}

export class WorkerHub implements ExternalWorkerPort {
  engine: JobEngine | undefined;
  /** Set once the server listens; processes wait for it. */
  private baseUrl: string | undefined;
  private readonly connections = new Map<string, Connection>();
  private readonly keys = new Map<string, string>();
  private readonly endpointOfKeys = new Map<string, string>();
  private readonly backoffs = new Map<string, RestartBackoff>();
  private readonly lifecycles = new Map<string, WorkerLifecycle>();
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  /** Worker processes the mock stopped (oldest first): their ids never attach again. */
  private readonly retired = new Set<string>();
  private closed = false;
  /** --state: a worker key made or forgotten is journaled, so a restarted mock takes the same key. */
  sink: ChangeSink | undefined;

  constructor(private readonly deps: HubDeps) {}

  /** The server listens at `url`: workers spawned before start now. */
  listening(url: string): void {
    this.baseUrl = url;
    for (const connection of this.connections.values()) if (!connection.worker.attached && !connection.process) this.launch(connection);
  }

  // ---- keys ---------------------------------------------------------------------------------

  /** The endpoint's worker key (made on first use, kept while the endpoint exists; with --state across restarts). */
  keyOf(endpointId: string): string {
    let key = this.keys.get(endpointId);
    if (!key) {
      key = newWorkerKey();
      this.setKey(endpointId, key);
      this.sink?.changed(WORKER_KEYS_KIND, endpointId);
    }
    return key;
  }

  /** The endpoint was deleted: its key opens nothing any more. */
  forgetKey(endpointId: string): void {
    if (!this.setKey(endpointId, undefined)) return;
    this.sink?.changed(WORKER_KEYS_KIND, endpointId);
  }

  /** Puts a stored key back (--state restore, or an unkept change undone); undefined removes it. Returns whether one was there or is now. */
  setKey(endpointId: string, key: string | undefined): boolean {
    const old = this.keys.get(endpointId);
    if (old !== undefined) this.endpointOfKeys.delete(old);
    if (key === undefined) return this.keys.delete(endpointId);
    this.keys.set(endpointId, key);
    this.endpointOfKeys.set(key, endpointId);
    return true;
  }

  /** The stored key of the endpoint, without making one (the journal). */
  peekKey(endpointId: string): string | undefined {
    return this.keys.get(endpointId);
  }

  /** Every key, as the journal stores them. */
  *keyEntries(): Iterable<[string, string, unknown]> {
    for (const [endpointId, key] of this.keys) yield [WORKER_KEYS_KIND, endpointId, key];
  }

  endpointOfKey(key: string): string | undefined {
    return this.endpointOfKeys.get(key);
  }

  /** The environment a worker of the endpoint gets (spawned, or attach mode's worker-env). */
  envFor(endpointId: string, workerId: string, gpuTypeId?: string, userEnv = this.deps.userEnvOf(endpointId)): Record<string, string> {
    return workerProtocolEnv({ baseUrl: this.baseUrl ?? '', endpointId, workerId, key: this.keyOf(endpointId), gpuTypeId }, userEnv);
  }

  // ---- the engine's side (ExternalWorkerPort + pool lifecycle) --------------------------------

  lifecycleOf(endpointId: string): WorkerLifecycle {
    let lifecycle = this.lifecycles.get(endpointId);
    if (!lifecycle) {
      lifecycle = {
        spawned: (worker) => {
          const connection = this.connect(endpointId, worker);
          if (this.baseUrl !== undefined) this.launch(connection);
        },
        removed: (worker) => this.disconnect(worker),
        canSpawn: () => this.canSpawn(endpointId),
        throttled: () => (this.backoffOf(endpointId).throttled ? 1 : 0),
      };
      this.lifecycles.set(endpointId, lifecycle);
    }
    return lifecycle;
  }

  serves(endpointId: string): boolean {
    if (this.deps.commandOf(endpointId) !== undefined) return true;
    for (const connection of this.connections.values()) if (connection.endpointId === endpointId) return true;
    return false;
  }

  capacityOf(worker: Worker): number {
    return this.connections.get(worker.id)?.take?.capacity ?? 0;
  }

  deliver(worker: Worker, jobs: Job[]): void {
    const connection = this.connections.get(worker.id);
    const take = connection?.take;
    if (!connection || !take) return;
    connection.take = undefined;
    clearTimeout(take.timer);
    this.backoffOf(connection.endpointId).healthy();
    take.answer(jobs);
  }

  stop(worker: Worker, jobId: string): void {
    const connection = this.connections.get(worker.id);
    if (!connection || connection.gone) return;
    connection.toStop.push(jobId);
    connection.stopHandedOut = false;
    this.flushStops(connection);
    if (!connection.killTimer) {
      connection.killTimer = setTimeout(() => this.killUnstopped(connection), this.deps.killGraceMs);
      connection.killTimer.unref();
    }
  }

  // ---- the worker's side (routes.ts) ------------------------------------------------------------

  /** The worker calling: a known one, or (attach mode) one that joins now; undefined past the worker ceiling. */
  connectionOf(endpointId: string, workerId: string): Connection | undefined {
    const known = this.connections.get(workerId);
    if (known) return known.endpointId === endpointId && !known.gone ? known : undefined;
    // A process being stopped (scaled down, refreshed, replaced) that asks once more is not a new worker.
    if (this.retired.has(workerId)) return undefined;
    const engine = this.engine!;
    const pool = engine.poolOf(endpointId);
    if (pool.workers.length >= 1_000) return undefined;
    const now = Date.now();
    const worker: Worker = { id: workerId, state: 'idle', idleSince: now, createdAt: now, release: 0, attached: true };
    const connection = this.connect(endpointId, worker);
    pool.adopt(worker);
    this.deps.log(endpointId, workerId, 'system', 'worker attached (it asked for work with the endpoint\'s worker key)');
    return connection;
  }

  /** Whether the id is another endpoint's worker's, or a stopped process's (answered as absent). */
  isForeign(endpointId: string, workerId: string): boolean {
    const known = this.connections.get(workerId);
    return (known !== undefined && known.endpointId !== endpointId) || this.retired.has(workerId);
  }

  /** A request of the worker other than a heartbeat: its loop runs, so a stop it was handed has reached it. */
  heard(connection: Connection): void {
    if (connection.stopHandedOut && connection.toStop.length === 0 && connection.killTimer) {
      clearTimeout(connection.killTimer);
      connection.killTimer = undefined;
    }
    if (connection.worker.attached) this.armSilence(connection);
  }

  /** A job-take: held until jobs are handed out (deliver) or POLL_HOLD_MS passes; `abandon` when the worker hangs up. */
  take(connection: Connection, capacity: number): { jobs: Promise<Job[] | undefined>; abandon(): void } {
    this.heard(connection);
    this.answerTake(connection, undefined);
    this.engine!.poolOf(connection.endpointId).ready(connection.worker);
    let held: Connection['take'];
    const jobs = new Promise<Job[] | undefined>((resolve) => {
      const timer = setTimeout(() => {
        if (connection.take === held) connection.take = undefined;
        resolve(undefined);
      }, POLL_HOLD_MS);
      timer.unref();
      connection.take = held = { capacity, answer: resolve, timer };
    });
    this.engine!.workersChanged(connection.endpointId);
    return {
      jobs,
      abandon: () => {
        if (connection.take !== held || !held) return;
        clearTimeout(held.timer);
        connection.take = undefined;
        held.answer(undefined);
      },
    };
  }

  /** The known worker of that id on the endpoint (no attaching: results come only from a worker that took work). */
  knownConnection(endpointId: string, workerId: string): Connection | undefined {
    const known = this.connections.get(workerId);
    return known && known.endpointId === endpointId && !known.gone ? known : undefined;
  }

  /** A job-stop: the ids to stop at once, else held until one is signalled or POLL_HOLD_MS passes. */
  stopPoll(connection: Connection): Promise<string[] | undefined> {
    this.heard(connection);
    if (connection.stopPoll) {
      clearTimeout(connection.stopPoll.timer);
      connection.stopPoll.answer(undefined);
      connection.stopPoll = undefined;
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (connection.stopPoll?.timer === timer) connection.stopPoll = undefined;
        resolve(undefined);
      }, POLL_HOLD_MS);
      timer.unref();
      connection.stopPoll = { answer: resolve, timer };
      this.flushStops(connection);
    });
  }

  /** Stops every process and answers every held poll (the mock closes). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    const stopping: Promise<unknown>[] = [];
    for (const connection of [...this.connections.values()]) {
      this.release(connection);
      if (connection.process) stopping.push(connection.process.stop());
    }
    this.connections.clear();
    await Promise.all(stopping);
  }

  // ---- internals --------------------------------------------------------------------------------

  private connect(endpointId: string, worker: Worker): Connection {
    const connection: Connection = { endpointId, worker, toStop: [], stopHandedOut: false, gone: false };
    this.connections.set(worker.id, connection);
    if (worker.attached) this.armSilence(connection);
    return connection;
  }

  private launch(connection: Connection): void {
    const { endpointId, worker } = connection;
    const command = this.deps.commandOf(endpointId);
    if (command === undefined || this.closed) return;
    this.deps.log(endpointId, worker.id, 'system', `worker process starting: ${command}`);
    connection.process = launchWorkerProcess({
      command,
      env: this.envFor(endpointId, worker.id, worker.gpuTypeId),
      onLine: (stream, line) => this.deps.log(endpointId, worker.id, stream, line),
      onExit: (info) => {
        const how = info.signal ? `signal ${info.signal}` : `code ${String(info.code)}`;
        this.deps.log(endpointId, worker.id, 'system', `worker process exited (${how})`);
        if (connection.gone) return;
        const backoff = this.backoffOf(endpointId);
        const startFailure = worker.state === 'initializing';
        if (backoff.exited(info) && startFailure) {
          this.deps.report(`[mock] the worker process of endpoint ${endpointId} exited at start (${how})${info.lastStderrLine ? `: ${info.lastStderrLine}` : ''}; ` +
            `its jobs wait; restarts back off ${backoff.delayMs()} ms doubling to ${RESTART_BACKOFF_MAX_MS} ms (docs/workers.md)`);
        }
        this.engine!.workerGone(endpointId, worker, `the worker process exited (${how}) while running the job`);
      },
    });
  }

  private canSpawn(endpointId: string): boolean {
    if (this.closed || this.deps.commandOf(endpointId) === undefined) return false;
    const wait = this.backoffOf(endpointId).waitMs();
    if (wait === 0) return true;
    // Try again once the back-off allows it (one timer per endpoint).
    if (!this.retryTimers.has(endpointId)) {
      const timer = setTimeout(() => {
        this.retryTimers.delete(endpointId);
        this.engine?.workersChanged(endpointId);
      }, wait);
      timer.unref();
      this.retryTimers.set(endpointId, timer);
    }
    return false;
  }

  private backoffOf(endpointId: string): RestartBackoff {
    let backoff = this.backoffs.get(endpointId);
    if (!backoff) this.backoffs.set(endpointId, (backoff = new RestartBackoff()));
    return backoff;
  }

  /** The worker left the pool (scaled down, replaced, endpoint deleted): its polls end, its process stops. */
  private disconnect(worker: Worker): void {
    const connection = this.connections.get(worker.id);
    if (!connection) return;
    this.connections.delete(worker.id);
    this.release(connection);
    if (connection.process) {
      this.retire(worker.id);
      void connection.process.stop();
    }
  }

  private retire(workerId: string): void {
    this.retired.add(workerId);
    if (this.retired.size > MAX_RETIRED_IDS) this.retired.delete(this.retired.values().next().value!);
  }

  private release(connection: Connection): void {
    connection.gone = true;
    this.answerTake(connection, undefined);
    if (connection.stopPoll) {
      clearTimeout(connection.stopPoll.timer);
      connection.stopPoll.answer(undefined);
      connection.stopPoll = undefined;
    }
    if (connection.killTimer) clearTimeout(connection.killTimer);
    if (connection.silenceTimer) clearTimeout(connection.silenceTimer);
  }

  private answerTake(connection: Connection, jobs: Job[] | undefined): void {
    const take = connection.take;
    if (!take) return;
    connection.take = undefined;
    clearTimeout(take.timer);
    take.answer(jobs);
  }

  private flushStops(connection: Connection): void {
    const poll = connection.stopPoll;
    if (!poll || connection.toStop.length === 0) return;
    const ids = connection.toStop.splice(0);
    connection.stopPoll = undefined;
    connection.stopHandedOut = true;
    clearTimeout(poll.timer);
    poll.answer(ids);
  }

  /** The grace after a stop signal passed without a sign of the worker's loop: kill and replace it. */
  private killUnstopped(connection: Connection): void {
    connection.killTimer = undefined;
    if (connection.gone) return;
    const { endpointId, worker } = connection;
    const reason = `the worker did not stop a cancelled or timed-out job within ${this.deps.killGraceMs} ms`;
    this.deps.log(endpointId, worker.id, 'system', `${reason}: ${connection.process ? 'process killed and replaced' : 'attached worker counted out'}`);
    connection.gone = true;
    if (connection.process) void connection.process.stop(0);
    this.engine!.workerGone(endpointId, worker, `${reason}; it was killed while running this job`);
  }

  private armSilence(connection: Connection): void {
    if (connection.silenceTimer) clearTimeout(connection.silenceTimer);
    connection.silenceTimer = setTimeout(() => {
      if (connection.gone || connection.take) return this.armSilence(connection);
      this.engine!.workerGone(connection.endpointId, connection.worker, `the attached worker went silent for ${ATTACHED_SILENCE_MS} ms`);
    }, ATTACHED_SILENCE_MS);
    connection.silenceTimer.unref();
  }
}

export type { Connection as WorkerConnection };
