// The surfaces a target configures: a target configures any subset of the contract's surfaces
// (src/contract/surfaces.ts); the rules of an absent surface are skipped, naming the flag that would add it.
import { surfaceOfV2Segment } from '../contract/url-layout.js';
import { SURFACE_INFO, SURFACE_NAMES, type SurfaceName } from '../contract/surfaces.js';
import type { TargetConfig } from './target.js';

export function urlOf(target: TargetConfig, surface: SurfaceName): string | undefined {
  return target[SURFACE_INFO[surface].field];
}

export function configuredSurfaces(target: TargetConfig): SurfaceName[] {
  return SURFACE_NAMES.filter((s) => urlOf(target, s) !== undefined);
}

/** The target without `surfaces` (a retired one the preflight found): the rules run as on a target that never had them. */
export function withoutSurfaces(target: TargetConfig, surfaces: readonly SurfaceName[]): TargetConfig {
  const rest: TargetConfig = { ...target };
  for (const s of surfaces) delete rest[SURFACE_INFO[s].field];
  return rest;
}

/** A check reached for a surface the target does not configure (the runner reports a skip). */
export class SurfaceNotConfigured extends Error {
  override name = 'SurfaceNotConfigured';
  constructor(readonly surface: SurfaceName, message?: string) {
    super(message ?? `needs ${SURFACE_INFO[surface].flag} (${SURFACE_INFO[surface].label} is not configured)`);
  }
}

export function requireUrl(target: TargetConfig, surface: SurfaceName): string {
  const url = urlOf(target, surface);
  if (url === undefined) throw new SurfaceNotConfigured(surface);
  return url;
}

/**
 * Which configured surface a URL belongs to (longest base first). REST v2 and queue v2 may share one base
 * (`http://HOST:PORT/v2` on the mock): then the segment after it decides (src/contract/url-layout.ts).
 */
export function surfaceOfUrl(target: TargetConfig, url: string): SurfaceName | undefined {
  const bases = SURFACE_NAMES.map((s) => [s, urlOf(target, s)] as const)
    .filter((pair): pair is readonly [SurfaceName, string] => pair[1] !== undefined)
    .sort((a, b) => b[1].length - a[1].length);
  const within = (base: string) => url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`);
  const found = bases.find(([, base]) => within(base));
  if (found === undefined || (found[0] !== 'restV2' && found[0] !== 'queueV2')) return found?.[0];
  const other = found[0] === 'restV2' ? 'queueV2' : 'restV2';
  if (urlOf(target, other) !== found[1]) return found[0];
  const segment = url.slice(found[1].length + 1).split(/[/?]/)[0] ?? '';
  return surfaceOfV2Segment(segment);
}
