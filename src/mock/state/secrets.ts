// Account secrets: one collection per account, shared by GraphQL secretCreate/secretDelete, REST v2
// account/secrets and the control API. Names are unique in the account compared without case; an account
// holds at most SECRETS_PER_ACCOUNT. The value stays here: only resolved worker environments read it.
import { readFileSync } from 'node:fs';
import { packageFile } from '../../contract/package-files.js';
import type { TrackedMap } from '../state-journal/tracked-map.js';
import type { SecretRecord } from '../types.js';
import { resourceId } from './ids.js';
import { badRequest, notFound, ok, type Failure, type Result } from './results.js';

/** The per-account maximum: REST v2's ListSecretsResponse.secrets.maxItems (never re-typed). */
export const SECRETS_PER_ACCOUNT: number = (() => {
  const doc = JSON.parse(readFileSync(packageFile('generated/rest-v2/openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, { properties?: Record<string, { maxItems?: number }> }> };
  };
  const max = doc.components.schemas['ListSecretsResponse']?.properties?.['secrets']?.maxItems;
  if (max === undefined) throw new Error('rest-v2 spec lacks ListSecretsResponse.secrets.maxItems');
  return max;
})();

export interface NewSecret {
  name: string;
  value: string;
  description: string | null;
  /** Which surface made it (fault rest-v2-graphql-secret-invisible hides the others from REST v2). */
  createdThrough?: 'restV2';
}

export interface SecretChange {
  value?: string;
  /** `''` clears the description (null). */
  description?: string;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function secretNamed(secrets: TrackedMap<SecretRecord>, name: string): SecretRecord | undefined {
  for (const s of secrets.values()) if (sameName(s.name, name)) return s;
  return undefined;
}

/** A taken name is a 409 (REST v2's documented status; GraphQL reports the message). */
export function nameTaken(name: string): Failure {
  return { ok: false, status: 409, message: `a secret named '${name}' already exists`, errors: [{ path: '/body/name', message: 'already in use in this account' }] };
}

/** What faults switch off (secret-duplicate-name-accepted, secret-count-unbounded); both on otherwise. */
export interface SecretChecks {
  unique?: boolean;
  bounded?: boolean;
}

export function addSecret(secrets: TrackedMap<SecretRecord>, input: NewSecret, now: number, atCapacity: () => Failure | undefined, checks: SecretChecks = {}): Result<SecretRecord> {
  if (checks.unique !== false && secretNamed(secrets, input.name)) return nameTaken(input.name);
  if (checks.bounded !== false && secrets.size >= SECRETS_PER_ACCOUNT) {
    return badRequest(`the account already holds ${SECRETS_PER_ACCOUNT} secrets, the most it may; delete one first`);
  }
  const refused = atCapacity();
  if (refused) return refused;
  const at = new Date(now).toISOString();
  const record: SecretRecord = {
    id: resourceId(), name: input.name, value: input.value, description: input.description === '' ? null : input.description,
    createdAt: at, valueLastUpdatedAt: at, ...(input.createdThrough ? { createdThrough: input.createdThrough } : {}),
  };
  secrets.set(record.id, record);
  return ok(record);
}

/** Only what is sent changes; a value moves valueLastUpdatedAt (unless `keepValue`: fault secret-rotation-ignored). */
export function changeSecret(secrets: TrackedMap<SecretRecord>, id: string, change: SecretChange, now: number, keepValue = false): Result<SecretRecord> {
  const record = secrets.get(id);
  if (!record) return notFound('secret');
  const next: SecretRecord = { ...record };
  if (change.value !== undefined && !keepValue) {
    next.value = change.value;
    next.valueLastUpdatedAt = new Date(now).toISOString();
  }
  if (change.description !== undefined) next.description = change.description === '' ? null : change.description;
  secrets.set(id, next);
  return ok(next);
}
