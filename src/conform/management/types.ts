// The one set-up seam of the conformance suite: every resource a check creates for what it judges
// (templates, queue endpoints, pods, network volumes, registry auths, secrets) is made, changed and
// removed through a Management, whatever surface does the work. Inputs use the seed's field names
// (REST v1's, e.g. imageName, workersMax); each implementation translates them for its surface.
import type { Answer } from '../http.js';

import type { ManagementSurface } from './surfaces.js';

export { MANAGEMENT_SURFACES, type ManagementSurface } from './surfaces.js';

export const RESOURCE_KINDS = ['template', 'endpoint', 'pod', 'volume', 'registryAuth', 'secret'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** What a create answered: the id and name on every surface, and the surface's own answer body. */
export interface Made {
  id: string;
  name: string;
  /** The created record as the surface answered it (its own field names). */
  body: any;
}

/** Outcome of a delete: done (deleted, or already gone), or refused with the answer's status. */
export interface Removal {
  done: boolean;
  /** HTTP status, or 'errors' for a GraphQL errors[] answer. */
  status: number | 'errors';
}

export interface Management {
  readonly surface: ManagementSurface;
  /** The kinds this surface can create. */
  readonly kinds: ReadonlySet<ResourceKind>;
  /** Creates one resource from seed field names; fails the check (CheckFailure) when the surface refuses. */
  create(kind: ResourceKind, input: Record<string, unknown>): Promise<Made>;
  /** Changes the given fields (seed names) of one resource; fails the check when refused. */
  update(kind: ResourceKind, id: string, patch: Record<string, unknown>): Promise<void>;
  /** Deletes one resource; a refusal (e.g. a template still in use) is an outcome, not a failure. */
  remove(kind: ResourceKind, id: string): Promise<Removal>;
  /** Reads one resource in the surface's own shape; undefined when the surface does not know the id. */
  find(kind: ResourceKind, id: string): Promise<any | undefined>;
}

/** The calls an implementation makes, with the suite's validation, secrets scan and REST v2 quota waits. */
export interface ManagementCalls {
  rest(operationId: string, options?: Record<string, unknown>): Promise<Answer>;
  v2(operationId: string, options?: Record<string, unknown>): Promise<Answer>;
  gql(query: string, variables?: Record<string, unknown>): Promise<Answer>;
}

/** The kind's name in failure messages. */
export const KIND_LABEL: Record<ResourceKind, string> = {
  template: 'template',
  endpoint: 'queue endpoint',
  pod: 'pod',
  volume: 'network volume',
  registryAuth: 'container registry auth',
  secret: 'secret',
};
