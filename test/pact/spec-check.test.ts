// The pact ↔ spec check over the committed pacts, plus proof that it rejects interactions the
// specs do not allow (a 201 for /run, an undocumented path, a missing Retry-After, bad GraphQL data).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { PACT_SURFACES, pactFilePath, type PactSurface } from '../../src/pact/participants.js';
import { checkPact, formatReports, type PactDocument } from '../../src/pact/spec-check.js';

const load = (surface: PactSurface): PactDocument => JSON.parse(readFileSync(pactFilePath(surface), 'utf8')) as PactDocument;
const clone = <T>(value: T): T => structuredClone(value);
function interaction(surface: PactSurface, description: string) {
  const found = load(surface).interactions.find((i) => i.description === description);
  if (!found) throw new Error(`no interaction "${description}" in the ${surface} pact`);
  return clone(found);
}
function pactWith(surface: PactSurface, changed: PactDocument['interactions'][number]): PactDocument {
  return { ...load(surface), interactions: [changed] };
}
const issuesOf = (pact: PactDocument) => formatReports(checkPact(pact));
const matched = (surface: PactSurface) => new Set(checkPact(load(surface)).map((r) => r.operation));

describe('pact ↔ spec: the committed pacts', () => {
  it.each(PACT_SURFACES)('every %s interaction is valid against the spec', (surface) => {
    expect(issuesOf(load(surface))).toEqual([]);
  });

  it('covers every queue v2 operation', () => {
    const queueOps = operations.filter((o) => o.surface === 'queueV2').map((o) => `queueV2:${o.operationId}`);
    expect([...matched('queueV2')].sort()).toEqual(queueOps.sort());
  });

  it('covers the registry-auth and endpoint REST v1 operations', () => {
    const wanted = operations
      .filter((o) => o.surface === 'restV1' && (o.tag === 'endpoints' || o.operationId.includes('ContainerRegistryAuth')))
      .map((o) => `restV1:${o.operationId}`);
    expect(wanted).toHaveLength(10);
    expect([...matched('restV1')].sort()).toEqual(wanted.sort());
  });

  it('covers the four GraphQL mutations', () => {
    for (const name of ['SaveTemplate', 'DeleteTemplate', 'SecretCreate', 'SecretDelete']) expect(matched('graphql')).toContain(`graphql:${name}`);
  });

  it('covers every REST v2 resource family but clusters', () => {
    const tagOf = (id: string | undefined) => operations.find((o) => o.surface === 'restV2' && `restV2:${o.operationId}` === id)?.tag;
    const tags = new Set([...matched('restV2')].map(tagOf));
    expect([...tags].sort()).toEqual(['account', 'billing', 'catalog', 'network-volumes', 'pods', 'registries', 'sandboxes', 'serverless', 'templates']);
    for (const op of ['createPod', 'getPod', 'podAction', 'createEndpoint', 'getEndpoint', 'createRegistry', 'listRegistries', 'createNetworkVolume']) {
      expect(matched('restV2')).toContain(`restV2:${op}`);
    }
    const templateOps = operations.filter((o) => o.surface === 'restV2' && o.tag === 'templates').map((o) => `restV2:${o.operationId}`);
    for (const op of templateOps) expect(matched('restV2')).toContain(op);
  });

  it('REST v2 errors (401, 404, 422, 429) are all application/problem+json', () => {
    const errors = load('restV2').interactions.filter((i) => i.response.status >= 400);
    expect(errors.map((i) => i.response.status)).toEqual(expect.arrayContaining([401, 404, 422, 429]));
    for (const i of errors) expect(i.response.headers?.['Content-Type']).toEqual(['application/problem+json']);
  });

  it('holds the error interactions: 401, 400 (ttl), 404 (unknown job), 429 with Retry-After', () => {
    const statuses = load('queueV2').interactions.map((i) => i.response.status);
    expect(statuses).toEqual(expect.arrayContaining([401, 400, 404, 429]));
  });
});

describe('pact ↔ spec: wrong interactions are rejected', () => {
  it('QUEUE /run answered 201 → rejected (undocumented status)', () => {
    const wrong = interaction('queueV2', 'a job submission');
    wrong.response.status = 201;
    expect(issuesOf(pactWith('queueV2', wrong))).toEqual([
      expect.stringMatching(/^a job submission \(queueV2:runJob\): \/response\/status 201 is not a documented status of runJob/),
    ]);
  });

  it('a job status outside the enum (RUNNING) → rejected', () => {
    const wrong = interaction('queueV2', 'a status read of a completed job');
    (wrong.response.body!.content as { status: string }).status = 'RUNNING';
    expect(issuesOf(pactWith('queueV2', wrong)).join('\n')).toMatch(/\/response\/body\/status must be one of/);
  });

  it('an undocumented path → rejected', () => {
    const wrong = interaction('queueV2', 'a job submission');
    wrong.request.path = '/v2/pact-endpoint/jobs';
    expect(issuesOf(pactWith('queueV2', wrong)).join('\n')).toMatch(/no queueV2 operation documents POST \/jobs/);
  });

  it('a 429 without Retry-After → rejected', () => {
    const wrong = interaction('queueV2', 'a queue purge over the rate limit');
    delete wrong.response.headers!['Retry-After'];
    expect(issuesOf(pactWith('queueV2', wrong))).toEqual([expect.stringContaining('/response/headers/Retry-After is required on 429')]);
  });

  it('a 400 blaming a field the spec accepts → rejected', () => {
    const wrong = interaction('queueV2', 'a job submission with a ttl below the minimum');
    (wrong.request.body!.content as { policy: { ttl: number } }).policy.ttl = 60_000;
    expect(issuesOf(pactWith('queueV2', wrong)).join('\n')).toMatch(/lists \/body\/policy\/ttl, but the spec accepts the request there/);
  });

  it('a registry auth answer echoing the password → rejected', () => {
    const wrong = interaction('restV1', 'a container registry auth creation');
    (wrong.response.body!.content as Record<string, unknown>).password = 'pact-password';
    expect(issuesOf(pactWith('restV1', wrong)).join('\n')).toMatch(/\/response\/body\/password is not a known property/);
  });

  it('an invalid request body → rejected', () => {
    const wrong = interaction('restV1', 'an endpoint creation');
    (wrong.request.body!.content as Record<string, unknown>).workersMax = -1;
    expect(issuesOf(pactWith('restV1', wrong)).join('\n')).toMatch(/\/request\/body\/workersMax/);
  });

  it('REST v2: an error answered as application/json → rejected', () => {
    const wrong = interaction('restV2', 'a REST v2 read of an unknown template');
    wrong.response.headers = { 'Content-Type': ['application/json'] };
    expect(issuesOf(pactWith('restV2', wrong))).toEqual([
      expect.stringMatching(/\/response\/headers\/Content-Type application\/json is not documented for 404 \(documented: application\/problem\+json\)/),
    ]);
  });

  it('REST v2: an error in the REST v1 shape ({message}) → rejected', () => {
    const wrong = interaction('restV2', 'a REST v2 template list with a wrong API key');
    wrong.response.body!.content = { message: 'Unauthorized' };
    expect(issuesOf(pactWith('restV2', wrong)).join('\n')).toMatch(/\/response\/body\/title is required/);
  });

  it('REST v2: a list that is not wrapped → rejected', () => {
    const wrong = interaction('restV2', 'a REST v2 template list');
    wrong.response.body!.content = (wrong.response.body!.content as { templates: unknown[] }).templates;
    expect(issuesOf(pactWith('restV2', wrong)).join('\n')).toMatch(/\/response\/body must be object/);
  });

  it('REST v2: a 422 blaming a field the spec accepts → rejected', () => {
    const wrong = interaction('restV2', 'a REST v2 template creation with disk 0');
    (wrong.response.body!.content as { errors: string[] }).errors = ['/body/image: must be a string'];
    expect(issuesOf(pactWith('restV2', wrong)).join('\n')).toMatch(/lists \/body\/image, but the spec accepts the request there/);
  });

  it('REST v2: reset answered 200 → rejected (the request breaks the PodAction enum)', () => {
    const wrong = interaction('restV2', 'a REST v2 pod reset action');
    wrong.response.status = 200;
    wrong.response.headers = { 'Content-Type': ['application/json'] };
    wrong.response.body!.content = interaction('restV2', 'a REST v2 pod stop action').response.body!.content;
    expect(issuesOf(pactWith('restV2', wrong)).join('\n')).toMatch(/\/request\/body\/action must be one of/);
  });

  it('a registry answer echoing the password → rejected, without quoting it', () => {
    const wrong = interaction('restV2', 'a REST v2 registry creation');
    (wrong.response.body!.content as Record<string, unknown>).secretCopy = 'pact-password';
    const issues = issuesOf(pactWith('restV2', wrong));
    expect(issues).toEqual([expect.stringMatching(/\/response\/body echoes a credential/)]);
    expect(issues.join('\n')).not.toContain('pact-password');
  });

  const savedTemplate = () => {
    const wrong = interaction('graphql', 'a saveTemplate mutation creating a template');
    return { wrong, template: (wrong.response.body!.content as { data: { saveTemplate: Record<string, unknown> } }).data.saveTemplate };
  };

  it('GraphQL: a wrongly typed and an unselected field → rejected', () => {
    const { wrong, template } = savedTemplate();
    template.containerDiskInGb = '10';
    template.secretValue = 'x';
    const issues = issuesOf(pactWith('graphql', wrong)).join('\n');
    expect(issues).toMatch(/data\/saveTemplate\/containerDiskInGb "10" is not a value of the field's type/);
    expect(issues).toMatch(/data\/saveTemplate\/secretValue is not selected by the query/);
  });

  it('GraphQL: a missing non-null field → rejected; a missing nullable one is fine', () => {
    const { wrong, template } = savedTemplate();
    delete template.id;
    expect(issuesOf(pactWith('graphql', wrong))).toEqual([expect.stringMatching(/Cannot return null for non-nullable field PodTemplate\.id/)]);
    const fine = savedTemplate();
    delete fine.template.readme;
    expect(issuesOf(pactWith('graphql', fine.wrong))).toEqual([]);
  });

  it('GraphQL: variables that do not fit the SDL → rejected', () => {
    const wrong = interaction('graphql', 'a secretCreate mutation');
    (wrong.request.body!.content as { variables: { input: Record<string, unknown> } }).variables.input = { name: 'pact-secret' };
    expect(issuesOf(pactWith('graphql', wrong)).join('\n')).toMatch(/Variable "\$input" got invalid value/);
  });
});
