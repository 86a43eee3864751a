// Keeps node's `process.nextTick` on V8's fast path in a long-lived server (the mock, the proxy).
// Each queued tick is an object literal whose first two keys are symbols; V8 reaches the literal's maps
// through transitions it holds weakly. When no tick object is alive at a full collection — an idle server
// between loads — those maps are dropped and made anew, and once the literal's inline cache has seen
// enough of them it stays megamorphic: every tick of every request then adds its properties in V8's
// runtime. Holding one tick object for the life of the process keeps its maps, so the cache stays
// monomorphic. Measured (`npm run bench:mock`, docs/package.md): the mock's `/status` took 109k user-mode
// instructions per request in that state and 69k with one tick object held (bare node:http: 58k).
import { executionAsyncResource } from 'node:async_hooks';

let held: object | undefined;
let asked = false;

/** Holds the next tick object for the life of the process (once per process; later calls do nothing). */
export function keepTickObjectShape(): void {
  if (asked) return;
  asked = true;
  process.nextTick(holdRunningTick);
}

/** Inside a tick callback node reports the tick object itself as the running resource. */
function holdRunningTick(): void {
  held = executionAsyncResource();
}

/** The held tick object (undefined until the first tick after `keepTickObjectShape` has run). */
export function heldTickObject(): object | undefined {
  return held;
}
