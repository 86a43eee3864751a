// Runs one check per catalogue rule, in catalogue order, one at a time (checks share the target's
// clock, so a time jump in one must never overlap another). Every rule ends pass, fail or skip
// with a reason; nothing passes silently.
import { randomBytes } from 'node:crypto';
import '../../contract-tests/index.js';
import { loadCatalogue } from './catalogue.js';
import { Ctx, formatMs, NeedsClock, type RunState } from './context.js';
import { CheckFailure, Http, SecretBook } from './http.js';
import { registeredChecks, type CheckDefinition } from './registry.js';
import type { RunSettings, TargetConfig } from './target.js';
import type { CatalogueRule, RuleResult, RunSummary, SkipKind, Tier } from './types.js';

const TIER_RANK: Record<Tier, number> = { safe: 0, full: 1, slow: 2 };
const DEFAULT_CHECK_TIMEOUT_MS = 30_000;

export interface RunOptions {
  target: TargetConfig;
  settings: RunSettings;
  onResult?: (result: RuleResult, index: number, total: number) => void;
}

/** The secrets a run sent (for scanning reports and logs); values never leave this module's callers. */
export interface RunOutput {
  summary: RunSummary;
  secrets: SecretBook;
}

export async function runSuite({ target, settings, onResult }: RunOptions): Promise<RunOutput> {
  const started = Date.now();
  const secrets = new SecretBook();
  secrets.add(target.apiKey, 'API key');
  if (target.readOnlyKey) secrets.add(target.readOnlyKey, 'read-only API key');
  if (target.noPermissionKey) secrets.add(target.noPermissionKey, 'no-permission API key');
  const http = new Http(target, secrets);
  const state: RunState = { http, runId: randomBytes(3).toString('hex'), counter: 0, deferred: [] };
  const catalogue = loadCatalogue();
  const checks = registeredChecks();
  const grep = settings.grep ? new RegExp(settings.grep) : undefined;
  const results: RuleResult[] = [];

  for (const [index, rule] of catalogue.entries()) {
    const check = checks.get(rule.id);
    const base = { id: rule.id, title: rule.title, surface: rule.surface, check: rule.check, tier: rule.tier, seed: rule.seed };
    const bailed = settings.bail && results.some((r) => r.outcome === 'fail');
    const skip = bailed ? { kind: 'filtered' as const, reason: 'not run: --bail after the first failure' } : grep && !grep.test(rule.id) ? { kind: 'filtered' as const, reason: `not selected by --grep ${settings.grep}` } : whySkip(rule, check, target, settings);
    let result: RuleResult;
    if (skip) {
      result = { ...base, outcome: 'skip', skipKind: skip.kind, reason: skip.reason, durationMs: 0, calls: 0 };
    } else {
      result = await runOne(rule, check!, target, settings, state, base);
    }
    results.push(result);
    onResult?.(result, index, catalogue.length);
  }

  await finalCleanup(catalogue[0]!, target, settings, state);
  const count = (o: string) => results.filter((r) => r.outcome === o).length;
  const summary: RunSummary = {
    target: target.name,
    tier: settings.tier,
    seed: settings.seed,
    clockControl: target.controlUrl !== undefined,
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    results,
    totals: { rules: results.length, pass: count('pass'), fail: count('fail'), skip: count('skip'), checked: count('pass') + count('fail') },
  };
  return { summary, secrets };
}

/** Slow tier without clock control: the real waiting the selected clock rules will do, summed. */
export function plannedRealWaitMs(target: TargetConfig, settings: RunSettings): number {
  if (settings.tier !== 'slow' || target.controlUrl !== undefined) return 0;
  const checks = registeredChecks();
  const grep = settings.grep ? new RegExp(settings.grep) : undefined;
  let total = 0;
  for (const rule of loadCatalogue()) {
    const check = checks.get(rule.id);
    if (rule.check !== 'clock' || !check || (grep && !grep.test(rule.id)) || whySkip(rule, check, target, settings)) continue;
    total += check.realWaitMs ?? 0;
  }
  return total;
}

function whySkip(rule: CatalogueRule, check: CheckDefinition | undefined, target: TargetConfig, settings: RunSettings): { kind: SkipKind; reason: string } | undefined {
  if (rule.check === 'mock-only') {
    const why = rule['why-not-black-box'] ?? 'not observable from outside the service';
    if (!check) return { kind: 'mock-only', reason: `cannot be checked black-box: ${why}` };
    if (check.requires?.includes('embedded') && !target.embedded) return { kind: 'mock-only', reason: `cannot be checked black-box (checked in-process against the embedded mock): ${why}` };
  }
  if (!check) return { kind: 'no-check', reason: 'no check is implemented for this rule yet' };
  const controlled = target.controlUrl !== undefined;
  if (rule.check === 'clock' && !controlled) {
    const wait = check.realWaitMs ?? Infinity;
    if (settings.tier !== 'slow') return { kind: 'needs-clock', reason: `skipped (needs clock): no --control-url; the slow tier would wait ${formatMs(wait)} for real` };
    if (wait > settings.maxRealWaitMs) return { kind: 'needs-clock', reason: `skipped (needs clock): real waiting would take ${Number.isFinite(wait) ? formatMs(wait) : 'days'}, above --max-real-wait-ms` };
  }
  // Clock rules are tier "slow" only because of real waiting; with clock control they run in "full".
  const effectiveTier: Tier = rule.tier === 'slow' && controlled ? 'full' : rule.tier;
  if (TIER_RANK[effectiveTier] > TIER_RANK[settings.tier]) return { kind: 'tier', reason: `tier ${effectiveTier}; this run is tier ${settings.tier}` };
  for (const need of check.requires ?? []) {
    if (need === 'readOnlyKey' && !target.readOnlyKey) return { kind: 'not-configured', reason: 'needs --read-only-key' };
    if (need === 'noPermissionKey' && !target.noPermissionKey) return { kind: 'not-configured', reason: 'needs --no-permission-key' };
  }
  return undefined;
}

async function runOne(
  rule: CatalogueRule, check: CheckDefinition, target: TargetConfig, settings: RunSettings, state: RunState,
  base: Omit<RuleResult, 'outcome' | 'durationMs' | 'calls'>,
): Promise<RuleResult> {
  const ctx = new Ctx(rule, target, settings, state);
  const callsBefore = state.http.calls;
  const started = Date.now();
  const timeoutMs = check.timeoutMs ?? (target.controlUrl ? DEFAULT_CHECK_TIMEOUT_MS : Math.max(DEFAULT_CHECK_TIMEOUT_MS, (check.realWaitMs ?? 0) + settings.jobTimeoutMs * 2));
  let timer: NodeJS.Timeout | undefined;
  let result: Pick<RuleResult, 'outcome' | 'reason' | 'skipKind'>;
  try {
    const note = await Promise.race([
      check.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckFailure(`check did not finish within ${formatMs(timeoutMs)}`)), timeoutMs);
      }),
    ]);
    result = note ? { outcome: 'pass', reason: note } : { outcome: 'pass' };
  } catch (error) {
    if (error instanceof NeedsClock) result = { outcome: 'skip', skipKind: 'needs-clock', reason: `skipped (needs clock): ${error.message}` };
    else if (error instanceof CheckFailure) result = { outcome: 'fail', reason: error.message };
    else result = { outcome: 'fail', reason: `check crashed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
  }
  await ctx.runCleanups();
  return { ...base, ...result, durationMs: Date.now() - started, calls: state.http.calls - callsBefore };
}

async function finalCleanup(rule: CatalogueRule, target: TargetConfig, settings: RunSettings, state: RunState): Promise<void> {
  const ctx = new Ctx(rule, target, settings, state);
  const deadline = Date.now() + (target.controlUrl ? 5_000 : 130_000);
  let pending = state.deferred;
  // Without clock control a template stays undeletable up to 2 min after its last use: retry until then.
  while (pending.length > 0 && Date.now() < deadline) {
    const left: typeof pending = [];
    for (const fn of pending) if (!(await fn().catch(() => false))) left.push(fn);
    pending = left;
    if (pending.length > 0) await new Promise((r) => setTimeout(r, 5_000));
  }
  void ctx;
}
