// REST v2 account secrets over the account's one secret collection (state/secrets.ts), the one GraphQL
// secretCreate/secretDelete use and worker environments resolve `{{ RUNPOD_SECRET_<name> }}` from. The
// value is write-only: rendered answers carry metadata only, and no refusal quotes the body.
import { readFileSync } from 'node:fs';
import { packageFile } from '../../contract/package-files.js';
import type { MockCore } from '../core.js';
import type { FaultName } from '../options.js';
import { changeSecret, secretNamed } from '../state/secrets.js';
import type { SecretRecord } from '../types.js';
import { problem } from './problem.js';
import { fromResult, type Body } from './shared.js';
import { json, noContent, type V2Handler, type V2Reply } from './types.js';

type SecretBody = { name?: string; value?: string; description?: string };

/** `x-max-utf8-bytes` of the request schemas' string properties (maxLength counts characters, this bytes). */
const BYTE_BOUNDS: Record<'createSecret' | 'updateSecret', [field: string, bytes: number][]> = (() => {
  const doc = JSON.parse(readFileSync(packageFile('generated/rest-v2/openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, { properties?: Record<string, { 'x-max-utf8-bytes'?: number }> }> };
  };
  const of = (schema: string) => Object.entries(doc.components.schemas[schema]?.properties ?? {})
    .flatMap(([field, p]) => (p['x-max-utf8-bytes'] === undefined ? [] : [[field, p['x-max-utf8-bytes']] as [string, number]]));
  return { createSecret: of('CreateSecretRequest'), updateSecret: of('UpdateSecretRequest') };
})();

/** Only the Secret schema's fields; createdAt falls back to the epoch for records of older state files. */
export function renderSecretV2(s: SecretRecord, faults?: ReadonlySet<FaultName>): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: s.id, name: s.name, description: s.description ?? null,
    createdAt: s.createdAt ?? new Date(0).toISOString(), valueLastUpdatedAt: s.valueLastUpdatedAt ?? s.createdAt ?? null,
  };
  // Fault secret-value-returned: the write-only value comes back in every answer.
  if (faults?.has('secret-value-returned')) view['value'] = s.value;
  return view;
}

/** Beyond an `x-max-utf8-bytes` bound → the 422 of a failed validation (the message names the bound, never the value). */
function tooManyBytes(operationId: 'createSecret' | 'updateSecret', body: SecretBody, faults: ReadonlySet<FaultName>): V2Reply | undefined {
  if (faults.has('secret-bounds-unchecked')) return undefined;
  const errors = BYTE_BOUNDS[operationId]
    .filter(([field, bytes]) => typeof body[field as keyof SecretBody] === 'string' && Buffer.byteLength(body[field as keyof SecretBody]!, 'utf8') > bytes)
    .map(([field, bytes]) => `/body/${field}: must be at most ${bytes} bytes of UTF-8`);
  return errors.length > 0 ? problem(422, 'request validation failed', errors) : undefined;
}

/** Fault rest-v2-graphql-secret-invisible: REST v2 sees only the secrets it made. */
function visible(core: MockCore, s: SecretRecord | undefined): SecretRecord | undefined {
  return s && (!core.options.faults.has('rest-v2-graphql-secret-invisible') || s.createdThrough === 'restV2') ? s : undefined;
}

const NOT_FOUND = 'secret not found';

const listSecrets: V2Handler = (core, { query }) => {
  const name = typeof query['name'] === 'string' && !core.options.faults.has('secret-name-filter-ignored') ? query['name'] : undefined;
  const all = name === undefined ? [...core.store.secrets.values()] : [secretNamed(core.store.secrets, name)];
  const shown = all.map((s) => visible(core, s)).filter((s): s is SecretRecord => s !== undefined);
  return json(200, { secrets: shown.map((s) => renderSecretV2(s, core.options.faults)) });
};

const createSecret: V2Handler = (core, { body }) => {
  const b = body as SecretBody;
  const refused = tooManyBytes('createSecret', b, core.options.faults);
  if (refused) return refused;
  const faults = core.options.faults;
  const result = core.store.addSecret(
    { name: b.name!, value: b.value!, description: b.description ?? null, createdThrough: 'restV2' },
    { unique: !faults.has('secret-duplicate-name-accepted'), bounded: !faults.has('secret-count-unbounded') },
  );
  return fromResult(result, 201, (s) => renderSecretV2(s, faults));
};

const getSecret: V2Handler = (core, { params }) => {
  const s = visible(core, core.store.secrets.get(params['id']!));
  return s ? json(200, renderSecretV2(s, core.options.faults)) : problem(404, NOT_FOUND);
};

const updateSecret: V2Handler = (core, { params, body }) => {
  const b = body as Body & SecretBody;
  const refused = tooManyBytes('updateSecret', b, core.options.faults);
  if (refused) return refused;
  if (!visible(core, core.store.secrets.get(params['id']!))) return problem(404, NOT_FOUND);
  const change = { ...(b.value !== undefined ? { value: b.value } : {}), ...(b.description !== undefined ? { description: b.description } : {}) };
  const result = changeSecret(core.store.secrets, params['id']!, change, core.clock.now(), core.options.faults.has('secret-rotation-ignored'));
  return fromResult(result, 200, (s) => renderSecretV2(s, core.options.faults));
};

const deleteSecret: V2Handler = (core, { params }) => {
  const id = params['id']!;
  if (!visible(core, core.store.secrets.get(id))) return problem(404, NOT_FOUND);
  // Fault secret-delete-keeps-record: the answer says deleted, the record (and its value) stays.
  if (!core.options.faults.has('secret-delete-keeps-record')) core.store.secrets.delete(id);
  return noContent();
};

export const secretHandlers: Record<string, V2Handler> = { listSecrets, createSecret, getSecret, updateSecret, deleteSecret };

/** Fault secret-bounds-unchecked: createSecret lets a name past its pattern and reserved prefix, and every body past its byte bounds. */
export function secretIssuesIgnored<T extends { path: string }>(core: MockCore, operationId: string, issues: T[]): T[] {
  if (operationId !== 'createSecret' || !core.options.faults.has('secret-bounds-unchecked')) return issues;
  return issues.filter((i) => !i.path.startsWith('/body/name'));
}
