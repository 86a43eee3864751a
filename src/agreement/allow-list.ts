// The documented refusals of spec-valid requests: data, keyed by rule id of specs/rules.yaml. A
// spec-valid request may only be refused (4xx, or GraphQL errors[]) when an entry names the rule,
// the operation and the status. Checked against the catalogue: an unknown rule id, or an operation
// the rule does not list, is an error.
import type { CatalogueRule } from '../contract/catalogue.js';
import { REST_V2_ALLOWED_REFUSALS, type RestV2Condition } from './allow-list-rest-v2.js';
import { PROSE_ONLY_CONDITIONS, REQUEST_CONDITIONS, type CommonCondition, type RefusalEntry } from './refusal-entry.js';

/** When an entry applies: a condition both lists share (refusal-entry.ts) or a REST v2 one. */
export type RefusalCondition = CommonCondition | RestV2Condition;
export { REQUEST_CONDITIONS };

export type AllowedRefusal = RefusalEntry<RefusalCondition>;

/** The SDL declares these inputs nullable (the seed's mutations); the resolver needs them for some inputs. */
const GRAPHQL_NULLABLE = 'an SDL input the seed declares nullable that the resolver needs in some cases (GraphQL has no conditional non-null)';

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
  { rule: 'GQL-TEMPLATE-002', surface: 'graphql', status: 200, when: 'null-variable', operations: ['saveTemplate'], notInSchema: GRAPHQL_NULLABLE },
  { rule: 'GQL-TEMPLATE-012', surface: 'graphql', status: 200, when: 'null-variable', operations: ['deleteTemplate'], notInSchema: GRAPHQL_NULLABLE },
  // Rules that combine the request with stored state.
  { rule: 'REST-POD-010', surface: 'restV1', status: 400, when: 'no-image-or-template', operations: ['createPod'], errorPath: '/body/imageName',
    notInSchema: 'REST v1 follows the seed\'s public v1 file, which states no anyOf; not moved into the schema yet' },
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
    if (PROSE_ONLY_CONDITIONS.has(entry.when) && !entry.notInSchema?.trim()) {
      problems.push(`allow-list: ${entry.rule} on ${entry.operations.join(', ')} excuses a refusal read from the request alone (${entry.when}): a rule stated in prose only — state it in the schema (oneOf, not, dependentRequired) or give notInSchema`);
    }
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
