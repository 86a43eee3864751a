/**
 * REST v2 client (`https://api.runpod.io`, paths `/v2/...`): `request(operationId, args)` for every JSON
 * operation, `stream(operationId, args)` for the 4 SSE log operations, resource helpers on top, the
 * last rate-limit state seen (`rateLimit`) and the non-throwing openapi-fetch layer (`raw`).
 *
 * Lists: the service wraps every list (`{"pods": [...]}`) and paginates none, so their helpers resolve the
 * unwrapped array (`serverless.builds.list(id)`: the 100 most recent builds). Answers that carry more than a
 * list (workers + summary, releases + rollout, billing records + metadata) are returned whole.
 */
import type { CallOptions } from '../http.js';
import { compact } from '../http.js';
import { RestV2Core, type RestV2ClientOptions } from './core.js';
import type {
  RestV2Args,
  RestV2RequestBody,
  RestV2JsonOperationId,
  RestV2QueryParams,
  RestV2Result,
  RestV2Schemas,
  RestV2StreamOperationId,
} from './operations.js';
import type { RateLimitState } from './rate-limit.js';
import type { SseEvent, SseResumeOptions } from './sse.js';

// The event-stream reader is loaded on the first stream read: callers who never read logs do not carry it.
let sse: Promise<typeof import('./sse.js')> | undefined;
const loadSse = () => (sse ??= import('./sse.js'));

/** Options of `stream()`, `pods.logs()` and `serverless.workerLogs()`. */
export interface LogStreamOptions extends Omit<SseResumeOptions, 'sleep' | 'random' | 'baseDelayMs' | 'maxDelayMs'> {
  /** Past lines sent before live ones (0 = live only; server default 100, at most 5000). */
  tail?: number;
  /** Start from this instant instead of `tail`. */
  since?: string | Date;
  /** Only the `container` or the `system` stream; both when omitted. */
  source?: RestV2Schemas['LogSource'];
  /** Per connection attempt (until headers arrive); the stream itself has no time limit. */
  timeoutMs?: number;
  /** Retries of each connection attempt on 429 / 5xx / connection errors. */
  maxRetries?: number;
  headers?: Record<string, string>;
}

/** One log line of a pod or worker (`data: {source, line, ts}`, `id:` = the line's timestamp). */
export interface LogLine {
  /** SSE event id, the resume cursor (`Last-Event-ID`). */
  id: string | undefined;
  source?: RestV2Schemas['LogSource'];
  line: string;
  ts?: string;
}

/** Collections whose five operations follow one naming (`listPods`, `createPod`, `getPod`, `updatePod`, `deletePod`). */
type Crud = 'Pod' | 'Endpoint' | 'Template' | 'NetworkVolume' | 'Cluster' | 'Secret';
type ListKey<K extends RestV2JsonOperationId> = keyof NonNullable<RestV2Result<K>> & string;
type Item<K extends RestV2JsonOperationId, Key extends ListKey<K>> = NonNullable<RestV2Result<K>>[Key];

export function toLogLine(event: SseEvent): LogLine {
  try {
    const parsed = JSON.parse(event.data) as Partial<LogLine>;
    if (parsed !== null && typeof parsed === 'object' && typeof parsed.line === 'string') {
      return { id: event.id, line: parsed.line, ...(parsed.source ? { source: parsed.source } : {}), ...(parsed.ts ? { ts: parsed.ts } : {}) };
    }
  } catch {
    // plain-text data: the whole data is the line
  }
  return { id: event.id, line: event.data };
}

export function createRestV2Client(options: RestV2ClientOptions) {
  const core = new RestV2Core(options);
  // Transport defaults of the reconnect backoff come from the client options.
  const resumeDefaults = { sleep: options.sleep, random: options.random, baseDelayMs: options.baseDelayMs, maxDelayMs: options.maxDelayMs };

  function request<K extends RestV2JsonOperationId>(operationId: K, args: RestV2Args<K>, callOptions?: CallOptions): Promise<RestV2Result<K>> {
    const parts = args as { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    return core.call<RestV2Result<K>>(operationId, { ...parts, query: compact(parts.query) }, callOptions);
  }

  /** SSE events of getPodLogs / getWorkerLogs, resumed with Last-Event-ID after a drop; ends on abort. */
  async function* stream<K extends RestV2StreamOperationId>(operationId: K, args: RestV2Args<K>, streamOptions: LogStreamOptions = {}): AsyncGenerator<SseEvent, void, undefined> {
    const { path, query } = args as { path?: Record<string, unknown>; query?: Record<string, unknown> };
    const { timeoutMs, maxRetries, headers, tail, since, source, ...resume } = streamOptions;
    const parts = {
      path,
      query: compact({ ...query, ...compact({ tail, source, since: since instanceof Date ? since.toISOString() : since }) }),
    };
    const { resumableEvents } = await loadSse();
    yield* resumableEvents(
      (lastEventId, signal) => core.connect(operationId, parts, lastEventId, { signal, timeoutMs, maxRetries, headers }),
      { ...resumeDefaults, ...resume },
    );
  }

  async function* logLines<K extends RestV2StreamOperationId>(operationId: K, args: RestV2Args<K>, streamOptions?: LogStreamOptions) {
    for await (const event of stream(operationId, args, streamOptions)) yield toLogLine(event);
  }

  // Small typed shorthands so every helper stays one line.
  const list =
    <K extends RestV2JsonOperationId, Key extends ListKey<K>>(id: K, key: Key) =>
    async (query?: RestV2QueryParams<K>, o?: CallOptions): Promise<Item<K, Key>> =>
      (await request(id, { query } as RestV2Args<K>, o))![key as keyof RestV2Result<K>] as Item<K, Key>;
  const listOf =
    <K extends RestV2JsonOperationId, Key extends ListKey<K>>(id: K, key: Key) =>
    async (value: string, o?: CallOptions): Promise<Item<K, Key>> =>
      (await request(id, { path: { id: value } } as unknown as RestV2Args<K>, o))![key as keyof RestV2Result<K>] as Item<K, Key>;
  const whole =
    <K extends RestV2JsonOperationId>(id: K) =>
    (query?: RestV2QueryParams<K>, o?: CallOptions) =>
      request(id, { query } as RestV2Args<K>, o);
  const create =
    <K extends RestV2JsonOperationId>(id: K) =>
    (body: RestV2RequestBody<K>, o?: CallOptions) =>
      request(id, { body } as RestV2Args<K>, o);
  const byId =
    <K extends RestV2JsonOperationId>(id: K) =>
    (value: string, o?: CallOptions) =>
      request(id, { path: { id: value } } as unknown as RestV2Args<K>, o);
  const getById =
    <K extends RestV2JsonOperationId>(id: K) =>
    (value: string, query?: RestV2QueryParams<K>, o?: CallOptions) =>
      request(id, { path: { id: value }, query } as unknown as RestV2Args<K>, o);
  const updateById =
    <K extends RestV2JsonOperationId>(id: K) =>
    (value: string, body: RestV2RequestBody<K>, o?: CallOptions) =>
      request(id, { path: { id: value }, body } as unknown as RestV2Args<K>, o);
  /** list/create/get/update/delete of one collection, named `list<One>s`, `create<One>`… (one shape, written once). */
  const crud = <One extends Crud, Key extends ListKey<`list${One}s`>>(one: One, key: Key) => ({
    list: list(`list${one}s`, key),
    create: create(`create${one}`),
    get: byId(`get${one}`),
    update: updateById(`update${one}`),
    delete: byId(`delete${one}`),
  });

  return {
    request,
    stream,
    /** Last `RateLimit` / `RateLimit-Policy` seen on any answer; undefined before the first one. */
    get rateLimit(): RateLimitState | undefined {
      return core.rateLimit;
    },
    pods: {
      ...crud('Pod', 'pods'),
      /** start | stop | restart | terminate; resolves the pod, or undefined after terminate (204). */
      action: (id: string, action: RestV2Schemas['PodAction'], o?: CallOptions) => request('podAction', { path: { id }, body: { action } }, o),
      logs: (id: string, o?: LogStreamOptions) => logLines('getPodLogs', { path: { id } }, o),
    },
    serverless: {
      ...crud('Endpoint', 'endpoints'),
      /** `{workers, summary, endpointVersion}` (not unwrapped: the summary matters). */
      workers: byId('listEndpointWorkers'),
      /** `{endpointVersion, rollout, releases}`, releases newest first (not unwrapped: the rollout matters). */
      releases: byId('listEndpointReleases'),
      builds: {
        /** The endpoint's 100 most recent builds, newest first (older ones: `get` by id). */
        list: listOf('listEndpointBuilds', 'builds'),
        get: (id: string, buildId: string, o?: CallOptions) => request('getEndpointBuild', { path: { id, buildId } }, o),
        logs: (id: string, buildId: string, o?: LogStreamOptions) => logLines('getEndpointBuildLogs', { path: { id, buildId } }, o),
      },
      workerLogs: (id: string, workerId: string, o?: LogStreamOptions) => logLines('getWorkerLogs', { path: { id, workerId } }, o),
    },
    templates: {
      ...crud('Template', 'templates'),
    },
    networkVolumes: {
      ...crud('NetworkVolume', 'networkVolumes'),
    },
    registries: {
      list: list('listRegistries', 'registries'),
      /** The password (and user name) never appear in errors: redacted from messages and bodies. */
      create: create('createRegistry'),
      get: byId('getRegistry'),
      delete: byId('deleteRegistry'),
      delegations: {
        list: list('listDelegations', 'delegations'),
        create: create('createDelegation'),
        revoke: byId('revokeDelegation'),
      },
    },
    clusters: {
      ...crud('Cluster', 'clusters'),
      pods: listOf('listClusterPods', 'pods'),
    },
    catalog: {
      gpus: list('listGpuTypes', 'gpus'),
      gpu: getById('getGpuType'),
      cpus: list('listCpuTypes', 'cpus'),
      cpu: getById('getCpuType'),
      dataCenters: list('listDataCenters', 'dataCenters'),
      dataCenter: getById('getDataCenter'),
      publicTemplates: list('listPublicTemplates', 'templates'),
    },
    /** Whole answers `{records, metadata}` (metadata carries the totals). */
    billing: {
      all: whole('listBilling'),
      pods: whole('listPodBilling'),
      serverless: whole('listServerlessBilling'),
      endpoints: whole('listEndpointBilling'),
      networkVolumes: whole('listNetworkVolumeBilling'),
      clusters: whole('listClusterBilling'),
    },
    sandboxes: {
      /** Live sandboxes (TERMINATED ones with `{state: 'TERMINATED'}`); `labels` as `key=value` entries, all must match. */
      list: list('listSandboxes', 'sandboxes'),
      create: create('createSandbox'),
      get: byId('getSandbox'),
      /** Runs one command (argv, no shell); resolves `{output, error}` (error null on success). 409 until the container has started. */
      run: (id: string, command: string[], o?: CallOptions) => request('runSandboxCommand', { path: { id }, body: { command } }, o),
      logs: (id: string, o?: LogStreamOptions) => logLines('getSandboxLogs', { path: { id } }, o),
      /** Final, and safe to retry (an already terminated sandbox answers 204 too). */
      terminate: byId('terminateSandbox'),
    },
    account: {
      sshKeys: {
        get: (o?: CallOptions) => request('getSshKeys', {}, o),
        update: create('updateSshKeys'),
      },
      /** Metadata only: a value is write-only, never in an answer (nor in an error: redacted like passwords). */
      /** `update` rotates the value and/or changes the description; the name is immutable. */
      secrets: crud('Secret', 'secrets'),
    },
    /** openapi-fetch typed with the REST v2 paths (`/v2/...`): `{data, error, response}`, no throwing on status. */
    raw: core.rawClient(),
  };
}

export type RestV2Client = ReturnType<typeof createRestV2Client>;
