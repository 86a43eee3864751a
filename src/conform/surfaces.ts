// The API surfaces a target may offer, each behind its own base URL and flag. A target configures
// any subset; the rules of an absent surface are skipped, naming the flag that would add it.
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

/** Which configured surface a URL belongs to (longest base first: /rest/v2 and /v2 share a host). */
export function surfaceOfUrl(target: TargetConfig, url: string): SurfaceName | undefined {
  const bases = SURFACE_NAMES.map((s) => [s, urlOf(target, s)] as const)
    .filter((pair): pair is readonly [SurfaceName, string] => pair[1] !== undefined)
    .sort((a, b) => b[1].length - a[1].length);
  return bases.find(([, base]) => url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`))?.[0];
}
