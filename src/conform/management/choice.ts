// Which surface sets up a check's resources. A check that declares management surfaces of its own
// sets up through them: another surface it names first (it names it to set up or compare through it;
// REST v1, then GraphQL, then REST v2), then its rule's own; nothing it does not declare. A check
// that declares 'manage' (or 'endpoint', any queue endpoint) takes what the target has besides, in
// the order of issue 35: REST v2, else REST v1, else GraphQL.
import type { Need } from '../needs.js';
import type { SurfaceName } from '../../contract/surfaces.js';
import { MANAGEMENT_SURFACES, type ManagementSurface, type ResourceKind } from './types.js';

const DECLARED_FIRST: readonly ManagementSurface[] = ['restV1', 'graphql', 'restV2'];

export const isManagementSurface = (surface: string | undefined): surface is ManagementSurface =>
  (MANAGEMENT_SURFACES as readonly string[]).includes(surface ?? '');

/** Does the check take whatever management surface the target has? */
export const takesAnyManagement = (needs: ReadonlySet<Need>): boolean => needs.has('manage') || needs.has('endpoint');

/** The surfaces a check's set-up may go through, most preferred first. */
export function managementOrder(ruleSurface: SurfaceName | undefined, needs: ReadonlySet<Need>): ManagementSurface[] {
  const own = isManagementSurface(ruleSurface) ? ruleSurface : undefined;
  const order = DECLARED_FIRST.filter((s) => s !== own && needs.has(s));
  if (own) order.push(own);
  // 'rest': REST v1 when given, else REST v2 (what the check reads back through: context.ts restSurface()).
  if (needs.has('rest')) for (const s of ['restV1', 'restV2'] as const) if (!order.includes(s)) order.push(s);
  if (takesAnyManagement(needs)) for (const s of MANAGEMENT_SURFACES) if (!order.includes(s)) order.push(s);
  return order;
}

/** What each surface can make (GraphQL has no network volume operation; REST v1 has no secrets). */
export const KINDS_OF: Readonly<Record<ManagementSurface, ReadonlySet<ResourceKind>>> = {
  restV2: new Set(['template', 'endpoint', 'pod', 'volume', 'registryAuth', 'secret']),
  restV1: new Set(['template', 'endpoint', 'pod', 'volume', 'registryAuth']),
  graphql: new Set(['template', 'endpoint', 'pod', 'registryAuth', 'secret']),
};

/** The first surface of `order` that is usable and can make `kind`. */
export function surfaceFor(kind: ResourceKind, order: readonly ManagementSurface[], usable: (s: ManagementSurface) => boolean): ManagementSurface | undefined {
  return order.find((s) => KINDS_OF[s].has(kind) && usable(s));
}
