// The simulated logs of every pod and serverless worker (REST v2 getPodLogs / getWorkerLogs). Pods are
// followed through the store's pod observer, so changes made through any surface show up; a pod the
// book has not seen change (restored from --state) starts its log from its record. Worker logs start
// when the worker was spawned and are dropped with the worker.
import type { Clock } from '../clock.js';
import type { JobEngine } from '../jobs/engine.js';
import { podGpuType } from '../rest/render.js';
import type { PodChange, PodObserver } from '../state/store.js';
import type { PodRecord, Worker } from '../types.js';
import { SimulatedLog, type BootStep } from './log-lines.js';
import { bootDurationMs, bootStart, POD_BOOT_MS, POD_PROVISION_MS } from './pod-status.js';

const CONTAINER_STARTED = 'container started';
const FRESH_BOOT: readonly BootStep[] = [
  { afterMs: POD_PROVISION_MS, text: 'machine assigned; pulling image' },
  { afterMs: POD_PROVISION_MS + POD_BOOT_MS, text: CONTAINER_STARTED },
];
const REBOOT: readonly BootStep[] = [{ afterMs: POD_BOOT_MS, text: CONTAINER_STARTED }];

/** Deterministic container output: line n of a run. */
const POD_OUTPUT = ['listening on 0.0.0.0:8888', 'GET /health 200', 'step {n}: loss {loss}', 'checkpoint saved (step {n})'];
const WORKER_OUTPUT = ['waiting for jobs', 'heartbeat ok', 'handler idle; queue polled'];

function outputLine(patterns: readonly string[], n: number): string {
  const loss = (1 / Math.sqrt(n + 1)).toFixed(4);
  return `[${n}] ${patterns[n % patterns.length]!.replace('{n}', String(n)).replace('{loss}', loss)}`;
}

function describePod(pod: PodRecord): string {
  const gpu = podGpuType(pod);
  const compute = gpu ? `${String((pod['gpuCount'] as number | undefined) ?? 1)} x ${gpu}` : 'CPU';
  return `pod created (${compute}, image ${String(pod['image'] ?? '')})`;
}

export class LogBook implements PodObserver {
  private readonly pods = new Map<string, SimulatedLog>();
  private readonly workers = new Map<string, SimulatedLog>();

  constructor(private readonly clock: Clock, private readonly engine: JobEngine) {}

  /** The pod's log, started from its record when the book has not seen it yet. */
  podLog(pod: PodRecord): SimulatedLog {
    let log = this.pods.get(pod.id);
    if (!log) {
      log = new SimulatedLog((n) => outputLine(POD_OUTPUT, n));
      this.pods.set(pod.id, log);
      const boot = bootStart(pod);
      log.begin(pod.createdAt, describePod(pod), FRESH_BOOT, bootDurationMs(true));
      if (pod.desiredStatus === 'RUNNING' && !boot.fresh) log.begin(boot.at, 'start requested', REBOOT, bootDurationMs(false));
      if (pod.desiredStatus !== 'RUNNING') log.end(Math.max(pod.createdAt, stoppedAt(pod)), 'container stopped');
    }
    return log;
  }

  /** Whether `log` is still the log of a live pod (false once the pod is deleted). */
  isPodLog(podId: string, log: SimulatedLog): boolean {
    return this.pods.get(podId) === log;
  }

  podChanged(pod: PodRecord, change: PodChange): void {
    const known = this.pods.get(pod.id);
    if (!known) {
      // The record already shows this change: starting from it covers it.
      if (change !== 'deleted') this.podLog(pod);
      if (change === 'updated') this.pods.get(pod.id)!.note(this.clock.now(), 'pod settings updated');
      return;
    }
    const now = this.clock.now();
    switch (change) {
      case 'created':
        return;
      case 'updated':
        return known.note(now, 'pod settings updated');
      case 'stopped':
        return known.end(now, 'stop requested; container stopped');
      case 'started':
      case 'restarted':
      case 'reset':
        return known.begin(now, `${change === 'started' ? 'start' : change === 'reset' ? 'reset' : 'restart'} requested`, REBOOT, bootDurationMs(false));
      case 'deleted':
        // Delete first: an open stream woken by end() sees the pod gone, sends this last line and ends.
        this.pods.delete(pod.id);
        return known.end(now, 'pod terminated');
    }
  }

  /** The store was cleared or restored: every log goes, and open streams end. */
  cleared(): void {
    const open = [...this.pods.values(), ...this.workers.values()];
    this.pods.clear();
    this.workers.clear();
    for (const log of open) for (const wake of [...log.listeners]) wake();
  }

  /**
   * A line of a worker process (its stdout/stderr as container lines, the mock's notes about it as system
   * lines): its log holds what it really wrote, nothing simulated.
   */
  workerProcessLine(endpointId: string, workerId: string, source: 'container' | 'system', line: string): void {
    const key = `${endpointId}/${workerId}`;
    let log = this.workers.get(key);
    if (!log) {
      this.dropGoneWorkers();
      log = new SimulatedLog(() => '');
      this.workers.set(key, log);
    }
    if (source === 'system') log.note(this.clock.now(), line);
    else log.output(this.clock.now(), line);
  }

  /** The worker's log, or undefined when the endpoint has no such worker (any more). */
  workerLog(endpointId: string, workerId: string): SimulatedLog | undefined {
    this.dropGoneWorkers();
    const worker = this.engine.workersOf(endpointId).find((w) => w.id === workerId);
    if (!worker) return undefined;
    const key = `${endpointId}/${workerId}`;
    let log = this.workers.get(key);
    if (!log) {
      log = new SimulatedLog((n) => outputLine(WORKER_OUTPUT, n));
      log.begin(worker.createdAt, `worker started (${worker.gpuTypeId ?? 'CPU'})`, [], 0);
      this.workers.set(key, log);
    }
    return log;
  }

  isWorkerLog(endpointId: string, workerId: string, log: SimulatedLog): boolean {
    return this.workers.get(`${endpointId}/${workerId}`) === log && this.engine.workersOf(endpointId).some((w: Worker) => w.id === workerId);
  }

  /** Forgets logs of workers scaled down or deleted with their endpoint (bounded memory). */
  private dropGoneWorkers(): void {
    for (const key of this.workers.keys()) {
      const [endpointId, workerId] = key.split('/') as [string, string];
      if (!this.engine.workersOf(endpointId).some((w) => w.id === workerId)) this.workers.delete(key);
    }
  }
}

/** When a stopped pod stopped, from REST v1's lastStatusChange ("Exited by User: <iso>"), else its creation. */
function stoppedAt(pod: PodRecord): number {
  const match = typeof pod.lastStatusChange === 'string' ? /: (\S+)$/.exec(pod.lastStatusChange) : null;
  const at = match ? Date.parse(match[1]!) : Number.NaN;
  return Number.isFinite(at) ? at : pod.createdAt;
}
