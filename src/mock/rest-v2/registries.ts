// REST v2 registry credentials (the REST v1 container registry auths: same records, same ids) and
// ECR delegations. Username and password are write-only: no answer ever carries them.
import type { MockCore } from '../core.js';
import { resourceId } from '../state/ids.js';
import type { EcrDelegationRecord, RegistryAuthRecord } from '../types.js';
import { problem } from './problem.js';
import { fromResult, type Body } from './shared.js';
import { json, noContent, type V2Handler, type V2Reply } from './types.js';

/** Only id and name: the Registry schema; the password (and username) stay in the store. */
export const renderRegistryV2 = (a: RegistryAuthRecord): Record<string, unknown> => ({ id: a.id, name: a.name });

function deleteRegistry(core: MockCore, id: string): V2Reply {
  if (!core.store.registryAuths.has(id)) return problem(404, 'registry credential not found');
  for (const pod of core.store.pods.values()) {
    if (pod['containerRegistryAuthId'] === id) return problem(400, `registry credential is in use by pod ${pod.id}`);
  }
  core.store.deleteRegistryAuth(id);
  // Templates are no obstacle: they lose the reference (registry becomes null).
  for (const t of [...core.store.templates.values()]) {
    if (t['containerRegistryAuthId'] === id) core.store.updateTemplate(t.id, { containerRegistryAuthId: undefined });
  }
  return noContent();
}

// ---- ECR delegations ---------------------------------------------------------------------------

/** arn:aws:ecr:<region>:<12-digit account>:repository/<name>, optionally `:<tag>` (mock: else `latest`). */
const ECR_ARN = /^arn:aws[a-z-]*:ecr:([a-z]{2}(?:-[a-z]+)+-\d):(\d{12}):repository\/([a-z0-9][a-z0-9._\-/]*?)(?::([A-Za-z0-9_][A-Za-z0-9._-]{0,127}))?$/;

export function renderDelegation(d: EcrDelegationRecord): Record<string, unknown> {
  return {
    id: d.id, name: d.name, delegatorUserId: d.delegatorUserId, awsUser: d.awsUser, repository: d.repository,
    tag: d.tag, awsRegion: d.awsRegion, dockerRegistryUri: d.dockerRegistryUri,
    createdAt: new Date(d.createdAt).toISOString().replace('.000Z', 'Z'),
  };
}

const createDelegation: V2Handler = (core, { body }) => {
  const b = body as Body;
  const match = ECR_ARN.exec(String(b['resource']));
  if (!match) {
    return problem(422, 'resource is not the ARN of an ECR repository', ['/body/resource: must look like arn:aws:ecr:<region>:<account>:repository/<name>']);
  }
  const [, awsRegion, account, repository, tag = 'latest'] = match as unknown as [string, string, string, string, string | undefined];
  for (const d of core.store.ecrDelegations.values()) {
    if (d.awsUser === account && d.awsRegion === awsRegion && d.repository === repository && d.tag === tag) {
      return problem(400, `a delegation for ${repository}:${tag} already exists (${d.id})`, ['/body/resource: already delegated']);
    }
  }
  const record: EcrDelegationRecord = {
    id: resourceId(), name: typeof b['name'] === 'string' ? b['name'] : null, delegatorUserId: core.account, awsUser: account,
    repository, tag, awsRegion, dockerRegistryUri: `${account}.dkr.ecr.${awsRegion}.amazonaws.com`, createdAt: core.clock.now(),
  };
  core.store.ecrDelegations.set(record.id, record);
  return json(201, renderDelegation(record));
};

const listDelegations: V2Handler = (core) => json(200, { delegations: [...core.store.ecrDelegations.values()].map(renderDelegation) });

export const registryHandlers: Record<string, V2Handler> = {
  listRegistries: (core) => json(200, { registries: [...core.store.registryAuths.values()].map(renderRegistryV2) }),
  createRegistry: (core, { body }) => fromResult(core.store.createRegistryAuth(body as Body), 201, renderRegistryV2),
  getRegistry: (core, ctx) => {
    const auth = core.store.registryAuths.get(ctx.params['id']!);
    return auth ? json(200, renderRegistryV2(auth)) : problem(404, 'registry credential not found');
  },
  deleteRegistry: (core, { params }) => deleteRegistry(core, params['id']!),
  listDelegations,
  createDelegation,
  revokeDelegation: (core, { params }) =>
    core.store.ecrDelegations.delete(params['id']!) ? noContent() : problem(404, 'delegation not found'),
};
