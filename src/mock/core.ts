// The mock's shared parts, built once per server and handed to every surface handler.
import type { Accounts } from './accounts.js';
import type { ServerResponse } from 'node:http';
import type { Clock } from './clock.js';
import type { JobEngine } from './jobs/engine.js';
import type { WebhookDispatcher } from './jobs/webhooks.js';
import type { ResolvedOptions } from './options.js';
import type { RateLimiter } from './rate-limit.js';
import type { QuotaWindows } from './rest-v2/quota.js';
import type { LogBook } from './rest-v2/log-book.js';
import type { BuildBook } from './rest-v2/builds.js';
import type { ResourceStore } from './state/store.js';
import type { WorkerRegistry } from './simulated-workers/registry.js';
import type { WorkerHub } from './worker-protocol/hub.js';

export interface MockCore {
  clock: Clock;
  options: ResolvedOptions;
  /** The caller's account (its user id on every surface); the default account outside a request. */
  account: string;
  /** The caller's account's resources (src/mock/accounts.ts): a foreign id is simply absent here. */
  store: ResourceStore;
  /** Every account's store and the owner of every id. */
  accounts: Accounts;
  /** The core as a request of `account` sees it: the same parts, that account's store (cached). */
  forAccount(account: string): MockCore;
  engine: JobEngine;
  webhooks: WebhookDispatcher;
  rateLimiter: RateLimiter;
  /** REST v2 per-caller minute/hour/day windows. */
  restV2Quota: QuotaWindows;
  /** Simulated pod and worker logs (REST v2 getPodLogs / getWorkerLogs). */
  logs: LogBook;
  /** Endpoint builds (REST v2 builds), started by simulated pushes through the control API. */
  builds: BuildBook;
  /** GPU types without capacity, set through the control API (worker allocation). */
  unavailableGpuTypes: Set<string>;
  /** No-op kept for callers: --state journals changes where state is stored (state-journal/tracked-map.ts). */
  touch(): void;
  /** HTTP requests received and not yet answered (held /runsync, /status-sync …); lets tests wait for arrival. */
  openRequests: number;
  /** The endpoints' simulated workers (docs/workers.md). */
  workers: WorkerRegistry;
  /** Worker processes and attached workers speaking the worker protocol (worker-protocol/hub.ts). */
  workerHub: WorkerHub;
}

export interface RequestContext {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** A HEAD request: answer exactly as GET, but change nothing (e.g. /stream hands out no chunk). */
  head: boolean;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** `JSON.stringify(body)` when the handler already has it (a finished job's record): sent as is. */
  json?: string;
  headers?: Record<string, string>;
  /** A streamed answer (Server-Sent Events): writes its own head and ends `res`; the request counts as open until then. */
  stream?: (res: ServerResponse) => Promise<void>;
}

export type Handler = (core: MockCore, ctx: RequestContext) => Reply | Promise<Reply>;

export const error = (status: number, message: string, errors?: { path: string; message: string }[]): Reply => ({
  status,
  body: errors && errors.length > 0 ? { message, errors } : { message },
});
