// Cross-account traffic: which caller's traffic each object id first came back in, so an answer to
// another caller that carries it is flagged (ISOLATION-READ-001 / -LIST-001 / -WRITE-001). Callers are
// told apart by a keyed hash of their API key (HMAC-SHA-256 under a random key made per session): the
// key is never written anywhere (only the last caller's key is held in memory, to reuse its hash), and
// neither it nor its hash is ever printed. The ids remembered are bounded (MAX_REMEMBERED_IDS, oldest forgotten first), so a long session stays small.
//
// Two keys of ONE account legitimately see the same objects: give the proxy one key per account (a
// finding between two keys of one account is no defect of the server).
import { createHmac, randomBytes } from 'node:crypto';

/** Object ids remembered per session or traffic file; beyond this the oldest is forgotten. */
export const MAX_REMEMBERED_IDS = 20_000;
/** Shorter strings are not taken for object ids (they would match words and small numbers). */
const MIN_ID_LENGTH = 6;
/** Properties naming an object of the caller's account (the objects' own `id` besides). */
const OWNED_REFERENCES = new Set(['podId', 'endpointId', 'templateId', 'networkVolumeId', 'containerRegistryAuthId', 'registryAuthId', 'clusterId', 'jobId']);
/** Subtrees describing public catalogue entries or machines, whose ids every caller sees. */
const PUBLIC_SUBTREES: ReadonlySet<string> = new Set([
  'gpu', 'gpus', 'gpuType', 'gpuTypes', 'cpu', 'cpus', 'cpuType', 'cpuTypes', 'cpuFlavor', 'dataCenter', 'dataCenters',
  'machine', 'lowestPrice', 'catalog', 'countryCode', 'savingsPlans',
]);
/** Fields that are account identities rather than objects (each account's own). */
const IDENTITY_FIELDS: ReadonlySet<string> = new Set(['userId', 'consumerUserId', 'delegatorUserId', 'ownerId']);

export interface ForeignId {
  id: string;
}

export class IdOwners {
  private readonly hashKey = randomBytes(32);
  /** id → fingerprint of the key whose answer first carried it (insertion order = age). */
  private readonly owners = new Map<string, string>();

  get size(): number {
    return this.owners.size;
  }

  /** The last caller's fingerprint: traffic comes in runs of one key, and an HMAC per answer cost 20% of the proxy's throughput. */
  private last: { apiKey: string; fingerprint: string } | undefined;

  private fingerprint(apiKey: string): string {
    if (this.last?.apiKey === apiKey) return this.last.fingerprint;
    const fingerprint = createHmac('sha256', this.hashKey).update(apiKey).digest('base64url').slice(0, 22);
    this.last = { apiKey, fingerprint };
    return fingerprint;
  }

  /**
   * One successful answer to the caller holding `apiKey`: returns the ids in it first seen in another
   * caller's answers; remembers the new ones as the caller's.
   */
  observe(apiKey: string, answer: unknown): string[] {
    return this.observeIds(apiKey, objectIds(answer));
  }

  /** observe() for the ids of an answer found before (objectIds of it). */
  observeIds(apiKey: string, ids: Iterable<string>): string[] {
    const caller = this.fingerprint(apiKey);
    const foreign: string[] = [];
    for (const id of ids) {
      const owner = this.owners.get(id);
      if (owner === undefined) {
        this.owners.set(id, caller);
        if (this.owners.size > MAX_REMEMBERED_IDS) this.owners.delete(this.owners.keys().next().value!);
      } else if (owner !== caller && !foreign.includes(id)) foreign.push(id);
    }
    return foreign;
  }
}

/**
 * False when an answer's JSON text cannot hold an object id: no `id"` / `Id"` key ending and no \u escape
 * (which could spell one). Such answers are not walked and their caller's key is not hashed.
 */
export function mayCarryIds(json: Buffer): boolean {
  return json.includes('id"') || json.includes('Id"') || json.includes('\\u');
}

/** The caller's API key: Bearer header, else GraphQL's api_key parameter. */
export function apiKeyOf(headers: Record<string, string>, url: URL): string | undefined {
  const bearer = /^Bearer\s+(\S+)/i.exec(headers['authorization'] ?? '')?.[1];
  return bearer ?? url.searchParams.get('api_key') ?? undefined;
}

/** Ids of the caller's objects in an answer: every `id` and owned reference, public catalogue subtrees left out. */
export function objectIds(answer: unknown, found: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 32 || answer === null || typeof answer !== 'object') return found;
  if (Array.isArray(answer)) {
    for (const item of answer) objectIds(item, found, depth + 1);
    return found;
  }
  for (const [key, value] of Object.entries(answer as Record<string, unknown>)) {
    if (PUBLIC_SUBTREES.has(key) || IDENTITY_FIELDS.has(key)) continue;
    if ((key === 'id' || OWNED_REFERENCES.has(key)) && typeof value === 'string') {
      if (value.length >= MIN_ID_LENGTH && !/\s/.test(value)) found.add(value);
    } else if (value && typeof value === 'object') objectIds(value, found, depth + 1);
  }
  return found;
}
