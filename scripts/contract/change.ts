// One judged change of the contract, whatever the surface it is on.
export type Level = 'breaking' | 'dangerous' | 'safe';
/** Who an upgrade breaks: callers (clients, SDK users) or implementers (servers judged by the suite). */
export type Party = 'caller' | 'implementer';
export type WireSurface = 'rest-v1' | 'rest-v2' | 'queue-v2';
export type Surface = WireSurface | 'graphql' | 'rules' | 'typescript';
export const SURFACES: readonly Surface[] = ['rest-v1', 'rest-v2', 'queue-v2', 'graphql', 'rules', 'typescript'];
export const SURFACE_TITLES: Record<Surface, string> = {
  'rest-v1': 'REST v1 (OpenAPI)',
  'rest-v2': 'REST v2 (OpenAPI)',
  'queue-v2': 'Queue v2 (OpenAPI)',
  graphql: 'GraphQL (SDL)',
  rules: 'Conformance rules (specs/rules.yaml)',
  typescript: 'TypeScript API (etc/api)',
};

export interface ContractChange {
  surface: Surface;
  level: Level;
  party: Party;
  action: 'added' | 'removed' | 'changed';
  /** What the change is about: an operation ("getPod"), a GraphQL path, a rule id, an export path. */
  subject: string;
  /** One line, with the path of what changed. */
  what: string;
  /** Any one of these named on a **Breaking** line of CHANGELOG's unreleased section acknowledges the change. */
  names: string[];
  /** Operation-level change (operation added or removed), for the release notes. */
  operation?: 'added' | 'removed';
}

const ORDER: Record<Level, number> = { breaking: 0, dangerous: 1, safe: 2 };
export function byLevel(a: ContractChange, b: ContractChange): number {
  return ORDER[a.level] - ORDER[b.level] || SURFACES.indexOf(a.surface) - SURFACES.indexOf(b.surface) || a.subject.localeCompare(b.subject) || a.what.localeCompare(b.what);
}
