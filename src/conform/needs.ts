// What a rule's check needs from the target, so that a rule the target cannot serve is skipped once,
// with its root cause, instead of failing or waiting out a timeout.
//
// Needs come from the rule's surface (rest-v1 → restV1, queue-v2 → queueV2 + restV1 because queue
// checks create their endpoints through REST v1 — unless they declare restV2 and create them there, graphql → graphql, rest-v2 → restV2; `all` → none)
// plus the check's `needs` (defineCheck options):
//   - a surface name: the check also calls that surface;
//   - 'endpoint': any queue endpoint will do — --endpoint-id, else one created through REST v1
//     (replaces the queue rules' default restV1);
//   - 'jobs': the check waits for jobs to make progress (a terminal status, a held /runsync, a stream),
//     which the queue v2 preflight proves within a bound.
// Against the embedded mock the runner records what each check really used (Usage) and fails a rule
// whose check used more than it declares, so the declarations stay exhaustive.
import { AsyncLocalStorage } from 'node:async_hooks';
import { urlOf } from './surfaces.js';
import { SURFACE_INFO, surfaceOfRule, type SurfaceName } from '../contract/surfaces.js';
import type { TargetConfig } from './target.js';
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

/** accounts: the second key belongs to another account (requires secondApiKey; proved by the preflight). */
export type Need = SurfaceName | 'endpoint' | 'jobs' | 'accounts';

/** The rule's own surface first, so that a skip names it before what the check uses besides. */
export function needsOf(rule: CatalogueRule, declared: readonly Need[] = []): Set<Need> {
  const surface = surfaceOfRule(rule.surface);
  const needs = new Set<Need>(surface ? [surface, ...declared] : declared);
  // A queue check creating its endpoint through REST v2 (a load-balancing one: QUEUE-LB-*) needs no REST v1.
  if (surface === 'queueV2' && !needs.has('endpoint') && !needs.has('restV2')) needs.add('restV1');
  return needs;
}

/** Does `declared` cover a use? ('endpoint' is covered by restV1: a fresh endpoint is one.) */
export function covers(declared: ReadonlySet<Need>, used: Need): boolean {
  return declared.has(used) || (used === 'endpoint' && declared.has('restV1'));
}

/** The surfaces the target's configuration lacks, as a skip reason naming their flags; undefined when none. */
export function unconfiguredNeed(needs: ReadonlySet<Need>, target: TargetConfig): string | undefined {
  const absent = [...needs].filter((n): n is SurfaceName => n !== 'jobs' && n !== 'endpoint' && n !== 'accounts' && urlOf(target, n) === undefined);
  if (absent.length > 0) {
    const labels = absent.map((s) => SURFACE_INFO[s].label);
    return `needs ${absent.map((s) => SURFACE_INFO[s].flag).join(' and ')} (${labels.join(', ')} ${labels.length === 1 ? 'is' : 'are'} not configured)`;
  }
  if (needs.has('endpoint') && !target.endpointId && urlOf(target, 'restV1') === undefined) return 'needs --endpoint-id or --rest-url (a queue endpoint to submit to)';
  return undefined;
}

export const needLabel = (need: Need): string =>
  need === 'jobs' ? 'job progress (jobs reaching a terminal status)' : need === 'endpoint' ? 'a queue endpoint' : need === 'accounts' ? 'a second account' : SURFACE_INFO[need].label;

/**
 * What each running check uses. Calls made while a fixture is set up on the check's behalf are
 * attributed to that fixture (the REST v1 calls creating the endpoint of `anyEndpoint()` count as
 * 'endpoint'). AsyncLocalStorage ties every call to the check that made it, even one still running
 * after its check timed out.
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
