// REST v2 account secrets beyond their own operations: RESTV2-SECRET-007 (one store with GraphQL, and
// what workers resolve) and RESTV2-SECRET-008 (the per-account maximum, which reads the whole account).
import { defineCheck } from '../../src/conform/registry.js';
import { errorsOf, expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { expectProblem } from './rest-v2-core.js';

const SECRET_CREATE = 'mutation S($input: SecretCreateInput!) { secretCreate(input: $input) { id name description } }';
const SECRET_DELETE = 'mutation D($id: ID!) { secretDelete(id: $id) }';

/** Runs one job on a new endpoint whose template sets T to the secret's placeholder; true when the worker saw `expected`. */
async function workerSees(ctx: Ctx, secretName: string, expected: string): Promise<boolean> {
  const template = await ctx.template({ isServerless: true, volumeInGb: 0, env: { T: `{{ RUNPOD_SECRET_${secretName} }}` } });
  const endpoint = await ctx.endpoint({ templateId: template.id });
  const job = await ctx.run(endpoint, { durationMs: 0, envCheck: { T: expected } });
  const done = await ctx.finish(endpoint, job, 0);
  expectEqual(done.status, 'COMPLETED', 'the env-checking job');
  return done.output?.envCheck?.T === true;
}

defineCheck('RESTV2-SECRET-007', async (ctx) => {
  const viaGraphql = await ctx.secretResource();
  const got = await ctx.v2('getSecret', { path: { id: viaGraphql.id } });
  expectStatus(got, 200, 'getSecret of a GraphQL secret');
  expectEqual([got.body.id, got.body.name, got.body.description], [viaGraphql.id, viaGraphql.name, null], 'REST v2 view of a GraphQL secret');
  const listed = (await ctx.v2('listSecrets')).body.secrets as { id: string }[];
  expect(listed.some((s) => s.id === viaGraphql.id), 'listSecrets lacks the GraphQL secret');

  const name = ctx.name('secret').replace(/-/g, '_');
  const value = ctx.secret('secret value');
  const created = await ctx.v2('createSecret', { body: { name, value } });
  expectStatus(created, 201, 'createSecret');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteSecret', { path: { id } }));
  expect(await workerSees(ctx, name, value), 'a worker did not resolve the REST v2 secret to its value');
  const rotated = ctx.secret('secret value');
  expectStatus(await ctx.v2('updateSecret', { path: { id }, body: { value: rotated } }), 200, 'updateSecret');
  expect(await workerSees(ctx, name, rotated), 'a worker started after the rotation did not resolve the new value');

  const deleted = await ctx.gql(SECRET_DELETE, { id });
  expect(!deleted.body.errors, `secretDelete of a REST v2 secret: ${errorsOf(deleted)}`);
  expectProblem(await ctx.v2('getSecret', { path: { id } }), 404, 'getSecret after GraphQL secretDelete');
  const taken = await ctx.gql(SECRET_CREATE, { input: { name: viaGraphql.name, value: ctx.secret('secret value') } });
  expect(Array.isArray(taken.body?.errors) && !taken.body?.data?.secretCreate, 'GraphQL secretCreate of a name REST v2 lists did not fail');
}, { needs: ['graphql', 'rest', 'queueV2', 'jobs'], shares: ['clock', 'restV2-quota'] });

defineCheck('RESTV2-SECRET-008', async (ctx) => {
  const max = ctx.value<number>('maxPerAccount');
  const held = ((await ctx.v2('listSecrets')).body.secrets as unknown[]).length;
  expect(held <= max, `the account already holds ${held} secrets, over ${max}`);
  const made: string[] = [];
  ctx.cleanup(async () => {
    for (const id of made) await ctx.v2('deleteSecret', { path: { id } });
  });
  for (let i = held; i < max; i++) {
    const answer = await ctx.v2('createSecret', { body: { name: ctx.name('fill'), value: ctx.secret('secret value') } });
    expectStatus(answer, 201, `createSecret number ${i + 1} of ${max}`);
    made.push(String(answer.body.id));
  }
  const name = ctx.name('over');
  expectProblem(await ctx.v2('createSecret', { body: { name, value: ctx.secret('secret value') } }), ctx.value<number>('status'), `createSecret number ${max + 1}`);
  expectEqual(((await ctx.v2('listSecrets', { query: { name } })).body.secrets as unknown[]).length, 0, 'secrets of the refused name');
  const viaGraphql = await ctx.gql(SECRET_CREATE, { input: { name: ctx.name('over'), value: ctx.secret('secret value') } });
  expect(Array.isArray(viaGraphql.body?.errors) && !viaGraphql.body?.data?.secretCreate, 'GraphQL secretCreate past the maximum did not fail');
  if (made.length > 0) {
    expectStatus(await ctx.v2('deleteSecret', { path: { id: made.pop()! } }), 204, 'deleteSecret');
    const room = await ctx.v2('createSecret', { body: { name, value: ctx.secret('secret value') } });
    expectStatus(room, 201, 'createSecret after a delete made room');
    made.push(String(room.body.id));
  }
}, { needs: ['graphql'], timeoutMs: 120_000 });
