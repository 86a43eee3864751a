// Local record types of the mock's state. Kept independent of the generated API types so the
// stored shape can be lean (memory per job matters) and rendered to each surface's wire format.

export type Scope = 'read' | 'write' | 'jobs' | 'graphql';
export const ALL_SCOPES: readonly Scope[] = ['read', 'write', 'jobs', 'graphql'];

export type Surface = 'restV1' | 'queueV2' | 'restV2';

export interface OperationInfo {
  surface: Surface;
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  path: string;
  requiredScope: 'read' | 'write' | 'jobs';
  successStatus: number;
  rateLimit?: { requestsPer10s: number; concurrent: number | null };
  /** False where the spec's request body is optional (body-less POSTs accept none, empty or `{}`). */
  bodyRequired: boolean;
  maxBodyBytes?: number;
  resultRetentionMs?: number;
  deleteDelayMs?: number;
  synonymOf?: string;
  /** REST v2: status of a body breaking the schema when the operation documents another than 422 (x-invalid-body-status). */
  invalidBodyStatus?: number;
}

export interface RateLimitPolicy {
  windowMs: number;
  requestsPerWorkerPer10s: number;
}

export type JobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT';
export const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

export interface JobPolicy {
  executionTimeout?: number;
  lowPriority?: boolean;
  ttl?: number;
}

export interface Job {
  id: string;
  endpointId: string;
  kind: 'run' | 'runsync';
  status: JobStatus;
  input: Record<string, unknown>;
  webhook?: string;
  policy?: JobPolicy;
  /** Whether an s3Config was given; the config itself is handed to the worker only (accessSecret is secret). */
  s3Config?: Record<string, unknown>;
  submittedAt: number;
  /** When the job last entered the queue (submission or /retry); delayTime is measured from here. */
  queuedAt: number;
  startedAt?: number;
  finishedAt?: number;
  delayTime?: number;
  executionTime?: number;
  workerId?: string;
  output?: unknown;
  error?: string;
  retries: number;
  /** Handler runs so far (for input.mock.failTimes). */
  attempts: number;
  /** Stream chunks already handed out by /stream. */
  streamed: number;
  /** When a terminal job's result retention ends (epoch ms). */
  expiresAt?: number;
  /** The simulated worker crashed on the last attempt (input.mock.crash). */
  crashed?: boolean;
}

export interface Worker {
  id: string;
  /** initializing: a worker process that has not asked for work yet (worker protocol). */
  state: 'idle' | 'running' | 'initializing';
  /** A job it runs (the first, when a worker process runs several: `--concurrency`). */
  jobId?: string;
  /** A worker process that joined on its own (attach mode): the mock neither starts nor stops it. */
  attached?: boolean;
  /** GPU type allocated: the first available one of the endpoint's gpuTypeIds. */
  gpuTypeId?: string;
  /** Pending idle scale-down check (one per worker at most). */
  idleTimer?: { cancelled: boolean; readonly at: number };
  idleSince: number;
  /** When the worker was spawned (epoch ms): the start of its simulated log (REST v2 getWorkerLogs). */
  createdAt: number;
  /** Endpoint release the worker runs (REST v2 listEndpointWorkers `version`, `isStale`). */
  release: number;
  /** Past its cold start (simulated fleet): its next job starts at once. */
  warm?: boolean;
}

export interface EndpointRecord {
  id: string;
  name: string;
  templateId: string;
  createdAt: string;
  userId: string;
  version: number;
  [field: string]: unknown;
}

export interface TemplateRecord {
  id: string;
  name: string;
  imageName: string;
  /** Last time a pod or endpoint stopped using this template (epoch ms), for the delete delay. */
  lastUsedAt?: number;
  [field: string]: unknown;
}

/**
 * A REST v2 sandbox (src/mock/rest-v2/sandbox-*.ts). Only facts are stored (creation, activity, an explicit
 * termination); its state and deadlines are derived from them on the clock (sandbox-lifecycle.ts).
 */
export interface SandboxRecord {
  id: string;
  name: string;
  templateId: string | null;
  imageName: string | null;
  /** The image it runs (imageName, or the template's image). */
  image: string;
  cpuFlavorId: string;
  vcpuCount: number;
  memoryInGb: number;
  containerDiskInGb: number;
  costPerHr: number;
  dataCenterId: string | null;
  env: Record<string, string>;
  labels: Record<string, string>;
  idleTimeoutSeconds: number;
  maxLifetimeSeconds: number;
  /** Epoch ms. */
  createdAt: number;
  lastActivityAt: number;
  /** End of the command running now (epoch ms; 0 when none): the sandbox does not go idle before it. */
  busyUntil: number;
  /** An explicit termination (terminateSandbox); timeouts are derived, never stored. */
  terminatedAt: number | null;
  terminationReason: string | null;
}

export interface PodRecord {
  id: string;
  name: string;
  desiredStatus: 'RUNNING' | 'EXITED' | 'TERMINATED';
  createdAt: number;
  lastStartedAt?: string;
  lastStatusChange?: string;
  templateId?: string;
  /** Epoch ms since the pod runs (billing); undefined while stopped. */
  runningSince?: number;
  /** Running time billed before runningSince. */
  billedMs?: number;
  [field: string]: unknown;
}

/** A REST v2 cluster; its member pods are pods whose `clusterId` names it (rank in `clusterRank`). */
export interface ClusterRecord {
  id: string;
  name: string;
  type: 'APPLICATION' | 'TRAINING' | 'SLURM' | 'RAY';
  compute: { gpuTypeId: string; gpuCountPerPod: number; podCount: number };
  dataCenterId: string;
  vxlanId: number;
  createdAt: number;
}

export interface NetworkVolumeRecord {
  id: string;
  name: string;
  size: number;
  dataCenterId: string;
  createdAt: number;
}

export interface RegistryAuthRecord {
  id: string;
  name: string;
  username: string;
  /** Stored so the simulated worker could pull; never rendered. */
  password: string;
}

/** A REST v2 ECR delegation: RunPod may pull one Amazon ECR repository for the account. Holds no secret. */
export interface EcrDelegationRecord {
  id: string;
  name: string | null;
  delegatorUserId: string;
  awsUser: string;
  repository: string;
  tag: string;
  awsRegion: string;
  dockerRegistryUri: string;
  createdAt: number;
}

export interface SecretRecord {
  id: string;
  name: string;
  /** Write-only: read by resolved worker environments only, never rendered. */
  value: string;
  description: string | null;
  /** RFC 3339; absent in state files written before REST v2 secrets. */
  createdAt?: string;
  valueLastUpdatedAt?: string | null;
  createdThrough?: 'restV2';
}

export interface WebhookDelivery {
  jobId: string;
  url: string;
  attempt: number;
  at: number;
  status?: number;
  error?: string;
  /** Why the destination was not contacted at all (webhook-egress.ts: not allowed). */
  refused?: string;
  delivered: boolean;
}
