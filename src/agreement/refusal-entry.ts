// The shape of an allow-list entry and the conditions both lists (allow-list.ts, allow-list-rest-v2.ts) use;
// apart from the lists, so each list imports this and not the other.

/**
 * When an entry applies (computed from the request the run sent, so a refusal is only excused where
 * its rule can have fired):
 *  - unknown-reference: the request named an id the setup did not create (a random id);
 *  - null-variable: a nullable GraphQL variable was null or left out;
 *  - job-state: the job named exists but the run may have moved it to another state (shared jobs);
 *  - name-taken: the request sets a name an earlier accepted request of the run already set (the
 *    generator gives `x-unique` / SDL "unique" fields fresh values, so this is rare by design);
 *  - the other conditions test the body (see REQUEST_CONDITIONS).
 */
export type CommonCondition = 'unknown-reference' | 'null-variable' | 'job-state' | 'name-taken' | keyof typeof REQUEST_CONDITIONS;

type Body = Record<string, unknown> | undefined;

/** Conditions read from the request body alone. */
export const REQUEST_CONDITIONS = {
  /** createPod without imageName and without templateId (REST-POD-010). */
  'no-image-or-template': (b: Body) => !b?.['imageName'] && (b?.['templateId'] === undefined || b['templateId'] === null),
  /** workersMin/workersMax given, and not both with min ≤ max: the stored other bound decides (REST-ENDPOINT-009). */
  'workers-bound-given': (b: Body) => {
    const min = b?.['workersMin'];
    const max = b?.['workersMax'];
    if (min === undefined && max === undefined) return false;
    return min === undefined || max === undefined || (min as number) > (max as number);
  },
  /** A volume size given: the stored size decides whether it shrinks (REST-VOLUME-007). */
  'size-given': (b: Body) => typeof b?.['size'] === 'number',
} as const;

export interface RefusalEntry<Condition extends string> {
  rule: string;
  surface: 'restV1' | 'queueV2' | 'restV2' | 'graphql';
  operations: readonly string[];
  /** HTTP status; for GraphQL the status of an answer carrying errors[] (200, GQL-ERROR-001). */
  status: number;
  when: Condition;
  /** REST: the refusal's errors[] must name a path starting with this (e.g. /body/name). */
  errorPath?: string | readonly string[];
  /** errorPath names whole paths, not prefixes (a query rule names `/query/product`, never `/query/product/0`). */
  exact?: boolean;
  /**
   * Required when `when` is read from the request alone (PROSE_ONLY_CONDITIONS): such a refusal is a rule the
   * schema could state but does not (a request the schema accepts, refused for no reference and no stored
   * state), which every schema-driven client and generator gets wrong. Say why it is not in the schema; an
   * entry without the reason is refused by checkAllowList (issue 38: createSandbox's templateId | imageName).
   */
  notInSchema?: string;
}

/**
 * Conditions computed from the request alone: no unknown id, no stored state, no catalogue decides them.
 * A refusal under one of them is a rule stated in prose only unless its entry says why (notInSchema).
 */
export const PROSE_ONLY_CONDITIONS: ReadonlySet<string> = new Set([
  'no-image-or-template', 'null-variable', 'v2-compute-choice', 'v2-mounts-given', 'v2-no-image', 'v2-catalog-filters', 'v2-billing-window',
]);
