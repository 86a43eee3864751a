// The set-up seam one check uses (see types.ts): each kind of resource goes through the first surface
// of the check's order (choice.ts) that the target configures, the preflight found working and that
// can make it. What that surface's calls use is recorded as the surface when the check declares it,
// else as 'manage' (a management surface, whichever the target has).
import { covers, type Need, type Usage } from '../needs.js';
import { SurfaceNotConfigured } from '../surfaces.js';
import { SURFACE_INFO } from '../../contract/surfaces.js';
import { managementOrder, surfaceFor, KINDS_OF } from './choice.js';
import { GraphqlManagement } from './graphql.js';
import { RestV1Management } from './rest-v1.js';
import { RestV2Management } from './rest-v2.js';
import { KIND_LABEL, type Made, type Management, type ManagementCalls, type ManagementSurface, type Removal, type ResourceKind } from './types.js';

export * from './types.js';
export { managementOrder, surfaceFor, takesAnyManagement, isManagementSurface, KINDS_OF } from './choice.js';

export interface SeamOptions {
  calls: ManagementCalls;
  usage: Usage;
  /** What the check declares (needs.ts); decides the order. */
  needs: ReadonlySet<Need>;
  order: readonly ManagementSurface[];
  /** Configured surfaces. */
  configured: (surface: ManagementSurface) => boolean;
  /** Root causes of surfaces the preflight found unusable (read when a set-up starts). */
  missing: () => ReadonlyMap<Need, string>;
  /** Raised when the preflight found a capability missing (context.ts CapabilityMissing). */
  capabilityMissing: (cause: string) => Error;
}

export class SetUp {
  private readonly implementations = new Map<ManagementSurface, Management>();

  constructor(private readonly options: SeamOptions) {}

  /** The surface that makes `kind` for this check; a skip (not configured / preflight cause) when there is none. */
  surfaceFor(kind: ResourceKind): ManagementSurface {
    const { order, configured } = this.options;
    const missing = this.options.missing();
    const chosen = surfaceFor(kind, order, (s) => configured(s) && !missing.has(s));
    if (chosen) return chosen;
    if (order.length === 0) throw new Error(`suite defect: the check sets up a ${KIND_LABEL[kind]} but declares no management surface (defineCheck needs: ['manage'])`);
    const able = order.filter((s) => KINDS_OF[s].has(kind));
    const broken = able.find((s) => configured(s) && missing.has(s));
    if (broken) throw this.options.capabilityMissing(missing.get(broken)!);
    const flags = able.map((s) => SURFACE_INFO[s].flag);
    throw new SurfaceNotConfigured(able[0] ?? order[0]!, `needs ${flags.join(' or ')} to set up a ${KIND_LABEL[kind]} (${able.map((s) => SURFACE_INFO[s].label).join(', ')} ${able.length === 1 ? 'is' : 'are'} not configured)`);
  }

  /** The implementation for a kind, with its calls attributed to the check's declaration. */
  private through<T>(kind: ResourceKind, fn: (m: Management) => Promise<T>): Promise<T> {
    const surface = this.surfaceFor(kind);
    let m = this.implementations.get(surface);
    if (!m) {
      m = surface === 'restV2' ? new RestV2Management(this.options.calls) : surface === 'restV1' ? new RestV1Management(this.options.calls) : new GraphqlManagement(this.options.calls);
      this.implementations.set(surface, m);
    }
    const impl = m;
    return this.options.usage.as(covers(this.options.needs, surface) ? surface : 'manage', () => fn(impl));
  }

  create(kind: ResourceKind, input: Record<string, unknown>): Promise<Made> {
    return this.through(kind, (m) => m.create(kind, input));
  }

  update(kind: ResourceKind, id: string, patch: Record<string, unknown>): Promise<void> {
    return this.through(kind, (m) => m.update(kind, id, patch));
  }

  remove(kind: ResourceKind, id: string): Promise<Removal> {
    return this.through(kind, (m) => m.remove(kind, id));
  }

  find(kind: ResourceKind, id: string): Promise<any | undefined> {
    return this.through(kind, (m) => m.find(kind, id));
  }
}

