// Runs one check per catalogue rule and reports them in catalogue order. Up to --concurrency checks
// run at once, but only checks that share no target state (scheduler.ts; the clock above all: a time
// jump in one must never overlap another that depends on time); the report is the same as with
// --concurrency 1. Every rule ends pass, fail or skip with a reason; nothing passes silently. Before
// the rules, a preflight probes the configured surfaces, so a missing capability is reported once as
// the root cause of the rules it blocks.
import { randomBytes } from 'node:crypto';
import { loadCatalogue } from '../contract/catalogue.js';
import { CapabilityMissing, Ctx, formatMs, NeedsClock, type RunState } from './context.js';
import { CheckFailure, Http, SecretBook } from './http.js';
import { covers, needLabel, Usage, type Need, type Shared, type Touch } from './needs.js';
import { runPreflight } from './preflight.js';
import type { CheckSuite } from './registry.js';
import { runScheduled, type ScheduledJob } from './scheduler.js';
import { planRules, plannedRealWaitMs as realWaitOf, preflightPlanOf, preflightSkip, type PlannedRule } from './selection.js';
import { configuredSurfaces, SurfaceNotConfigured, withoutSurfaces } from './surfaces.js';
import { SURFACE_NAMES } from '../contract/surfaces.js';
import { DEFAULT_CONCURRENCY, type RunSettings, type TargetConfig } from './target.js';
import type { CatalogueRule, PreflightProbe, RuleResult, RunSummary } from './types.js';
import { totalsOf, verdictOf } from './verdict.js';
import { RULE_LEVELS } from '../contract/levels.js';

const DEFAULT_CHECK_TIMEOUT_MS = 30_000;
/** Pauses between the final clean-up's rounds on a target without clock control. */
const CLEANUP_PAUSE_FIRST_MS = 250;
const CLEANUP_PAUSE_MAX_MS = 5_000;

export interface RunOptions {
  /** The checks, by rule id; a rule without one is reported skipped (no-check). */
  checks: CheckSuite;
  target: TargetConfig;
  settings: RunSettings;
  onResult?: (result: RuleResult, index: number, total: number) => void;
  /** Called once the preflight is done, before the first rule. */
  onPreflight?: (probes: readonly PreflightProbe[]) => void;
}

/** The secrets a run sent (for scanning reports and logs); values never leave this module's callers. */
export interface RunOutput {
  summary: RunSummary;
  secrets: SecretBook;
}

export async function runSuite({ checks, target, settings, onResult, onPreflight }: RunOptions): Promise<RunOutput> {
  const started = Date.now();
  const secrets = new SecretBook();
  secrets.add(target.apiKey, 'API key');
  if (target.readOnlyKey) secrets.add(target.readOnlyKey, 'read-only API key');
  if (target.noPermissionKey) secrets.add(target.noPermissionKey, 'no-permission API key');
  if (target.secondApiKey) secrets.add(target.secondApiKey, 'second-account API key');
  if (target.controlToken) secrets.add(target.controlToken, 'control token');
  const usage = new Usage();
  const http = new Http(target, secrets, usage);
  if (settings.requestTimeoutMs !== undefined) http.requestTimeoutMs = settings.requestTimeoutMs;
  const state: RunState = { http, runId: randomBytes(3).toString('hex'), counter: 0, deferred: [], usage, missing: new Map() };
  const catalogue = loadCatalogue();
  const plannedFirst = planRules(catalogue, checks, target, settings);
  const preflight = await runPreflight(preflightPlanOf(plannedFirst, target), target, settings, state);
  state.missing = preflight.missing;
  const { live, planned } = withoutRetired(plannedFirst, preflight.probes, { catalogue, checks, target, settings });
  onPreflight?.(preflight.probes);
  // Against the embedded mock every check must declare what it uses (the suite's own tests run there).
  const verifyNeeds = target.embedded !== undefined;
  const concurrency = Math.max(1, settings.concurrency ?? DEFAULT_CONCURRENCY);
  const failed = { any: false };
  const jobs = planned.map((item): ScheduledJob<RuleResult> => ({
    // Rules that will not run share nothing.
    shares: item.skip ? new Set() : item.shares,
    run: async () => {
      const { rule } = item;
      const base = { id: rule.id, title: rule.title, surface: rule.surface, check: rule.check, tier: rule.tier, level: item.level, seed: rule.seed };
      const bailed = settings.bail && failed.any;
      const skip = bailed ? { kind: 'filtered' as const, reason: 'not run: --bail after the first failure' } : item.skip ?? preflightSkip(item.needs, preflight.missing);
      const result: RuleResult = skip
        ? { ...base, outcome: 'skip', skipKind: skip.kind, reason: skip.reason, durationMs: 0, calls: 0 }
        : await runOne(item, live, settings, state, base, verifyNeeds);
      if (result.outcome === 'fail') failed.any = true;
      return result;
    },
  }));
  const results = await runScheduled(jobs, concurrency, (result, index) => onResult?.(result, index, catalogue.length));

  await finalCleanup(catalogue[0]!, live, settings, state);
  const configured = configuredSurfaces(target);
  const strict = settings.strict ?? false;
  const totals = totalsOf(results, planned.filter((p) => p.inScope).length, strict);
  const summary: RunSummary = {
    target: target.name,
    tier: settings.tier,
    seed: settings.seed,
    clockControl: target.controlUrl !== undefined,
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    surfaces: { configured, absent: SURFACE_NAMES.filter((s) => !configured.includes(s)) },
    levels: [...(settings.levels ?? RULE_LEVELS)],
    strict,
    preflight: preflight.probes,
    results,
    totals,
    verdict: verdictOf(totals, preflight.probes),
  };
  return { summary, secrets };
}

/**
 * A surface the preflight found retired (410 Gone: REST v1 since 2026-11-15) is one root cause: the rules
 * that need it are skipped with it, and every other rule runs as on a target without it — set up and read
 * back through the surfaces that are there, its checks over every configured surface leaving it out —
 * instead of being skipped because they would also have touched it. Coverage still counts the retired
 * surface's rules (it was configured; they are not covered).
 */
function withoutRetired(
  planned: PlannedRule[], probes: readonly PreflightProbe[],
  { catalogue, checks, target, settings }: { catalogue: readonly CatalogueRule[]; checks: CheckSuite; target: TargetConfig; settings: RunSettings },
): { live: TargetConfig; planned: PlannedRule[] } {
  const retired = probes.filter((p) => p.probe === 'retired' && !p.ok).map((p) => p.surface);
  if (retired.length === 0) return { live: target, planned };
  const live = withoutSurfaces(target, retired);
  const replanned = planRules(catalogue, checks, live, settings);
  return {
    live,
    planned: planned.map((first, i) => {
      const again = replanned[i]!;
      // Skipped anyway, or truly needing the retired surface (or nothing else to go through): its root cause stands.
      if (first.skip || again.skip || retired.some((s) => again.needs.has(s))) return first;
      return { ...again, inScope: first.inScope };
    }),
  };
}

/** Slow tier without clock control: the real waiting the selected clock rules will do, summed. */
export function plannedRealWaitMs(checks: CheckSuite, target: TargetConfig, settings: RunSettings): number {
  return realWaitOf(planRules(loadCatalogue(), checks, target, settings), target, settings);
}

/**
 * A check's time budget. Without clock control: the real waiting it does plus two job waits. With clock control
 * the time it asks for passes at once; but when the target's workers are processes on real time
 * (controlledJobTimeoutMs set), a job of `durationMs` takes that long for real, so the budget holds one such
 * job wait more (QUEUE-SYNC-002's 8 s job behind `compute-contract worker` processes).
 */
function checkTimeoutMs(check: { realWaitMs?: number }, target: TargetConfig, settings: RunSettings): number {
  if (!target.controlUrl) return Math.max(DEFAULT_CHECK_TIMEOUT_MS, (check.realWaitMs ?? 0) + settings.jobTimeoutMs * 2);
  return DEFAULT_CHECK_TIMEOUT_MS + (settings.controlledJobTimeoutMs ?? 0);
}

async function runOne(
  item: PlannedRule, target: TargetConfig, settings: RunSettings, state: RunState,
  base: Omit<RuleResult, 'outcome' | 'durationMs' | 'calls'>, verifyNeeds: boolean,
): Promise<RuleResult> {
  const { rule, check } = item;
  const ctx = new Ctx(rule, target, settings, state, item.needs);
  const started = Date.now();
  const timeoutMs = check!.timeoutMs ?? checkTimeoutMs(check!, target, settings);
  let timer: NodeJS.Timeout | undefined;
  let result: Pick<RuleResult, 'outcome' | 'reason' | 'skipKind'>;
  const { done, used, touched, calls } = state.usage.track(() => check!.run(ctx));
  try {
    const note = await Promise.race([
      done,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckFailure(`check did not finish within ${formatMs(timeoutMs)}`)), timeoutMs);
      }),
    ]);
    result = note ? { outcome: 'pass', reason: note } : { outcome: 'pass' };
  } catch (error) {
    if (error instanceof NeedsClock) result = { outcome: 'skip', skipKind: 'needs-clock', reason: `skipped (needs clock): ${error.message}` };
    else if (error instanceof SurfaceNotConfigured) result = { outcome: 'skip', skipKind: 'not-configured', reason: error.message };
    else if (error instanceof CapabilityMissing) result = { outcome: 'skip', skipKind: 'preflight', reason: `not run: ${error.message}` };
    else if (error instanceof CheckFailure) result = { outcome: 'fail', reason: error.message };
    else result = { outcome: 'fail', reason: `check crashed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
  }
  // The cleanups' calls and touches (a template delete delay let pass) count toward the check.
  await state.usage.track(() => ctx.runCleanups(), { calls, touched }).done;
  if (verifyNeeds) result = withUndeclaredShares(withUndeclaredUse(result, item.needs, used), item.shares, touched);
  return { ...base, ...result, durationMs: Date.now() - started, calls: calls.count };
}

/** A check that touches shared target state it does not declare could race another in a concurrent run. */
function withUndeclaredShares(result: Pick<RuleResult, 'outcome' | 'reason' | 'skipKind'>, declared: ReadonlySet<Shared> | 'all', touched: ReadonlySet<Touch>): Pick<RuleResult, 'outcome' | 'reason' | 'skipKind'> {
  if (declared === 'all') return result;
  const undeclared = [...touched].filter((t) => t === 'control' || !declared.has(t));
  if (undeclared.length === 0) return result;
  const defect = undeclared.includes('control')
    ? 'suite defect: the check changes or reads target-wide state through the control API but declares shares (it must run alone: no shares)'
    : `suite defect: the check touches ${undeclared.join(', ')} but does not declare it (defineCheck shares: ${JSON.stringify(undeclared)})`;
  return { outcome: 'fail', reason: result.outcome === 'fail' ? `${defect}; and: ${result.reason}` : defect };
}

/** A check that used more than it declares would misbehave on a partial target: a defect of the suite. */
function withUndeclaredUse(result: Pick<RuleResult, 'outcome' | 'reason' | 'skipKind'>, declared: ReadonlySet<Need>, used: ReadonlySet<Need>): Pick<RuleResult, 'outcome' | 'reason' | 'skipKind'> {
  const undeclared = [...used].filter((need) => !covers(declared, need));
  if (undeclared.length === 0) return result;
  const defect = `suite defect: the check uses ${undeclared.map(needLabel).join(', ')} but does not declare it (defineCheck needs: ${JSON.stringify(undeclared)})`;
  return { outcome: 'fail', reason: result.outcome === 'fail' ? `${defect}; and: ${result.reason}` : defect };
}

async function finalCleanup(rule: CatalogueRule, target: TargetConfig, settings: RunSettings, state: RunState): Promise<void> {
  const ctx = new Ctx(rule, target, settings, state);
  const deadline = Date.now() + (target.controlUrl ? 5_000 : 130_000);
  let pending = state.deferred;
  // Without clock control a template stays undeletable up to 2 min after its last use: retry until then,
  // the pause doubling from 250 ms to 5 s (a target with a short delay is not waited on for 5 s; one with the
  // documented 2 min gets a handful of extra attempts). With clock control each attempt lets the delay pass
  // on the clock, so waiting for real would change nothing: a second round is the last.
  for (let round = 0; pending.length > 0 && Date.now() < deadline && !(target.controlUrl && round === 2); round++) {
    const left: typeof pending = [];
    for (const fn of pending) if (!(await fn().catch(() => false))) left.push(fn);
    pending = left;
    if (pending.length > 0 && !target.controlUrl) await new Promise((r) => setTimeout(r, Math.min(CLEANUP_PAUSE_MAX_MS, CLEANUP_PAUSE_FIRST_MS * 2 ** round)));
  }
  void ctx;
}
