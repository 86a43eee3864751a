// startMock(): the stateful reference mock of REST v1, queue v2 and GraphQL on one node:http server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KeyRing } from './auth.js';
import { createClock, type Clock } from './clock.js';
import { createControlHandler } from './control.js';
import { Cors } from './cors.js';
import type { MockCore } from './core.js';
import { JobEngine, type EndpointConfig } from './jobs/engine.js';
import { resolveSecrets } from './jobs/simulate.js';
import { WebhookDispatcher } from './jobs/webhooks.js';
import { resolveOptions, type MockOptions } from './options.js';
import { loadState, savedClockNow, saveState, StateWriter } from './persistence.js';
import { RateLimiter } from './rate-limit.js';
import { LogBook } from './rest-v2/log-book.js';
import { QuotaWindows } from './rest-v2/quota.js';
import { Router } from './router.js';
import { createRequestHandler } from './server.js';
import { mockOperations, mockRateLimitPolicy, operation, webhookPolicy } from './spec-facts.js';
import { heapCeilingFailure } from './state/capacity.js';
import { ResourceStore } from './state/store.js';

/** Request line + headers the mock reads (1 MiB); beyond it node:http answers 431. */
export const MAX_REQUEST_HEAD_BYTES = 1024 * 1024;

export { FAULT_NAMES, DEFAULT_API_KEY, type MockOptions, type FaultName, type ApiKey } from './options.js';
export type { Clock } from './clock.js';

export interface RunningMock {
  url: string;
  restV1Url: string;
  /** REST v2 management base (…/rest/v2): a prefix of its own, since queue v2 owns /v2/{endpointId}. */
  restV2Url: string;
  queueV2Url(endpointId: string): string;
  graphqlUrl: string;
  /** Base of the control API; only served when started with `control: true`. */
  controlUrl: string;
  clock: Clock;
  /** In-process access for embedding tools (the HTTP surfaces are the contract). */
  core: MockCore;
  close(): Promise<void>;
}

export async function startMock(input: MockOptions = {}): Promise<RunningMock> {
  const options = resolveOptions(input);
  // A restored virtual clock resumes at the saved time: downtime must not expire ttl or retention.
  const resumeAt = options.stateFile && options.clock === 'virtual' && input.clockStart === undefined ? savedClockNow(options.stateFile) : undefined;
  const clock = createClock(options.clock, resumeAt ?? options.clockStart);
  const deleteDelay = options.templateDeleteDelayMs ?? operation('restV1', 'deleteTemplate').deleteDelayMs ?? 0;
  const store = new ResourceStore(clock, () => deleteDelay, options.faults.has('template-delete-in-use'), () => heapCeilingFailure(options.limits));
  const webhooks = new WebhookDispatcher(clock, webhookPolicy, options.faults);
  let writer: StateWriter | undefined;
  const unavailableGpuTypes = new Set<string>();
  const touch = () => writer?.markDirty();
  const engine = new JobEngine({
    clock,
    faults: options.faults,
    defaultJobDurationMs: options.jobDurationMs,
    retentionMs: {
      run: operation('queueV2', 'runJob').resultRetentionMs ?? 0,
      runsync: operation('queueV2', 'runJobSync').resultRetentionMs ?? 0,
    },
    endpointConfig: (id) => store.endpoints.get(id) as EndpointConfig | undefined,
    workerEnv: (id) => {
      const endpoint = store.endpoints.get(id);
      const template = endpoint ? store.templates.get(endpoint.templateId) : undefined;
      const env = { ...((template?.['env'] as Record<string, string> | undefined) ?? {}), ...((endpoint?.['env'] as Record<string, string> | undefined) ?? {}) };
      return resolveSecrets(env, (name) => store.secretValue(name));
    },
    isGpuAvailable: (gpuTypeId) => !unavailableGpuTypes.has(gpuTypeId),
    onTerminal: (job) => {
      webhooks.jobFinished(job);
      touch();
    },
  });
  const rateLimiter = new RateLimiter(clock, mockRateLimitPolicy.windowMs, options.rateLimitFactor);
  const restV2Quota = new QuotaWindows(clock, options.rateLimitFactor);
  const logs = new LogBook(clock, engine);
  store.podObserver = logs;
  const core: MockCore = { clock, options, store, engine, webhooks, rateLimiter, restV2Quota, logs, unavailableGpuTypes, touch, openRequests: 0 };

  if (options.stateFile) {
    const persisted = { clock, store, engine, webhooks };
    loadState(options.stateFile, persisted);
    const file = options.stateFile;
    writer = new StateWriter(() => saveState(file, persisted));
  }

  const reset = () => {
    engine.clear();
    store.clear();
    rateLimiter.clear();
    restV2Quota.clear();
    webhooks.clearLog();
    unavailableGpuTypes.clear();
    touch();
  };
  const handler = createRequestHandler({
    core,
    router: new Router(mockOperations),
    keys: new KeyRing(options.apiKeys, options.faults.has('no-401-on-bad-key')),
    control: options.control ? createControlHandler(core, reset) : undefined,
    cors: options.cors === undefined ? undefined : new Cors(options.cors),
  });
  // Every spec-valid request line must fit (specs/CONVENTIONS.md, request head); node's default is 16 KiB.
  const server = createServer({ keepAliveTimeout: 5_000, maxHeaderSize: MAX_REQUEST_HEAD_BYTES }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let closed = false;
  return {
    url,
    restV1Url: `${url}/v1`,
    restV2Url: `${url}/rest/v2`,
    queueV2Url: (endpointId) => `${url}/v2/${encodeURIComponent(endpointId)}`,
    graphqlUrl: `${url}/graphql`,
    controlUrl: `${url}/__control`,
    clock,
    core,
    async close() {
      if (closed) return;
      closed = true;
      await webhooks.settle();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      writer?.close();
      clock.stop();
    },
  };
}
