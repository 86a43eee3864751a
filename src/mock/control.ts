// Control API (/__control/*, only with `control: true`): clock, reset, seed data (per account), webhook log.
// It never shares auth with the public surfaces: it takes no API key at all and must stay on loopback.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accountNameProblem, DEFAULT_ACCOUNT } from './accounts.js';
import type { MockCore } from './core.js';
import { parseJsonBodyInTurns, readBody, sendError, sendJson } from './http.js';
import { nextTurn } from './turns.js';
import type { Result } from './state/store.js';
import { simulatePush } from './rest-v2/build-push.js';
import { advanceWithWorkers, handleWorkerControl, isWorkerControlPath } from './simulated-workers/control.js';
import { operations } from '../../generated/operations.js';
import { answerWorkerEnv } from './worker-protocol/attach.js';

type Body = Record<string, unknown>;
const SEED_KINDS = ['registryAuths', 'networkVolumes', 'templates', 'endpoints', 'pods', 'secrets'] as const;
/** Most resources one seed request creates (all kinds together); more → 400, send several requests. */
export const MAX_SEED_ITEMS = 1_000;
/** Resources created per event-loop turn: a large seed never holds the loop for long (turns.ts). */
const SEED_ITEMS_PER_TURN = 25;

export function createControlHandler(core: MockCore, reset: () => void) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const raw = await readBody(req, 16 * 1024 * 1024);
    if (!raw.ok) return sendError(res, 400, 'control request body too large');
    const parsed = await parseJsonBodyInTurns(req, raw.raw);
    if (!parsed.ok) return sendError(res, 400, 'Invalid control request', [parsed.error]);
    const body = (parsed.value ?? {}) as Body;
    const route = `${req.method} ${path.replace(/\/$/, '')}`;
    if (isWorkerControlPath(path)) return handleWorkerControl(core, req.method ?? 'GET', path, body, res);
    const workerEnv = /^GET \/__control\/endpoints\/([^/]+)\/worker-env$/.exec(route);
    if (workerEnv) return answerWorkerEnv(core, decodeURIComponent(workerEnv[1]!), res);
    const push = /^POST \/__control\/endpoints\/([^/]+)\/builds$/.exec(route);
    if (push) return simulatePush(core, decodeURIComponent(push[1]!), body, res);
    switch (route) {
      case 'GET /__control/clock':
        return sendJson(res, 200, clockView(core));
      case 'POST /__control/clock/advance': {
        const ms = body['ms'];
        if (core.clock.mode !== 'virtual') return sendError(res, 400, 'the clock is real; start the mock with --clock virtual');
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
          return sendError(res, 400, 'Invalid control request', [{ path: '/body/ms', message: 'must be a number >= 0' }]);
        }
        await advanceWithWorkers(core, ms);
        // Let webhook attempts fired by this advance finish, so callers see a settled world.
        await core.webhooks.settle();
        return sendJson(res, 200, clockView(core));
      }
      case 'POST /__control/reset':
        reset();
        return sendJson(res, 200, { reset: true });
      case 'POST /__control/seed':
        return seed(core, body, res);
      case 'GET /__control/webhooks':
        await core.webhooks.settle();
        return sendJson(res, 200, { deliveries: core.webhooks.log });
      case 'DELETE /__control/webhooks':
        core.webhooks.clearLog();
        return sendJson(res, 200, { deliveries: [] });
      case 'POST /__control/gpu-availability': {
        const unavailable = body['unavailable'];
        if (!Array.isArray(unavailable) || !unavailable.every((g) => typeof g === 'string')) {
          return sendError(res, 400, 'Invalid control request', [{ path: '/body/unavailable', message: 'must be an array of GPU type ids' }]);
        }
        core.unavailableGpuTypes.clear();
        for (const gpu of unavailable) core.unavailableGpuTypes.add(gpu);
        return sendJson(res, 200, { unavailable: [...core.unavailableGpuTypes] });
      }
      case 'POST /__control/rate-limits/consume':
        return consumeRateLimit(core, body, res);
      case 'GET /__control/state': {
        const account = accountOf(new URLSearchParams(req.url?.split('?')[1] ?? '').get('account') ?? undefined, '/query/account');
        if (!account.ok) return sendError(res, 400, 'Invalid control request', [account.error]);
        const store = core.accounts.store(account.value);
        return sendJson(res, 200, {
          clock: clockView(core),
          account: account.value,
          counts: {
            pods: store.pods.size, endpoints: store.endpoints.size, templates: store.templates.size,
            networkVolumes: store.networkVolumes.size, registryAuths: store.registryAuths.size,
            secrets: store.secrets.size, jobs: core.engine.jobCount,
          },
          faults: [...core.options.faults],
        });
      }
      default:
        return sendError(res, 404, `no control route ${route}`);
    }
  };
}

/** Bounds a consume request: far above any documented per-window limit. */
const MAX_CONSUME = 1_000_000;
/** Longest `holdMs` of a consume request (10 min of the clock: above the longest sync wait). */
const MAX_HOLD_MS = 600_000;

/**
 * Counts `count` requests toward the current rate window of a queue operation on an endpoint, as if
 * they had been answered: a test reaches a limit of thousands of requests per window with a few. With
 * `holdMs`, as if they were held open that long on the clock: a concurrency limit is reached the same way.
 */
function consumeRateLimit(core: MockCore, body: Body, res: ServerResponse): void {
  const { endpointId, operationId, count, holdMs } = body;
  const op = operations.find((o) => o.surface === 'queueV2' && o.operationId === operationId);
  const errors = [
    ...(typeof endpointId === 'string' && endpointId !== '' ? [] : [{ path: '/body/endpointId', message: 'must be a non-empty string' }]),
    ...(op?.rateLimit ? [] : [{ path: '/body/operationId', message: 'must be a rate-limited queue v2 operation' }]),
    ...(Number.isInteger(count) && (count as number) >= 0 && (count as number) <= MAX_CONSUME ? [] : [{ path: '/body/count', message: `must be an integer 0..${MAX_CONSUME}` }]),
    ...(holdMs === undefined || (Number.isInteger(holdMs) && (holdMs as number) >= 1 && (holdMs as number) <= MAX_HOLD_MS) ? [] : [{ path: '/body/holdMs', message: `must be an integer 1..${MAX_HOLD_MS} (ms of the clock)` }]),
  ];
  if (errors.length > 0) return sendError(res, 400, 'Invalid control request', errors);
  if (!core.accounts.ownerOf('endpoints', endpointId as string)) return sendError(res, 404, `endpoint ${String(endpointId)} not found`);
  const key = `${endpointId}:${operationId}`;
  // With holdMs the counted requests also stay in flight that long on the clock (they take concurrency slots).
  if (holdMs !== undefined) return sendJson(res, 200, { endpointId, operationId, ...core.rateLimiter.hold(key, count as number, holdMs as number) });
  const used = core.rateLimiter.consume(key, count as number);
  sendJson(res, 200, { endpointId, operationId, used });
}

function clockView(core: MockCore) {
  const now = core.clock.now();
  return { mode: core.clock.mode, now, iso: new Date(now).toISOString(), pendingTimers: core.clock.pendingTimers() };
}

/**
 * Creates resources in dependency order. Items may carry an `id` to get a stable id; references
 * (templateId, networkVolumeId, containerRegistryAuthId) may point at earlier items' ids.
 */
async function seed(base: MockCore, body: Body, res: ServerResponse): Promise<void> {
  const account = accountOf(body['account'], '/body/account');
  if (!account.ok) return sendError(res, 400, 'Invalid seed', [account.error]);
  const count = SEED_KINDS.reduce((n, kind) => n + (Array.isArray(body[kind]) ? (body[kind] as unknown[]).length : 0), 0);
  if (count > MAX_SEED_ITEMS) {
    return sendError(res, 400, `a seed creates at most ${MAX_SEED_ITEMS} resources; this one has ${count} (send several)`, [{ path: '/body', message: `at most ${MAX_SEED_ITEMS} items in all` }]);
  }
  const turns = {};
  let created = 0;
  // Everything is created in (and references resolve in) the named account, default the default account.
  const core = base.forAccount(account.value);
  const ids: Record<string, string[]> = {};
  for (const kind of SEED_KINDS) {
    const items = body[kind];
    if (items === undefined) continue;
    if (!Array.isArray(items)) return sendError(res, 400, 'Invalid seed', [{ path: `/body/${kind}`, message: 'must be an array' }]);
    ids[kind] = [];
    for (const [i, item] of (items as Body[]).entries()) {
      if (++created % SEED_ITEMS_PER_TURN === 0) await nextTurn(turns);
      const { id, ...fields } = item;
      const owner = typeof id === 'string' && id !== '' ? core.accounts.ownerOf(kind, id) : undefined;
      if (owner !== undefined && owner !== core.account) {
        return sendError(res, 400, `seed ${kind}[${i}]: id '${String(id)}' is used by account '${owner}'; ids are unique across accounts`, [{ path: `/body/${kind}/${i}/id`, message: 'already used by another account' }]);
      }
      const result = createOne(core, kind, fields);
      if (!result.ok) return sendError(res, 400, `seed ${kind}[${i}]: ${result.message}`, result.errors);
      const finalId = typeof id === 'string' && id !== '' ? rekey(core, kind, result.value, id) : result.value;
      if (kind === 'endpoints') core.engine.ensureEndpoint(finalId);
      ids[kind]!.push(finalId);
    }
  }
  core.touch();
  sendJson(res, 200, { account: core.account, created: ids });
}

/** `account` of a control request: absent = the default account; otherwise a valid account name. */
function accountOf(value: unknown, path: string): { ok: true; value: string } | { ok: false; error: { path: string; message: string } } {
  if (value === undefined || value === null) return { ok: true, value: DEFAULT_ACCOUNT };
  const problem = typeof value === 'string' ? accountNameProblem(value) : 'must be a string';
  return problem ? { ok: false, error: { path, message: problem } } : { ok: true, value: value as string };
}

function createOne(core: MockCore, kind: (typeof SEED_KINDS)[number], fields: Body): Result<string> {
  const idOf = <T extends { id: string }>(r: Result<T>): Result<string> => (r.ok ? { ok: true, value: r.value.id } : r);
  switch (kind) {
    case 'registryAuths': return idOf(core.store.createRegistryAuth(fields));
    case 'networkVolumes': return idOf(core.store.createNetworkVolume(fields));
    case 'templates': return idOf(core.store.saveTemplate(fields));
    case 'endpoints': return idOf(core.store.createEndpoint(fields));
    case 'pods': return idOf(core.store.createPod(fields));
    case 'secrets':
      return idOf(core.store.createSecret(String(fields['name']), String(fields['value']), (fields['description'] as string | undefined) ?? null));
  }
}

function rekey(core: MockCore, kind: (typeof SEED_KINDS)[number], oldId: string, newId: string): string {
  const map = core.store[kind] as Map<string, { id: string }>;
  const record = map.get(oldId)!;
  map.delete(oldId);
  record.id = newId;
  map.set(newId, record);
  return newId;
}
