// What a rule's check needs from the target, so that a rule the target cannot serve is skipped once,
// with its root cause, instead of failing or waiting out a timeout.
//
// Needs come from the rule's surface (rest-v1 → restV1, queue-v2 → queueV2 + 'manage' because queue
// checks create their endpoints, graphql → graphql, rest-v2 → restV2; `all` → none) plus the check's
// `needs` (defineCheck options):
//   - a surface name: the check also calls that surface (and sets up through it: management/choice.ts);
//   - 'manage': a management surface, whichever the target has (REST v2, else REST v1, else GraphQL),
//     sets up what the check judges (management/, the one set-up seam);
//   - 'endpoint': any queue endpoint will do — --endpoint-id, else one created through a management
//     surface (replaces the queue rules' default 'manage', as a declared management surface does);
//   - 'jobs': the check waits for jobs to make progress (a terminal status, a held /runsync, a stream),
//     which the queue v2 preflight proves within a bound.
// Against the embedded mock the runner records what each check really used (Usage) and fails a rule
// whose check used more than it declares, so the declarations stay exhaustive.
import { AsyncLocalStorage } from 'node:async_hooks';
import { urlOf } from './surfaces.js';
import { SURFACE_INFO, surfaceOfRule, type SurfaceName } from '../contract/surfaces.js';
import type { TargetConfig } from './target.js';
import { MANAGEMENT_SURFACES } from './management/surfaces.js';
import type { CatalogueRule } from './types.js';

/**
 * Target state a check shares with others, for concurrent runs (runner.ts, --concurrency): two checks
 * run at once only when what they share does not overlap.
 *  - 'clock': advances the target's clock, or depends on where it stands or on job progress (jobs,
 *    ttl, retention, rate windows, delete delays, logs, billing);
 *  - 'restV2-quota': the API key's REST v2 minute/hour/day windows (every REST v2 call counts).
 * Derived on top of the declaration (selection.ts): 'clock' for clock rules and checks using queue v2,
 * jobs or REST v2 (whose 429s are waited out on the clock); 'restV2-quota' for checks using REST v2.
 * A check that declares no `shares` runs alone, nothing else at the same time: so does every check
 * reading account-wide lists or totals, measuring the target's memory, switching target-wide
 * behaviour (control API: webhook log, GPU availability) or reaching into the embedded mock — and
 * every new check until someone declares otherwise. Against the embedded mock the runner verifies
 * that a check declaring `shares` advances the clock, uses REST v2 and the control API only as declared.
 */
export type Shared = 'clock' | 'restV2-quota';

/** What a check touched beyond its own resources: shared state, or the control API's target-wide state. */
export type Touch = Shared | 'control';

/**
 * accounts: the second key belongs to another account (requires secondApiKey; proved by the preflight).
 * manage: some management surface sets up the check's resources (management/).
 * rest: a REST management surface — REST v1 when the target gives it (and it works), else REST v2 —
 * for checks that read back what they judge where GraphQL cannot (ctx.restSurface()).
 */
export type Need = SurfaceName | 'endpoint' | 'jobs' | 'accounts' | 'manage' | 'rest';

/** What the target's flags offer to set things up with, as a skip reason names them. */
export const MANAGEMENT_FLAGS = '--rest-v2-url, --rest-url or --graphql-url';

/** The skip reason of a target with no management surface and no --endpoint-id (queue v2 alone). */
export const NO_ENDPOINT_NOR_MANAGEMENT = `needs a queue endpoint: give ${MANAGEMENT_FLAGS} (a management surface: every rule sets up its own), or --endpoint-id (an existing endpoint: the rules content with one run)`;

const declaresManagement = (needs: ReadonlySet<Need>): boolean => MANAGEMENT_SURFACES.some((s) => needs.has(s));

/** The rule's own surface first, so that a skip names it before what the check uses besides. */
export function needsOf(rule: CatalogueRule, declared: readonly Need[] = []): Set<Need> {
  const surface = surfaceOfRule(rule.surface);
  const needs = new Set<Need>(surface ? [surface, ...declared] : declared);
  // A queue check naming the management surface it creates its endpoint through (QUEUE-LB-*: REST v2) sets up there.
  if (surface === 'queueV2' && !needs.has('endpoint') && !declaresManagement(needs)) needs.add('manage');
  return needs;
}

/**
 * Does `declared` cover a use? ('endpoint' is covered by any way to set up: a fresh endpoint is one;
 * REST v1 and REST v2 by 'rest', which stands for whichever of them the target has.)
 */
export function covers(declared: ReadonlySet<Need>, used: Need): boolean {
  if (declared.has(used)) return true;
  if (used === 'endpoint') return declared.has('manage') || declared.has('rest') || declaresManagement(declared);
  return (used === 'restV1' || used === 'restV2') && declared.has('rest');
}

/** The REST surfaces a target configures, in the order 'rest' takes them. */
export const REST_SURFACES = ['restV1', 'restV2'] as const;
export const hasRest = (target: TargetConfig): boolean => REST_SURFACES.some((s) => urlOf(target, s) !== undefined);

/** Is some management surface configured? */
export const hasManagement = (target: TargetConfig): boolean => MANAGEMENT_SURFACES.some((s) => urlOf(target, s) !== undefined);

/** The surfaces the target's configuration lacks, as a skip reason naming their flags; undefined when none. */
export function unconfiguredNeed(needs: ReadonlySet<Need>, target: TargetConfig): string | undefined {
  const absent = [...needs].filter((n): n is SurfaceName => n !== 'jobs' && n !== 'endpoint' && n !== 'accounts' && n !== 'manage' && n !== 'rest' && urlOf(target, n) === undefined);
  if (absent.length > 0) {
    const labels = absent.map((s) => SURFACE_INFO[s].label);
    const surfaces = `needs ${absent.map((s) => SURFACE_INFO[s].flag).join(' and ')} (${labels.join(', ')} ${labels.length === 1 ? 'is' : 'are'} not configured)`;
    // Name every way the target falls short, not only the first: a REST surface is missing too.
    return needs.has('rest') && !hasRest(target) ? `${surfaces} and a REST management surface (--rest-v2-url or --rest-url)` : surfaces;
  }
  // Neither a queue endpoint nor a way to create one: one root cause for every rule, naming both ways out.
  if ((needs.has('endpoint') || needs.has('manage')) && !target.endpointId && !hasManagement(target)) return NO_ENDPOINT_NOR_MANAGEMENT;
  if (needs.has('manage') && !hasManagement(target)) return `needs a management surface to set up what it checks (${MANAGEMENT_FLAGS})`;
  if (needs.has('rest') && !hasRest(target)) return 'needs --rest-v2-url or --rest-url (a REST management surface)';
  return undefined;
}

export const needLabel = (need: Need): string =>
  need === 'jobs' ? 'job progress (jobs reaching a terminal status)' : need === 'endpoint' ? 'a queue endpoint' : need === 'accounts' ? 'a second account' : need === 'manage' ? 'a management surface' : need === 'rest' ? 'a REST management surface' : SURFACE_INFO[need].label;

/**
 * What each running check uses. Calls made while a fixture is set up on the check's behalf are
 * attributed to that fixture (the calls creating the endpoint of `anyEndpoint()` count as 'endpoint';
 * the set-up seam's as the surface it used when the check declares it, else as 'manage').
 * AsyncLocalStorage ties every call to the check that made it, even one still running after its
 * check timed out.
 */
export class Usage {
  private readonly frames = new AsyncLocalStorage<Frame>();

  /**
   * Runs `fn` (a check), collecting what it uses and touches into the returned sets and counting its
   * HTTP calls (pass a check's `calls` and `touched` to count its cleanups with it; what those use is
   * the fixtures' business). Concurrent checks each have their own frame.
   */
  track<T>(fn: () => Promise<T>, shared: { calls: { count: number }; touched: Set<Touch> } = { calls: { count: 0 }, touched: new Set() }): { done: Promise<T>; used: Set<Need>; touched: Set<Touch>; calls: { count: number } } {
    const used = new Set<Need>();
    const { calls, touched } = shared;
    return { done: this.frames.run({ used, touched, calls }, fn), used, touched, calls };
  }

  record(need: Need): void {
    const frame = this.frames.getStore();
    frame?.used.add(frame.scope ?? need);
  }

  /** The running check touched target-wide state (verified against its `shares`). */
  touch(shared: Touch): void {
    this.frames.getStore()?.touched.add(shared);
  }

  /** One HTTP call of the running check. */
  countCall(): void {
    const frame = this.frames.getStore();
    if (frame) frame.calls.count++;
  }

  /** Runs `fn` outside every check's bookkeeping (a fixture shared by the whole run). */
  outside<T>(fn: () => Promise<T>): Promise<T> {
    return this.frames.exit(fn);
  }

  /** Runs `fn` as part of a fixture: what it uses counts as `need`. */
  as<T>(need: Need, fn: () => Promise<T>): Promise<T> {
    const frame = this.frames.getStore();
    if (!frame) return fn();
    frame.used.add(frame.scope ?? need);
    return this.frames.run({ ...frame, scope: frame.scope ?? need }, fn);
  }
}

interface Frame {
  used: Set<Need>;
  touched: Set<Touch>;
  calls: { count: number };
  scope?: Need;
}
