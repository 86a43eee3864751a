// Response shapes of the compute-rest-v2 pact: every field the spec marks required (the pact ↔ spec
// check validates each example), matched by type where the provider chooses the value and literally
// where the consumer set it. Example ids are fixed, so the pact file never changes between runs.
import { MatchersV3 } from '@pact-foundation/pact';
import { rfc3339 } from './consumer.js';
import { NAMES } from '../../src/pact/state-names.js';
import { GRAPHQL_TEMPLATE, V2_GPU, V2_REGISTRY, V2_SANDBOX, V2_SECRET, V2_TEMPLATE, V2_VOLUME } from '../../src/pact/rest-v2-fixtures.js';

const { like, eachLike, integer, number, boolean, regex } = MatchersV3;

export const V2_IDS = {
  template: '9x4m2p7v',
  pod: '7h9k2m4n6p',
  endpoint: 'jpnw0v75y3qoql',
  networkVolume: 'agv6w2qcg7',
  registry: 'clzdaifot0001l90809257ynb',
  secret: '2q9m7x4cavgd',
  sandbox: '7h3sbx91kq',
} as const;

/** A pod template as the states and the creation interaction make it (`disk` may be updated). */
export const v2Template = (fields: { disk?: number } = {}) =>
  templateShape({ name: NAMES.v2Template, disk: fields.disk ?? V2_TEMPLATE.disk, ports: eachLike(V2_TEMPLATE.ports[0]), env: like({ ...V2_TEMPLATE.env }) });

/** The template GraphQL saved, read through REST v2: `imageName` → `image`, `containerDiskInGb` → `disk`. */
export const graphqlTemplateInV2 = () => templateShape({ name: GRAPHQL_TEMPLATE.name, disk: GRAPHQL_TEMPLATE.containerDiskInGb, ports: like([]), env: like({}) });

function templateShape(fields: { name: string; disk: number; ports: unknown; env: unknown }) {
  return {
    id: like(V2_IDS.template),
    name: fields.name,
    image: V2_TEMPLATE.image,
    args: like(''),
    disk: integer(fields.disk),
    mounts: like({}),
    ports: fields.ports,
    env: fields.env,
    registry: null,
    serverless: boolean(false),
    public: boolean(false),
    category: like('NVIDIA'),
    startSsh: boolean(true),
    startJupyter: boolean(true),
    allowedCudaVersions: like([]),
  };
}

/** `RateLimit` / `RateLimit-Policy` on an authenticated answer: at least the minute window. */
export const rateLimitHeaders = () => ({
  RateLimit: regex('^(.*, )?"minute";r=\\d+;t=\\d+(, .*)?$', '"minute";r=59;t=60, "hour";r=2999;t=3600, "day";r=49999;t=86400'),
  'RateLimit-Policy': regex('^(.*, )?"minute";q=\\d+;w=60(, .*)?$', '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400'),
});

const oneOf = (values: readonly string[], example: string = values[0]!) => regex(`^(${values.join('|')})$`, example);

/**
 * The pod the states create (`v2PodInput`), before it reaches RUNNING: while provisioning or starting
 * the service reports no SSH endpoints and no runtime figures (both null). After a stop it is EXITED.
 */
export const v2Pod = (phase: 'booting' | 'stopped' = 'booting') => ({
  id: like(V2_IDS.pod),
  name: NAMES.v2Pod,
  status: phase === 'stopped' ? 'EXITED' : oneOf(['PROVISIONING', 'STARTING']),
  actions: eachLike(oneOf(['start', 'stop', 'restart', 'terminate'], phase === 'stopped' ? 'start' : 'stop')),
  image: V2_TEMPLATE.image,
  args: like(''),
  disk: 10,
  mounts: like({}),
  ports: ['8888/http'],
  env: { PACT: '1' },
  registry: null,
  gpu: { id: V2_GPU.id, count: integer(1), vcpuCount: number(8), memory: number(31) },
  cloud: oneOf(['SECURE', 'COMMUNITY']),
  dataCenterId: like('US-TX-3'),
  cudaVersion: like('12.8'),
  ssh: { proxy: null, direct: null },
  template: null,
  cost: number(0.69),
  locked: boolean(false),
  globalNetworking: { enabled: false },
  runtime: null,
  createdAt: rfc3339(),
  startedAt: rfc3339(),
});

/** The endpoint `v2EndpointInput` creates: the fields the spec requires, and the type and scaling sent. */
export const v2Endpoint = () => ({
  id: like(V2_IDS.endpoint),
  name: NAMES.v2Endpoint,
  type: 'QUEUE',
  workers: { min: 0, max: 1, idleTimeout: integer(10) },
  scaling: { type: 'QUEUE_DELAY', queueDelay: number(4) },
  dataCenterIds: like([]),
  networkVolumes: like([]),
  timeout: integer(300_000),
  flashboot: oneOf(['OFF', 'FLASHBOOT', 'PRIORITY_FLASHBOOT']),
  createdAt: rfc3339(),
});

export const v2Volume = () => ({
  id: like(V2_IDS.networkVolume),
  name: V2_VOLUME.name,
  size: V2_VOLUME.size,
  dataCenter: V2_VOLUME.dataCenter,
  type: oneOf(['STANDARD', 'HIGH_PERFORMANCE']),
});

/** An account secret as answered: metadata, never the value. */
export const v2Secret = () => ({ id: like(V2_IDS.secret), name: V2_SECRET.name, description: V2_SECRET.description, createdAt: rfc3339(), valueLastUpdatedAt: rfc3339() });

/** A registry credential as answered: id and name, never the user name or password. */
export const v2Registry = () => ({ id: like(V2_IDS.registry), name: V2_REGISTRY.name });

/** One GPU type of the catalog (the one `V2_GPU` names, which has a serverless pool). */
export const v2GpuType = () => ({
  id: V2_GPU.id,
  name: like('RTX 4090'),
  pool: V2_GPU.pool,
  manufacturer: oneOf(['NVIDIA', 'AMD', 'UNKNOWN'], 'NVIDIA'),
  memory: integer(24),
  secure: boolean(true),
  community: boolean(true),
  price: { secure: number(0.69), community: number(0.34), serverless: number(1.12) },
  maxCount: { secure: integer(8), community: integer(4) },
});

const BILLING_AMOUNTS = [
  'totalAmount', 'podGpuAmount', 'podCpuAmount', 'podDiskAmount', 'serverlessGpuAmount', 'serverlessCpuAmount', 'serverlessDiskAmount',
  'serverlessFeeAmount', 'storageStandardAmount', 'storageHighPerformanceAmount', 'endpointAmount', 'clusterGpuAmount', 'clusterDiskAmount',
  'clusterNetworkingAmount',
] as const;
const amounts = () => Object.fromEntries(BILLING_AMOUNTS.map((name) => [name, number(0)]));

/** Account billing by day: one record per bucket, totals and the query as the service understood it. */
export const v2Billing = () => ({
  records: eachLike({ startTime: rfc3339('2026-06-01T00:00:00Z'), endTime: rfc3339('2026-06-02T00:00:00Z'), ...amounts() }),
  metadata: {
    query: { startTime: rfc3339('2026-06-01T00:00:00Z'), endTime: rfc3339('2026-06-02T00:00:00Z'), bucketSize: 'day' },
    recordCount: integer(1),
    totals: amounts(),
  },
});

/** A sandbox just created from V2_SANDBOX: CREATING (or already RUNNING), the values the consumer sent. */
export const v2Sandbox = () => ({
  id: like(V2_IDS.sandbox),
  name: V2_SANDBOX.name,
  state: regex('^(CREATING|RUNNING)$', 'CREATING'),
  templateId: null,
  imageName: V2_SANDBOX.imageName,
  cpuFlavorId: like('cpu3c'),
  idleTimeoutSeconds: V2_SANDBOX.idleTimeoutSeconds,
  maxLifetimeSeconds: integer(3600),
  lastActivityAt: rfc3339(),
  idleExpiresAt: rfc3339(),
  expiresAt: rfc3339(),
  labels: { ...V2_SANDBOX.labels },
  terminationReason: null,
  terminatedAt: null,
  createdAt: rfc3339(),
  updatedAt: rfc3339(),
});
