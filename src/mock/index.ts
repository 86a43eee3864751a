// startMock(): the stateful reference mock of REST v1, REST v2, queue v2 and GraphQL on one node:http server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Accounts, DEFAULT_ACCOUNT } from './accounts.js';
import { KeyRing } from './auth.js';
import { createClock, type Clock } from './clock.js';
import { createControlHandler } from './control.js';
import { controlAccess, isLoopbackHost, peerOf } from './control-access.js';
import { Cors } from './cors.js';
import type { MockCore } from './core.js';
import { JobEngine, type EndpointConfig } from './jobs/engine.js';
import { WebhookDispatcher } from './jobs/webhooks.js';
import { WebhookEgress } from './jobs/webhook-egress.js';
import { resolveOptions, type MockOptions } from './options.js';
import { attachJournal, guardAnswers, openState, restoreState } from './persistence.js';
import type { Journal } from './state-journal/journal.js';
import { RateLimiter } from './rate-limit.js';
import { LogBook } from './rest-v2/log-book.js';
import { BuildBook } from './rest-v2/builds.js';
import { releaseBuild } from './rest-v2/build-release.js';
import { QuotaWindows } from './rest-v2/quota.js';
import { Router } from './router.js';
import { createRequestHandler } from './server.js';
import { LoadBalancer } from './load-balancing/balancer.js';
import { hostSuffixes } from './load-balancing/address.js';
import { serveDocs } from './docs-route.js';
import { mockOperations, mockRateLimitPolicy, operation, webhookPolicy } from './spec-facts.js';
import { heapCeilingFailure } from './state/capacity.js';
import { ResourceStore } from './state/store.js';
import { PUBLIC_ENDPOINT_WORKERS, publicEndpointOfKey, publicEndpointWorker } from './simulated-workers/public-endpoints.js';
import { workerEnvOf } from './simulated-workers/env.js';
import { Fleet, fleetProblem } from './simulated-workers/fleet.js';
import { loadWorkers } from './simulated-workers/load.js';
import { WorkerSetupError } from './simulated-workers/types.js';
import { WorkerRegistry } from './simulated-workers/registry.js';
import { WorkerHub } from './worker-protocol/hub.js';
import { isLoadBalancing } from './load-balancing/job-refusal.js';
import { keepTickObjectShape } from '../contract/tick-object-shape.js';

/** Request line + headers the mock reads (1 MiB); beyond it node:http answers 431. */
export const MAX_REQUEST_HEAD_BYTES = 1024 * 1024;

export { FAULT_NAMES, DEFAULT_API_KEY, type MockOptions, type FaultName, type ApiKey } from './options.js';
export type { Clock } from './clock.js';
export type { FleetOptions } from './simulated-workers/fleet.js';
export { WorkerSetupError, type WorkerHandler, type WorkerJob, type WorkerContext, type StubRule, type WorkerDefinition } from './simulated-workers/types.js';

export interface RunningMock {
  url: string;
  restV1Url: string;
  /**
   * REST v2 management base (…/v2, as `https://api.runpod.io/v2`): beside queue v2's /v2/{endpointId} on the
   * same port, told apart by the collection name after /v2 (src/contract/url-layout.ts). `/rest/v2` is an alias.
   */
  restV2Url: string;
  queueV2Url(endpointId: string): string;
  /**
   * Base of a load-balancing endpoint's workers: `…/lb/{endpointId}` (RunPod's `https://{endpointId}.api.runpod.ai`);
   * `http://{endpointId}.localhost:<port>` reaches them too where `*.localhost` resolves (docs/workers.md).
   */
  lbUrl(endpointId: string): string;
  /** The load-balancing endpoints' worker pools (tests and tools read their workers). */
  loadBalancer: LoadBalancer;
  graphqlUrl: string;
  /** Base of the control API; only served when started with `control: true`. */
  controlUrl: string;
  clock: Clock;
  /** In-process access for embedding tools (the HTTP surfaces are the contract). */
  core: MockCore;
  /** The --state journal (flush and compaction figures, tuning); undefined without --state. */
  stateJournal?: Journal;
  close(): Promise<void>;
}

export async function startMock(input: MockOptions = {}): Promise<RunningMock> {
  const options = resolveOptions(input);
  // Workers load first: a module that cannot load stops the start before any state file is opened.
  const loadedWorkers = await loadWorkers(input.workers);
  const fleetRefusal = input.fleet && fleetProblem(input.fleet);
  if (fleetRefusal) throw new WorkerSetupError(fleetRefusal);
  // --state: read (and checked) before the clock exists, since a restored virtual clock resumes at the
  // saved time (downtime must not expire ttl or retention). Throws StateFileError (CLI exit code 2).
  const opened = options.stateFile ? openState(options.stateFile) : undefined;
  const resumeAt = opened && options.clock === 'virtual' && input.clockStart === undefined ? opened.image.clock : undefined;
  const clock = createClock(options.clock, resumeAt ?? options.clockStart);
  const deleteDelay = options.templateDeleteDelayMs ?? operation('restV1', 'deleteTemplate').deleteDelayMs ?? 0;
  const atCapacity = () => heapCeilingFailure(options.limits);
  const acceptForeignReferences = options.faults.has('foreign-reference-accepted');
  const accounts: Accounts = new Accounts((account, ownersOf) => {
    const created = new ResourceStore(clock, () => deleteDelay, options.faults.has('template-delete-in-use'), atCapacity, account, ownersOf);
    created.podObserver = logs;
    if (acceptForeignReferences) {
      created.foreignLookup = (kind, id) => (accounts.storeOf(kind, id)?.collections.get(kind))?.peek(id);
    }
    return created;
  });
  const webhooks = new WebhookDispatcher(clock, webhookPolicy, options.faults, new WebhookEgress(isLoopbackHost(options.host), options.webhookAllow));
  const unavailableGpuTypes = new Set<string>();
  // Changes are journaled where state lives (state-journal/tracked-map.ts); touch() needs to do nothing.
  const touch = () => {};
  const workers = new WorkerRegistry(loadedWorkers, clock, (id) => {
    const publicEndpoint = publicEndpointOfKey(id);
    if (publicEndpoint) return { name: publicEndpoint.aiApiId, handler: publicEndpointWorker(publicEndpoint) };
    // The endpoint's own account: its name and its template's image.
    const store = accounts.storeOf('endpoints', id);
    const endpoint = store?.endpoints.peek(id);
    return endpoint && { name: endpoint.name, imageName: store!.templates.peek(endpoint.templateId)?.imageName };
  }, () => options.jobDurationMs);
  const workerEnv = (id: string) => {
    const store = accounts.storeOf('endpoints', id);
    return store ? workerEnvOf(store, id) : {};
  };
  const workerHub = new WorkerHub({
    // A load-balancing endpoint's process workers are HTTP servers (load-balancing/), never protocol workers.
    commandOf: (id) => (isLoadBalancing(accounts.storeOf('endpoints', id)?.endpoints.peek(id)) ? undefined : workers.processOf(id)),
    userEnvOf: workerEnv,
    // `logs` is made below (the log book reads the engine); lines only come once processes run.
    log: (endpointId, workerId, stream, line) => logs.workerProcessLine(endpointId, workerId, stream === 'system' ? 'system' : 'container', stream === 'stderr' ? `[stderr] ${line}` : line),
    report: (line) => process.stderr.write(`${line}\n`),
    killGraceMs: options.workerKillGraceMs,
  });
  const engine = new JobEngine({
    clock,
    faults: options.faults,
    defaultJobDurationMs: options.jobDurationMs,
    retentionMs: {
      run: operation('queueV2', 'runJob').resultRetentionMs ?? 0,
      runsync: operation('queueV2', 'runJobSync').resultRetentionMs ?? 0,
    },
    // peek: the engine's reads change nothing (get() would count as a possible change with --state).
    endpointConfig: (id) => publicEndpointOfKey(id) ? PUBLIC_ENDPOINT_WORKERS : accounts.storeOf('endpoints', id)?.endpoints.peek(id) as EndpointConfig | undefined,
    // The endpoint's own account: its template and its secrets (a foreign secret name resolves to nothing).
    workerEnv,
    isGpuAvailable: (gpuTypeId) => !unavailableGpuTypes.has(gpuTypeId),
    onTerminal: (job) => webhooks.jobFinished(job),
    workers,
    fleet: input.fleet && new Fleet(input.fleet, () => options.jobDurationMs),
    keepJsonTexts: options.stateFile !== undefined,
    external: workerHub,
  });
  workerHub.engine = engine;
  const rateLimiter = new RateLimiter(clock, mockRateLimitPolicy.windowMs, options.rateLimitFactor);
  const restV2Quota = new QuotaWindows(clock, options.rateLimitFactor);
  const logs = new LogBook(clock, engine);
  const views = new Map<string, MockCore>();
  // The release of a completed build needs the core; the book calls back into it once built.
  const builds = new BuildBook(clock, (build) => releaseBuild(core, build));
  const core: MockCore = {
    clock, options, account: DEFAULT_ACCOUNT, store: accounts.default, accounts, engine, webhooks, rateLimiter, restV2Quota, logs, builds,
    unavailableGpuTypes, touch, openRequests: 0, workers, workerHub,
    forAccount(account) {
      if (account === DEFAULT_ACCOUNT) return core;
      let view = views.get(account);
      if (!view) {
        // Everything else is read through from the shared core (openRequests, limits … stay one).
        view = Object.create(core) as MockCore;
        view.account = account;
        view.store = accounts.store(account);
        views.set(account, view);
      }
      return view;
    },
  };
  // Every key's account exists from the start (its lists answer empty, --state restores into it).
  for (const key of options.apiKeys) accounts.store(key.account ?? DEFAULT_ACCOUNT);

  if (opened) {
    const persisted = { clock, accounts, engine, webhooks, builds, workerHub };
    restoreState(opened.image, persisted);
    attachJournal(opened.journal, opened.image, persisted);
  }

  const reset = () => {
    engine.clear();
    builds.clear();
    accounts.clear();
    rateLimiter.clear();
    restV2Quota.clear();
    webhooks.clearLog();
    unavailableGpuTypes.clear();
    workers.reset();
    void loadBalancer.close();
    touch();
  };
  const allowsControlPeer = controlAccess(options.controlToken);
  const loadBalancer = new LoadBalancer();
  const handler = createRequestHandler({
    core,
    router: new Router(mockOperations),
    keys: new KeyRing(options.apiKeys, options.faults.has('no-401-on-bad-key')),
    control: options.control ? createControlHandler(core, reset) : undefined,
    controlAllowed: (req) => allowsControlPeer(peerOf(req)),
    cors: options.cors === undefined ? undefined : new Cors(options.cors),
    loadBalancer,
    lbHostSuffixes: hostSuffixes(options.host),
  });
  // Every spec-valid request line must fit (specs/CONVENTIONS.md, request head); node's default is 16 KiB.
  // --state: an answer leaves only once the changes it may show are on disk (state-journal/gate.ts).
  const guard = opened && guardAnswers(opened.journal);
  const serve: typeof handler = guard ? (req, res) => (guard(req, res), handler(req, res)) : handler;
  // The docs site is built before listening: its build would hold the loop for every early request.
  if (options.docs) serveDocs.prepare();
  // A server idle between loads must not fall off node's fast nextTick (src/contract/tick-object-shape.ts).
  keepTickObjectShape();
  const server = createServer({ keepAliveTimeout: 5_000, maxHeaderSize: MAX_REQUEST_HEAD_BYTES }, serve);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (error) {
    await opened?.journal.close();
    clock.stop();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  workerHub.listening(url);
  let closed = false;
  return {
    url,
    restV1Url: `${url}/v1`,
    restV2Url: `${url}/v2`,
    queueV2Url: (endpointId) => `${url}/v2/${encodeURIComponent(endpointId)}`,
    lbUrl: (endpointId) => `${url}/lb/${encodeURIComponent(endpointId)}`,
    loadBalancer,
    graphqlUrl: `${url}/graphql`,
    controlUrl: `${url}/__control`,
    clock,
    core,
    stateJournal: opened?.journal,
    async close() {
      if (closed) return;
      closed = true;
      await workerHub.close();
      await webhooks.settle();
      await loadBalancer.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await opened?.journal.close();
      clock.stop();
    },
  };
}
