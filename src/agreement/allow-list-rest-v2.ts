// The documented refusals of spec-valid REST v2 requests (data, like ./allow-list.ts): rules that
// combine fields (which JSON Schema in an OpenAPI parameter list cannot state), the catalogue (what
// can be placed), stored state (a pod's status, a volume's size) and unknown ids. Each condition is
// computed from the request the run sent, so a refusal is only excused where its rule can have fired.
import type { CommonCondition, RefusalEntry } from './refusal-entry.js';

type Body = Record<string, unknown> | undefined;
type Query = Record<string, unknown>;

const AVAILABILITY_FILTERS = ['product', 'count', 'cloud', 'countryCodes', 'cudaVersions', 'minCudaVersion', 'vcpuCount'];
/** Given, as the wire carries it: an empty list is not sent at all. */
const has = (o: Record<string, unknown> | undefined, key: string) => o?.[key] !== undefined && o[key] !== null && !(Array.isArray(o[key]) && (o[key] as unknown[]).length === 0);

/** REST v2 conditions, read from the query and the body of the request. */
export const REST_V2_CONDITIONS = {
  /** RESTV2-CATALOG-002: include=AVAILABILITY without product, a filter without it, or both CUDA filters. */
  'v2-catalog-filters': (q: Query) => {
    const include = ([] as unknown[]).concat(q['include'] ?? []);
    const availability = include.includes('AVAILABILITY');
    const filters = AVAILABILITY_FILTERS.some((f) => has(q, f));
    return (availability && !has(q, 'product')) || (!availability && filters) || (has(q, 'cudaVersions') && has(q, 'minCudaVersion'));
  },
  /** RESTV2-BILLING-002: lastN beside a time, or a window that is empty, reversed, too long or before the epoch. */
  'v2-billing-window': (q: Query) => has(q, 'lastN') || has(q, 'startTime') || has(q, 'endTime'),
  /** RESTV2-POD-002, RESTV2-ENDPOINT-002: neither or both of gpu and cpu (the compute a create needs). */
  'v2-compute-choice': (_q: Query, b: Body) => has(b, 'gpu') === has(b, 'cpu'),
  /** RESTV2-POD-008, RESTV2-ENDPOINT-002/003: compute named, which the catalogue and the resource's kind decide on. */
  'v2-compute-given': (_q: Query, b: Body) => has(b, 'gpu') || has(b, 'cpu') || has(b, 'compute') || has(b, 'dataCenterIds'),
  /** RESTV2-POD-002/006: mounts given, whose kinds exclude each other and must match the pod's. */
  'v2-mounts-given': (_q: Query, b: Body) => has(b, 'mounts'),
  /** RESTV2-ENDPOINT-003: worker bounds given; the stored other bound decides whether min > max. */
  'v2-workers-given': (_q: Query, b: Body) => has(b, 'workers'),
  /** RESTV2-CLUSTER-003: a cluster takes no template, so without image it is refused (400, not a schema 422). */
  'v2-no-image': (_q: Query, b: Body) => !has(b, 'image'),
  /** RESTV2-POD-009: global networking asked; a CPU pod, a GPU not NVIDIA or a data centre without it refuses it. */
  'v2-global-networking': (_q: Query, b: Body) => has(b, 'globalNetworking') && (b as Record<string, unknown>)['globalNetworking'] === true,
  /** RESTV2-BUILD-003: the run creates no build (only a push can start one), so every buildId it sends is unknown. */
  'v2-build-unknown': () => true,
  /** RESTV2-SECRET-008: the account may already hold its 100 secrets (what others made counts too). */
  'v2-secrets-full': () => true,
  /** RESTV2-ACTION-002: an action the pod's current status may not allow. */
  'v2-pod-state': () => true,
  /** RESTV2-SANDBOX-002: compute named, which the flavor decides on (vCPUs and memory it offers). */
  'v2-sandbox-compute-given': (_q: Query, b: Body) => has(b, 'cpuFlavorId') || has(b, 'vcpuCount') || has(b, 'memoryInGb') || has(b, 'dataCenterId'),
  /** RESTV2-SANDBOX-007/008: the sandbox's container may not have started yet, or the run terminated it. */
  'v2-sandbox-state': () => true,
} as const;

export type RestV2Condition = keyof typeof REST_V2_CONDITIONS;

/** Where the catalogue and the resource's kind decide (compute, its place, its CUDA versions). */
const COMPUTE_PATHS = ['/body/gpu', '/body/cpu', '/body/compute', '/body/dataCenterIds'];

const BY_ID = ['getPod', 'updatePod', 'deletePod', 'podAction', 'getPodLogs', 'getCluster', 'updateCluster', 'deleteCluster', 'listClusterPods',
  'getEndpoint', 'updateEndpoint', 'deleteEndpoint', 'listEndpointWorkers', 'listEndpointReleases', 'getWorkerLogs',
  'getTemplate', 'updateTemplate', 'deleteTemplate', 'getNetworkVolume', 'updateNetworkVolume', 'deleteNetworkVolume',
  'getRegistry', 'deleteRegistry', 'revokeDelegation', 'getGpuType', 'getCpuType', 'getDataCenter'];

/**
 * Prose-only rules still kept (issue 38 moved createSandbox's into its schema): each answers 400 where a body
 * breaking the schema answers 422 (RESTV2-ERROR-002), so stating it with oneOf/not would change its documented status.
 */
const NOT_YET = 'a combination of body fields answered 400, not the schema\'s 422 (RESTV2-ERROR-002): not moved into the schema yet';
/** Parameters are separate schemas in OpenAPI: no JSON Schema keyword relates two query parameters. */
const QUERY_COMBINATION = 'a combination of query parameters, which OpenAPI parameter schemas cannot relate';

export const REST_V2_ALLOWED_REFUSALS: readonly RefusalEntry<CommonCondition | RestV2Condition>[] = [
  // Unknown ids: in the path (404), in the body (404 for resources, 422 for catalogue entries, 400 when they cannot be placed).
  { rule: 'RESTV2-ERROR-003', surface: 'restV2', status: 404, when: 'unknown-reference', operations: BY_ID },
  { rule: 'RESTV2-BUILD-003', surface: 'restV2', status: 404, when: 'unknown-reference', operations: ['listEndpointBuilds', 'getEndpointBuild', 'getEndpointBuildLogs'] },
  { rule: 'RESTV2-SECRET-005', surface: 'restV2', status: 404, when: 'unknown-reference', operations: ['updateSecret'] },
  { rule: 'RESTV2-SECRET-006', surface: 'restV2', status: 404, when: 'unknown-reference', operations: ['getSecret', 'deleteSecret'] },
  { rule: 'RESTV2-BUILD-003', surface: 'restV2', status: 404, when: 'v2-build-unknown', operations: ['getEndpointBuild', 'getEndpointBuildLogs'] },
  { rule: 'RESTV2-POD-004', surface: 'restV2', status: 404, when: 'unknown-reference', operations: ['createPod', 'updatePod'], errorPath: '/body' },
  { rule: 'RESTV2-POD-008', surface: 'restV2', status: 400, when: 'v2-compute-given', operations: ['createPod', 'createCluster'], errorPath: COMPUTE_PATHS },
  { rule: 'RESTV2-ENDPOINT-002', surface: 'restV2', status: 404, when: 'unknown-reference', operations: ['createEndpoint', 'updateEndpoint'], errorPath: '/body' },
  { rule: 'RESTV2-ENDPOINT-003', surface: 'restV2', status: 422, when: 'v2-compute-given', operations: ['createEndpoint', 'updateEndpoint'], errorPath: COMPUTE_PATHS },
  { rule: 'RESTV2-CLUSTER-003', surface: 'restV2', status: 422, when: 'unknown-reference', operations: ['createCluster'], errorPath: '/body/mounts' },
  { rule: 'RESTV2-VOLUME-003', surface: 'restV2', status: 422, when: 'unknown-reference', operations: ['createNetworkVolume'], errorPath: '/body/dataCenter' },
  // Rules over several fields.
  { rule: 'RESTV2-POD-002', surface: 'restV2', status: 400, when: 'v2-compute-choice', operations: ['createPod'], errorPath: '/body', notInSchema: NOT_YET },
  { rule: 'RESTV2-POD-002', surface: 'restV2', status: 400, when: 'v2-mounts-given', operations: ['createPod'], errorPath: '/body/mounts', notInSchema: NOT_YET },
  { rule: 'RESTV2-POD-002', surface: 'restV2', status: 400, when: 'v2-mounts-given', operations: ['createCluster'], errorPath: '/body/mounts', notInSchema: NOT_YET },
  { rule: 'RESTV2-TEMPLATE-002', surface: 'restV2', status: 422, when: 'unknown-reference', operations: ['createTemplate', 'updateTemplate'], errorPath: '/body/registry' },
  { rule: 'RESTV2-POD-006', surface: 'restV2', status: 400, when: 'v2-mounts-given', operations: ['updatePod'], errorPath: '/body/mounts', notInSchema: 'the mount kind the pod was created with decides (stored state)' },
  { rule: 'RESTV2-POD-009', surface: 'restV2', status: 400, when: 'v2-global-networking', operations: ['createPod', 'updatePod'], errorPath: '/body/globalNetworking' },
  { rule: 'RESTV2-ENDPOINT-002', surface: 'restV2', status: 400, when: 'v2-compute-choice', operations: ['createEndpoint', 'updateEndpoint'], errorPath: '/body', notInSchema: NOT_YET },
  { rule: 'RESTV2-ENDPOINT-002', surface: 'restV2', status: 400, when: 'v2-compute-given', operations: ['createEndpoint', 'updateEndpoint'], errorPath: COMPUTE_PATHS },
  { rule: 'RESTV2-ENDPOINT-003', surface: 'restV2', status: 400, when: 'v2-workers-given', operations: ['createEndpoint', 'updateEndpoint'], errorPath: '/body/workers' },
  { rule: 'RESTV2-CLUSTER-003', surface: 'restV2', status: 400, when: 'v2-no-image', operations: ['createCluster'], errorPath: '/body/image', notInSchema: NOT_YET },
  { rule: 'RESTV2-CATALOG-002', surface: 'restV2', status: 400, when: 'v2-catalog-filters', operations: ['listGpuTypes', 'getGpuType', 'listCpuTypes', 'getCpuType'],
    errorPath: ['include', ...AVAILABILITY_FILTERS].map((name) => `/query/${name}`), exact: true, notInSchema: QUERY_COMBINATION },
  { rule: 'RESTV2-BILLING-002', surface: 'restV2', status: 400, when: 'v2-billing-window', errorPath: ['/query/startTime', '/query/endTime', '/query/lastN', '/query/bucketSize'], exact: true,
    operations: ['listBilling', 'listPodBilling', 'listServerlessBilling', 'listEndpointBilling', 'listNetworkVolumeBilling', 'listClusterBilling'],
    notInSchema: `${QUERY_COMBINATION}; the window is also judged against the current time` },
  { rule: 'RESTV2-SANDBOX-004', surface: 'restV2', status: 404, when: 'unknown-reference', operations: ['getSandbox', 'terminateSandbox'] },
  { rule: 'RESTV2-SANDBOX-007', surface: 'restV2', status: 404, when: 'unknown-reference', operations: ['runSandboxCommand'] },
  { rule: 'RESTV2-SANDBOX-008', surface: 'restV2', status: 404, when: 'unknown-reference', operations: ['getSandboxLogs'] },
  { rule: 'RESTV2-SANDBOX-002', surface: 'restV2', status: 422, when: 'unknown-reference', operations: ['createSandbox'], errorPath: ['/body/templateId', '/body/cpuFlavorId', '/body/dataCenterId'] },
  { rule: 'RESTV2-SANDBOX-002', surface: 'restV2', status: 422, when: 'v2-sandbox-compute-given', operations: ['createSandbox'], errorPath: ['/body/cpuFlavorId', '/body/vcpuCount', '/body/memoryInGb', '/body/dataCenterId'] },
  // Stored state.
  { rule: 'RESTV2-SANDBOX-007', surface: 'restV2', status: 409, when: 'v2-sandbox-state', operations: ['runSandboxCommand'] },
  { rule: 'RESTV2-SANDBOX-008', surface: 'restV2', status: 409, when: 'v2-sandbox-state', operations: ['getSandboxLogs'] },
  { rule: 'RESTV2-ACTION-002', surface: 'restV2', status: 409, when: 'v2-pod-state', operations: ['podAction'] },
  { rule: 'RESTV2-VOLUME-002', surface: 'restV2', status: 400, when: 'size-given', operations: ['updateNetworkVolume'], errorPath: '/body/size' },
  // Names that must be unique.
  { rule: 'RESTV2-TEMPLATE-002', surface: 'restV2', status: 400, when: 'name-taken', operations: ['createTemplate', 'updateTemplate'], errorPath: '/body/name' },
  { rule: 'RESTV2-SECRET-003', surface: 'restV2', status: 409, when: 'name-taken', operations: ['createSecret'], errorPath: '/body/name' },
  { rule: 'RESTV2-SECRET-008', surface: 'restV2', status: 400, when: 'v2-secrets-full', operations: ['createSecret'] },
];
