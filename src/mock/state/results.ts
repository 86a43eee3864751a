// What the store's operations answer (a value or a failure with its status) and the shapes it shares
// with its observers and the state file; kept apart from the store so the surfaces import only these.
import type {
  ClusterRecord, EcrDelegationRecord, EndpointRecord, NetworkVolumeRecord, PodRecord, RegistryAuthRecord, SandboxRecord, SecretRecord, TemplateRecord,
} from '../types.js';

export type Failure = {
  ok: false;
  status: 400 | 404 | 409 | 429 | 503;
  message: string;
  errors?: { path: string; message: string }[];
  /** Sent as Retry-After (429, 503). */
  retryAfterSeconds?: number;
  /** The body names a resource that does not exist (REST v1 answers 400; REST v2 operations document 404 or 422). */
  unknownReference?: true;
};
export type Result<T> = { ok: true; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const notFound = (what: string): Failure => ({ ok: false, status: 404, message: `${what} not found` });
export const badRequest = (message: string, path?: string): Failure =>
  path ? { ok: false, status: 400, message, errors: [{ path, message }] } : { ok: false, status: 400, message };

export interface StoreSnapshot {
  pods: PodRecord[];
  endpoints: EndpointRecord[];
  templates: TemplateRecord[];
  networkVolumes: NetworkVolumeRecord[];
  registryAuths: RegistryAuthRecord[];
  secrets: SecretRecord[];
  /** REST v2 ECR delegations (absent in older state files). */
  ecrDelegations?: EcrDelegationRecord[];
  clusters: ClusterRecord[];
  /** REST v2 sandboxes (absent in older state files). */
  sandboxes?: SandboxRecord[];
  /** Account SSH public keys (REST v2 account/ssh-keys). */
  sshKeys: string[];
}

/** A pod lifecycle change, as the simulated logs (rest-v2/log-book.ts) see it. */
export type PodChange = 'created' | 'updated' | 'started' | 'stopped' | 'restarted' | 'reset' | 'deleted';

/** Told about every pod change of every surface, after the change is stored. */
export interface PodObserver {
  podChanged(pod: PodRecord, change: PodChange): void;
  cleared(): void;
}
