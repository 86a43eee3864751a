// --state FILE: the whole mock state as one JSON document, written atomically (write, fsync, rename).
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import type { Clock } from './clock.js';
import type { JobEngine } from './jobs/engine.js';
import type { StoreSnapshot, ResourceStore } from './state/store.js';
import type { WebhookDispatcher, WebhookSnapshot } from './jobs/webhooks.js';
import type { Job } from './types.js';

const FORMAT_VERSION = 1;

interface StateFile {
  version: number;
  savedAt: number;
  clockNow: number;
  store: StoreSnapshot;
  jobs: Job[];
  /** Endpoint billing time of finished work (running work is re-billed after restore). */
  endpointBilledMs?: Record<string, number>;
  /** Webhook delivery log and the attempts still due. */
  webhooks?: WebhookSnapshot;
}

/** What a restore needs besides the store and jobs. */
export interface PersistedParts {
  clock: Clock;
  store: ResourceStore;
  engine: JobEngine;
  webhooks: WebhookDispatcher;
}

/** The virtual time saved in the file, so a restarted virtual clock resumes there (not at wall time). */
export function savedClockNow(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<StateFile>;
  return typeof state.clockNow === 'number' ? state.clockNow : undefined;
}

export function saveState(file: string, { clock, store, engine, webhooks }: PersistedParts): void {
  const endpointBilledMs: Record<string, number> = {};
  for (const id of store.endpoints.keys()) {
    const billed = engine.billedMs(id);
    if (billed > 0) endpointBilledMs[id] = billed;
  }
  const state: StateFile = {
    version: FORMAT_VERSION,
    savedAt: Date.now(),
    clockNow: clock.now(),
    store: store.snapshot(),
    jobs: [...engine.allJobs()],
    endpointBilledMs,
    webhooks: webhooks.snapshot(),
  };
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(state));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** Restores a saved state; false when the file does not exist. */
export function loadState(file: string, { clock, store, engine, webhooks }: PersistedParts): boolean {
  if (!existsSync(file)) return false;
  const state = JSON.parse(readFileSync(file, 'utf8')) as StateFile;
  if (state.version !== FORMAT_VERSION) throw new Error(`${file}: unsupported state format ${state.version}`);
  if (clock.mode === 'virtual') clock.set(state.clockNow);
  store.restore(state.store);
  engine.restore(state.jobs);
  for (const [id, ms] of Object.entries(state.endpointBilledMs ?? {})) engine.restoreBilledMs(id, ms);
  if (state.webhooks) webhooks.restore(state.webhooks);
  return true;
}

/** Saves at most once per `intervalMs` while dirty, and on flush(). */
export class StateWriter {
  private dirty = false;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly save: () => void, intervalMs = 500) {
    this.timer = setInterval(() => this.flushIfDirty(), intervalMs);
    this.timer.unref();
  }

  markDirty(): void {
    this.dirty = true;
  }

  flushIfDirty(): void {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      this.save();
    } catch (error) {
      this.dirty = true;
      console.error('[mock] could not save state:', error);
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.dirty = true;
    this.flushIfDirty();
  }
}
