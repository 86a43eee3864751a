// The API surfaces of the contract, each behind its own base URL: their names as code and people
// write them, the rules.yaml surface value, and the conformance flag and variable that configure each.
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

