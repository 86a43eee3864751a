// Which rules a run checks, and why the others are skipped: the filters (--grep, --level), the
// surfaces the target configures, what only the embedded mock can show, the clock, the tier and
// the extra keys. Decided before any request; the preflight's missing capabilities come on top.
import { formatMs } from './context.js';
import { levelOf, type RuleLevel } from '../contract/levels.js';
import { needsOf, REST_SURFACES, unconfiguredNeed, type Need } from './needs.js';
import type { PreflightPlan } from './preflight.js';
import type { CheckDefinition } from './registry.js';
import type { Shared } from './needs.js';
import { configuredSurfaces, urlOf } from './surfaces.js';
import { surfaceOfRule, type SurfaceName } from '../contract/surfaces.js';
import { managementOrder, MANAGEMENT_SURFACES, RESOURCE_KINDS, surfaceFor } from './management/index.js';
import type { RunSettings, TargetConfig } from './target.js';
import type { CatalogueRule, SkipKind, Tier } from './types.js';

const TIER_RANK: Record<Tier, number> = { safe: 0, full: 1, slow: 2 };

export interface Skip {
  kind: SkipKind;
  reason: string;
}

export interface PlannedRule {
  rule: CatalogueRule;
  check: CheckDefinition | undefined;
  level: RuleLevel;
  needs: Set<Need>;
  /** Selected, and of a configured surface or of `all`: the coverage denominator (a skipped one is not covered). */
  inScope: boolean;
  skip?: Skip;
  /** Target state it shares with other checks (concurrent runs); 'all': it runs alone. */
  shares: ReadonlySet<Shared> | 'all';
}

export function planRules(catalogue: readonly CatalogueRule[], checks: ReadonlyMap<string, CheckDefinition>, target: TargetConfig, settings: RunSettings): PlannedRule[] {
  const grep = settings.grep ? new RegExp(settings.grep) : undefined;
  return catalogue.map((rule) => {
    const check = checks.get(rule.id);
    const level = levelOf(rule.source);
    const needs = needsOf(rule, [...(check?.needs ?? []), ...(check?.everyConfiguredSurface ? configuredSurfaces(target) : []), ...(check?.requires?.includes('secondApiKey') ? ['accounts' as const] : [])]);
    const absent = unconfiguredNeed(needs, target);
    let skip: Skip | undefined;
    if (grep && !grep.test(rule.id)) skip = { kind: 'filtered', reason: `not selected by --grep ${settings.grep}` };
    else if (settings.levels && !settings.levels.includes(level)) skip = { kind: 'filtered', reason: `level ${level} not selected by --level ${settings.levels.join(',')}` };
    else if (absent) skip = { kind: 'not-configured', reason: absent };
    else skip = whySkip(rule, check, target, settings);
    // Coverage counts every rule of a configured surface, and every rule of `all`, whether it runs or not.
    const own = surfaceOfRule(rule.surface);
    const inScope = skip?.kind !== 'filtered' && (own === undefined || urlOf(target, own) !== undefined);
    return { rule, check, level, needs, inScope, skip, shares: sharesOf(rule, check, needs, target) };
  });
}

/** The check's declaration plus what its rule and needs imply; undeclared: 'all' (it runs alone). */
export function sharesOf(rule: CatalogueRule, check: CheckDefinition | undefined, needs: ReadonlySet<Need>, target?: TargetConfig): ReadonlySet<Shared> | 'all' {
  if (!check?.shares) return 'all';
  const shares = new Set<Shared>(check.shares);
  // A set-up (or a 'rest' read) through REST v2 counts in its quota, and a 429 there is waited out on the clock.
  const order = managementOrder(surfaceOfRule(rule.surface), needs);
  const configured = (s: SurfaceName) => target === undefined || urlOf(target, s) !== undefined;
  const setUpViaRestV2 = RESOURCE_KINDS.some((kind) => surfaceFor(kind, order, configured) === 'restV2') || (needs.has('rest') && !configured('restV1'));
  if (rule.check === 'clock' || setUpViaRestV2 || ['jobs', 'endpoint', 'queueV2', 'restV2'].some((n) => needs.has(n as Need))) shares.add('clock');
  if (needs.has('restV2') || setUpViaRestV2) shares.add('restV2-quota');
  return shares;
}

/** What the preflight must probe for the rules that will run. */
export function preflightPlanOf(planned: readonly PlannedRule[], target: TargetConfig): PreflightPlan {
  const surfaces = new Set<SurfaceName>();
  let jobs = false;
  let accounts = false;
  for (const { needs, skip } of planned) {
    if (skip) continue;
    for (const need of needs) {
      if (need === 'accounts') accounts = true;
      else if (need === 'jobs') jobs = true;
      else if (need === 'endpoint' && target.endpointId) surfaces.add('queueV2');
      else if (need === 'endpoint' || need === 'manage') for (const s of MANAGEMENT_SURFACES) surfaces.add(s);
      else if (need === 'rest') for (const s of REST_SURFACES) surfaces.add(s);
      else surfaces.add(need);
    }
  }
  if (jobs) surfaces.add('queueV2');
  return { surfaces: new Set([...surfaces].filter((s) => urlOf(target, s) !== undefined)), jobs, accounts };
}

/** The root cause that keeps a rule from running, when the preflight found a need of it missing. */
export function preflightSkip(needs: ReadonlySet<Need>, missing: ReadonlyMap<Need, string>): Skip | undefined {
  for (const need of needs) {
    const cause = missing.get(need);
    if (cause) return { kind: 'preflight', reason: `not run: ${cause}` };
  }
  return undefined;
}

function whySkip(rule: CatalogueRule, check: CheckDefinition | undefined, target: TargetConfig, settings: RunSettings): Skip | undefined {
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
    if (need === 'secondApiKey' && !target.secondApiKey) return { kind: 'not-configured', reason: 'needs --second-api-key (a key of another account)' };
    if (need === 'lbUrl' && !target.lbUrl) return { kind: 'not-configured', reason: 'needs --lb-url (the address of load-balancing endpoints, with {id}; derived from --queue-url only when its host is a name)' };
    if (need === 'lbWorkerImage' && !target.lbWorkerImage) return { kind: 'not-configured', reason: 'needs --lb-worker-image (an image whose HTTP server answers the echo contract, docs/conformance.md)' };
  }
  return undefined;
}

/** Slow tier without clock control: the real waiting the selected clock rules will do, summed. */
export function plannedRealWaitMs(planned: readonly PlannedRule[], target: TargetConfig, settings: RunSettings): number {
  if (settings.tier !== 'slow' || target.controlUrl !== undefined) return 0;
  return planned.reduce((total, p) => (p.rule.check === 'clock' && p.check && !p.skip ? total + (p.check.realWaitMs ?? 0) : total), 0);
}
