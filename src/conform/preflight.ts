// Before any rule: is each configured surface reachable, does it accept the key, and (when a selected
// rule waits on jobs) does a submitted job reach a terminal status within a bound? A missing capability
// becomes one root cause for every rule that needs it, instead of each failing or timing out alone.
// Only definitive causes short-circuit (no answer at all, 401/403 to the suite's key, jobs that never
// finish); any other answer lets the rules run and judge it.
import { operations } from '../../generated/operations.js';
import { Ctx, formatMs, sleep, TERMINAL, type RunState } from './context.js';
import { CheckFailure } from './http.js';
import { proveTwoAccounts } from './accounts-probe.js';
import { hasManagement, MANAGEMENT_FLAGS, REST_SURFACES, type Need } from './needs.js';
import { MANAGEMENT_SURFACES } from './management/index.js';
import { urlOf } from './surfaces.js';
import { SURFACE_INFO, type SurfaceName } from '../contract/surfaces.js';
import type { RunSettings, TargetConfig } from './target.js';
import type { CatalogueRule, PreflightProbe } from './types.js';

export interface PreflightPlan {
  /** Configured surfaces some runnable rule needs. */
  surfaces: ReadonlySet<SurfaceName>;
  /** Some runnable rule waits on job progress. */
  jobs: boolean;
  /** Some runnable rule needs the second key to be of another account (ISOLATION-*). */
  accounts?: boolean;
}

export interface PreflightOutcome {
  probes: PreflightProbe[];
  /** Missing capability → the root cause every rule needing it is skipped with. */
  missing: Map<Need, string>;
}

const PREFLIGHT_RULE: CatalogueRule = { id: 'PREFLIGHT', title: 'preflight', seed: '', surface: 'all', check: 'black-box', tier: 'safe', source: 'seed' };

type Reply = { status: number } | { error: string };

async function send(url: string, init: RequestInit, timeoutMs: number): Promise<Reply> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return { status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)) };
  }
}

/** A read every implementation of the surface answers; the key goes where the surface expects it. */
function readProbe(target: TargetConfig, surface: SurfaceName, endpointId: string): { what: string; url: string; init: RequestInit } {
  const bearer = { authorization: `Bearer ${target.apiKey}` };
  const base = urlOf(target, surface)!;
  if (surface === 'graphql') {
    const url = new URL(base);
    url.searchParams.set('api_key', target.apiKey);
    return { what: 'a GraphQL query', url: url.toString(), init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query { podTemplate(id: "cc-preflight") { id } }' }) } };
  }
  if (surface === 'queueV2') return { what: 'GET /{endpointId}/health', url: `${base}/${encodeURIComponent(endpointId)}/health`, init: { headers: bearer } };
  const reads = operations.filter((o) => o.surface === surface && o.method === 'GET' && !o.path.includes('{') && o.requiredScope === 'read');
  const list = reads.find((o) => o.operationId.startsWith('list')) ?? reads[0];
  if (!list) throw new Error(`no read operation to probe ${SURFACE_INFO[surface].label} with`);
  const path = surface === 'restV2' ? list.path.replace(/^\/v2/, '') : list.path;
  return { what: `GET ${path}`, url: `${base}${path}`, init: { headers: bearer } };
}

export async function runPreflight(plan: PreflightPlan, target: TargetConfig, settings: RunSettings, state: RunState): Promise<PreflightOutcome> {
  const probes: PreflightProbe[] = [];
  const missing = new Map<Need, string>();
  // The run's set-up seam (fixtures.ts) reads what is missing as the probes find it.
  state.missing = missing;
  const note = (surface: SurfaceName, probe: PreflightProbe['probe'], ok: boolean, detail: string, started: number) => {
    probes.push({ surface, probe, ok, detail, durationMs: Date.now() - started });
    if (!ok) missing.set(probe === 'jobs' || probe === 'accounts' || probe === 'endpoint' ? probe : surface, `${SURFACE_INFO[surface].label} preflight: ${detail}`);
  };

  for (const surface of plan.surfaces) {
    const started = Date.now();
    const { what, url, init } = readProbe(target, surface, target.endpointId ?? 'cc-preflight');
    const reply = await send(url, init, state.http.requestTimeoutMs);
    if ('error' in reply) {
      note(surface, 'reachable', false, `${SURFACE_INFO[surface].flag} ${urlOf(target, surface)} is unreachable (${reply.error})`, started);
      continue;
    }
    note(surface, 'reachable', true, `${what} answered ${reply.status}`, started);
    // A retired surface (REST v1 since 2026-11-15) is one root cause, not a failure per rule.
    if (reply.status === 410) {
      note(surface, 'retired', false, `${SURFACE_INFO[surface].label} is retired here (410 Gone): drop ${SURFACE_INFO[surface].flag}`, started);
      continue;
    }
    // A placeholder endpoint id may be refused for its own sake: the queue key is judged on a real endpoint below.
    if (surface === 'queueV2' && !target.endpointId) continue;
    if (reply.status === 401 || reply.status === 403) note(surface, 'key', false, `the API key is refused (${what} answered ${reply.status})`, started);
    else note(surface, 'key', true, `${what} answered ${reply.status}`, started);
    if (surface === 'queueV2' && target.endpointId && reply.status === 404) {
      note(surface, 'endpoint', false, `--endpoint-id ${target.endpointId} is not a queue endpoint of the key's account (${what} answered 404)`, started);
    }
  }
  noteManagement(target, missing);

  if (plan.accounts) {
    const started = Date.now();
    const verdict = await proveTwoAccounts(target, state.http.requestTimeoutMs);
    if (verdict) note(verdict.surface, 'accounts', verdict.ok, verdict.detail, started);
  }

  if (plan.jobs && plan.surfaces.has('queueV2') && !missing.has('queueV2')) {
    const started = Date.now();
    const ctx = new Ctx(PREFLIGHT_RULE, target, settings, state, new Set<Need>(['manage']));
    try {
      const { endpointId, why } = await preflightEndpoint(ctx, target, missing);
      if (endpointId && endpointId !== target.endpointId) {
        const { what, url, init } = readProbe(target, 'queueV2', endpointId);
        const reply = await send(url, init, state.http.requestTimeoutMs);
        const refused = 'status' in reply && (reply.status === 401 || reply.status === 403);
        note('queueV2', 'key', !refused, refused ? `the API key is refused (${what} answered ${'status' in reply ? reply.status : ''})` : `${what} answered ${'status' in reply ? reply.status : reply.error}`, started);
      }
      if (!missing.has('queueV2')) {
        // A bad --endpoint-id with nothing to create another is already the root cause: not noted twice.
        if (!endpointId && missing.has('endpoint') && target.endpointId) missing.set('jobs', missing.get('endpoint')!);
        else {
          const verdict = endpointId ? await jobFinishes(ctx, endpointId, settings.preflightJobMs) : { ok: false, detail: why ?? 'no queue endpoint' };
          note('queueV2', 'jobs', verdict.ok, verdict.detail, started);
        }
      }
    } finally {
      await ctx.runCleanups();
    }
  }
  return { probes, missing };
}

/**
 * No management surface left (none configured, or every configured one unusable): nothing can be set
 * up, and without --endpoint-id no queue endpoint exists to submit to. One root cause each.
 */
function noteManagement(target: TargetConfig, missing: Map<Need, string>): void {
  const rest = REST_SURFACES.filter((s) => urlOf(target, s) !== undefined);
  if (rest.length > 0 && rest.every((s) => missing.has(s))) missing.set('rest', missing.get(rest.at(-1)!)!);
  const configured = MANAGEMENT_SURFACES.filter((s) => urlOf(target, s) !== undefined);
  if (configured.length === 0 || configured.some((s) => !missing.has(s))) return;
  const causes = configured.map((s) => missing.get(s)!);
  missing.set('manage', causes.length === 1 ? causes[0]! : `no management surface is usable (${causes.join('; ')})`);
  if (!target.endpointId) missing.set('endpoint', missing.get('manage')!);
}

/** The given endpoint (when it is one), else one created through the set-up seam; otherwise why there is none. */
async function preflightEndpoint(ctx: Ctx, target: TargetConfig, missing: ReadonlyMap<Need, string>): Promise<{ endpointId?: string; why?: string }> {
  if (target.endpointId && !missing.has('endpoint')) return { endpointId: target.endpointId };
  if (!hasManagement(target)) return { why: `no queue endpoint to submit a job to: give --endpoint-id, or a management surface to create one (${MANAGEMENT_FLAGS})` };
  if (missing.has('manage')) return { why: `no queue endpoint to submit a job to (${missing.get('manage')})` };
  try {
    return { endpointId: await ctx.endpoint() };
  } catch (error) {
    if (!(error instanceof CheckFailure)) throw error;
    return { why: `could not create an endpoint to submit a job to: ${error.message}` };
  }
}

/** Submits one job and polls its status until it is terminal, the bound passes, or the answers show jobs are not tracked. */
async function jobFinishes(ctx: Ctx, endpointId: string, boundMs: number): Promise<{ ok: boolean; detail: string }> {
  const started = Date.now();
  const bound = `within ${formatMs(boundMs)}`;
  let id: string;
  try {
    id = await ctx.run(endpointId, { durationMs: 0 });
  } catch (error) {
    if (!(error instanceof CheckFailure)) throw error;
    return { ok: false, detail: `jobs cannot be submitted: ${error.message}` };
  }
  let last = 'no status yet';
  for (let i = 0; i < 1_000 && Date.now() - started < boundMs; i++) {
    if (ctx.controlled) await ctx.pass(250);
    const answer = await ctx.http.raw('GET', ctx.http.url('queueV2', 'getJobStatus', { path: { jobId: id }, endpointId }), undefined, { authorization: `Bearer ${ctx.target.apiKey}` }).catch((e: Error) => ({ status: 0, body: { error: e.message } }));
    const body = answer.body as { id?: unknown; status?: unknown } | undefined;
    if (answer.status === 200 && typeof body?.id === 'string' && body.id !== id) {
      return { ok: false, detail: `jobs are not tracked: the status of job ${id} answered the record of job ${body.id}` };
    }
    last = answer.status === 200 ? String(body?.status) : `HTTP ${answer.status}`;
    if (answer.status === 200 && (TERMINAL as readonly string[]).includes(String(body?.status))) {
      return { ok: true, detail: `job ${id} reached ${last} in ${formatMs(Date.now() - started)}` };
    }
    await sleep(Math.min(250, 10 * 2 ** i));
  }
  await ctx.queue(endpointId, 'cancelJob', { path: { jobId: id } }).catch(() => undefined);
  return { ok: false, detail: `jobs never reach a terminal status ${bound} (job ${id} last seen ${last}; the worker image must run the conformance handler; a slow cold start needs a larger --preflight-job-ms)` };
}
