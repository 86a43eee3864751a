// The API surfaces a target may offer, each behind its own base URL and flag. A target configures
// any subset; the rules of an absent surface are skipped, naming the flag that would add it.
import { surfaceOfV2Segment } from '../url-layout.js';
import type { TargetConfig } from './target.js';

export type SurfaceName = 'restV1' | 'queueV2' | 'graphql' | 'restV2';
export const SURFACE_NAMES: readonly SurfaceName[] = ['restV1', 'queueV2', 'graphql', 'restV2'];

interface SurfaceInfo {
  /** As people write it ("queue v2"). */
  label: string;
  /** The `surface` value of specs/rules.yaml. */
  ruleSurface: string;
  flag: string;
  env: string;
  field: 'restUrl' | 'queueUrl' | 'graphqlUrl' | 'restV2Url';
}

export const SURFACE_INFO: Readonly<Record<SurfaceName, SurfaceInfo>> = {
  restV1: { label: 'REST v1', ruleSurface: 'rest-v1', flag: '--rest-url', env: 'CONFORM_REST_URL', field: 'restUrl' },
  queueV2: { label: 'queue v2', ruleSurface: 'queue-v2', flag: '--queue-url', env: 'CONFORM_QUEUE_URL', field: 'queueUrl' },
  graphql: { label: 'GraphQL', ruleSurface: 'graphql', flag: '--graphql-url', env: 'CONFORM_GRAPHQL_URL', field: 'graphqlUrl' },
  restV2: { label: 'REST v2', ruleSurface: 'rest-v2', flag: '--rest-v2-url', env: 'CONFORM_REST_V2_URL', field: 'restV2Url' },
};

/** The surface a rule belongs to; undefined for `all` (its check declares what it uses). */
export function surfaceOfRule(ruleSurface: string): SurfaceName | undefined {
  if (ruleSurface === 'all') return undefined;
  const found = SURFACE_NAMES.find((s) => SURFACE_INFO[s].ruleSurface === ruleSurface);
  if (!found) throw new Error(`rule surface '${ruleSurface}' is unknown (expected ${SURFACE_NAMES.map((s) => SURFACE_INFO[s].ruleSurface).join(', ')} or all)`);
  return found;
}

export function urlOf(target: TargetConfig, surface: SurfaceName): string | undefined {
  return target[SURFACE_INFO[surface].field];
}

export function configuredSurfaces(target: TargetConfig): SurfaceName[] {
  return SURFACE_NAMES.filter((s) => urlOf(target, s) !== undefined);
}

/** A check reached for a surface the target does not configure (the runner reports a skip). */
export class SurfaceNotConfigured extends Error {
  override name = 'SurfaceNotConfigured';
  constructor(readonly surface: SurfaceName) {
    super(`needs ${SURFACE_INFO[surface].flag} (${SURFACE_INFO[surface].label} is not configured)`);
  }
}

export function requireUrl(target: TargetConfig, surface: SurfaceName): string {
  const url = urlOf(target, surface);
  if (url === undefined) throw new SurfaceNotConfigured(surface);
  return url;
}

/**
 * Which configured surface a URL belongs to (longest base first). REST v2 and queue v2 may share one base
 * (`http://HOST:PORT/v2` on the mock): then the segment after it decides (src/url-layout.ts).
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
