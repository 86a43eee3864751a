// The documented refusals of spec-valid requests: data, keyed by rule id of specs/rules.yaml. A
// spec-valid request may only be refused (4xx, or GraphQL errors[]) when an entry names the rule,
// the operation and the status. Checked against the catalogue: an unknown rule id, or an operation
// the rule does not list, is an error.
import type { CatalogueRule } from '../conform/types.js';
import { REST_V2_ALLOWED_REFUSALS, type RestV2Condition } from './allow-list-rest-v2.js';

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
export type RefusalCondition = 'unknown-reference' | 'null-variable' | 'job-state' | 'name-taken' | keyof typeof REQUEST_CONDITIONS | RestV2Condition;

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

export interface AllowedRefusal {
  rule: string;
  surface: 'restV1' | 'queueV2' | 'restV2' | 'graphql';
  operations: readonly string[];
  /** HTTP status; for GraphQL the status of an answer carrying errors[] (200, GQL-ERROR-001). */
  status: number;
  when: RefusalCondition;
  /** REST: the refusal's errors[] must name a path starting with this (e.g. /body/name). */
  errorPath?: string | readonly string[];
  /** errorPath names whole paths, not prefixes (a query rule names `/query/product`, never `/query/product/0`). */
  exact?: boolean;
}

export const ALLOWED_REFUSALS: readonly AllowedRefusal[] = [
  // Unknown ids in the path.
  {
    rule: 'REST-CRUD-002', surface: 'restV1', status: 404, when: 'unknown-reference',
    operations: [
      'getPod', 'updatePod', 'updatePodViaPost', 'deletePod', 'startPod', 'stopPod', 'resetPod', 'restartPod',
      'getEndpoint', 'updateEndpoint', 'updateEndpointViaPost', 'deleteEndpoint',
      'getTemplate', 'updateTemplate', 'updateTemplateViaPost', 'deleteTemplate',
      'getNetworkVolume', 'updateNetworkVolume', 'updateNetworkVolumeViaPost', 'deleteNetworkVolume',
    ],
  },
  { rule: 'REST-REGAUTH-005', surface: 'restV1', status: 404, when: 'unknown-reference', operations: ['getContainerRegistryAuth'] },
  { rule: 'REST-REGAUTH-006', surface: 'restV1', status: 400, when: 'unknown-reference', operations: ['deleteContainerRegistryAuth'], errorPath: '/path/containerRegistryAuthId' },
  { rule: 'QUEUE-JOB-010', surface: 'queueV2', status: 404, when: 'unknown-reference', operations: ['getJobStatus', 'getJobStatusSync', 'streamJob', 'cancelJob', 'retryJob'] },
  // Unknown ids in a body.
  {
    rule: 'REST-CRUD-008', surface: 'restV1', status: 400, when: 'unknown-reference', errorPath: '/body',
    operations: ['createPod', 'updatePod', 'updatePodViaPost', 'createEndpoint', 'updateEndpoint', 'updateEndpointViaPost', 'createTemplate', 'updateTemplate', 'updateTemplateViaPost'],
  },
  { rule: 'GQL-TEMPLATE-004', surface: 'graphql', status: 200, when: 'unknown-reference', operations: ['saveTemplate'] },
  { rule: 'GQL-TEMPLATE-008', surface: 'graphql', status: 200, when: 'unknown-reference', operations: ['saveTemplate'] },
  { rule: 'GQL-TEMPLATE-012', surface: 'graphql', status: 200, when: 'unknown-reference', operations: ['deleteTemplate'] },
  { rule: 'GQL-SECRET-003', surface: 'graphql', status: 200, when: 'unknown-reference', operations: ['secretDelete'] },
  // Nullable GraphQL variables left null.
  { rule: 'GQL-TEMPLATE-002', surface: 'graphql', status: 200, when: 'null-variable', operations: ['saveTemplate'] },
  { rule: 'GQL-TEMPLATE-012', surface: 'graphql', status: 200, when: 'null-variable', operations: ['deleteTemplate'] },
  // Rules that combine the request with stored state.
  { rule: 'REST-POD-010', surface: 'restV1', status: 400, when: 'no-image-or-template', operations: ['createPod'], errorPath: '/body/imageName' },
  { rule: 'REST-ENDPOINT-009', surface: 'restV1', status: 400, when: 'workers-bound-given', operations: ['createEndpoint', 'updateEndpoint', 'updateEndpointViaPost'], errorPath: '/body/workers' },
  { rule: 'REST-VOLUME-007', surface: 'restV1', status: 400, when: 'size-given', operations: ['updateNetworkVolume', 'updateNetworkVolumeViaPost'], errorPath: '/body/size' },
  { rule: 'QUEUE-RETRY-003', surface: 'queueV2', status: 400, when: 'job-state', operations: ['retryJob'] },
  // Names that must be unique.
  { rule: 'REST-TEMPLATE-003', surface: 'restV1', status: 400, when: 'name-taken', operations: ['createTemplate'], errorPath: '/body/name' },
  { rule: 'REST-TEMPLATE-009', surface: 'restV1', status: 400, when: 'name-taken', operations: ['updateTemplate', 'updateTemplateViaPost'], errorPath: '/body/name' },
  { rule: 'REST-REGAUTH-003', surface: 'restV1', status: 400, when: 'name-taken', operations: ['createContainerRegistryAuth'], errorPath: '/body/name' },
  { rule: 'GQL-TEMPLATE-007', surface: 'graphql', status: 200, when: 'name-taken', operations: ['saveTemplate'] },
  { rule: 'GQL-SECRET-004', surface: 'graphql', status: 200, when: 'name-taken', operations: ['secretCreate'] },
  ...REST_V2_ALLOWED_REFUSALS,
];

/** Problems of the allow-list against the catalogue (empty = consistent). */
export function checkAllowList(catalogue: readonly CatalogueRule[], entries: readonly AllowedRefusal[] = ALLOWED_REFUSALS): string[] {
  const byId = new Map(catalogue.map((r) => [r.id, r]));
  const problems: string[] = [];
  for (const entry of entries) {
    const rule = byId.get(entry.rule);
    if (!rule) {
      problems.push(`allow-list names rule ${entry.rule}, which specs/rules.yaml does not define`);
      continue;
    }
    if (rule.title.startsWith('Retired')) problems.push(`allow-list names retired rule ${entry.rule}`);
    const missing = entry.operations.filter((op) => !(rule.operations ?? []).includes(op));
    if (missing.length) problems.push(`allow-list: rule ${entry.rule} does not list operation(s) ${missing.join(', ')} in specs/rules.yaml`);
    if (entry.status < 400 && !(entry.status === 200 && entry.surface === 'graphql')) problems.push(`allow-list: ${entry.rule} status ${entry.status} is not a refusal`);
  }
  return problems;
}

/** The entry that documents a refusal, if any. */
export function allowedBy(
  surface: AllowedRefusal['surface'], operationId: string, status: number, conditions: ReadonlySet<RefusalCondition>,
  errorPaths: readonly string[], entries: readonly AllowedRefusal[] = ALLOWED_REFUSALS,
): AllowedRefusal | undefined {
  return entries.find((e) => e.surface === surface && e.status === status && e.operations.includes(operationId) && conditions.has(e.when)
    && (e.errorPath === undefined || errorPaths.some((p) => ([] as string[]).concat(e.errorPath!).some((named) => (e.exact ? p === named : p.startsWith(named))))));
}
