// Authentication, scopes and versioned addresses: AUTH-*, GQL-AUTH-*, VERSION-*.
import { readFileSync } from 'node:fs';
import { getOperation } from '../../src/validation/index.js';
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectStatus, type Ctx } from '../../src/conform/context.js';
import { isHttpSurface, type HttpSurface } from '../../src/conform/http.js';
import { operations } from '../../generated/operations.js';
import { packageFile } from '../../src/contract/package-files.js';
import { urlOf } from '../../src/conform/surfaces.js';

const WRONG = 'cc-wrong-key-0000000000000000';

/** Arguments that reach each operation's auth check (ids need not exist: auth comes first). */
function sample(ctx: Ctx, surface: HttpSurface, operationId: string, endpointId: string) {
  const op = getOperation(surface, operationId);
  const path: Record<string, string> = {};
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) path[name!] = name === 'openaiPath' ? 'v1/chat/completions' : 'cc-unknown-id';
  const body = op.bodyRequired ? (surface === 'queueV2' ? { input: { prompt: 'auth' } } : {}) : undefined;
  return { path, body, endpointId };
}

async function expect401(ctx: Ctx, surface: HttpSurface, operationId: string, key: string | null, endpointId: string, what: string) {
  const args = sample(ctx, surface, operationId, endpointId);
  ctx.http.secrets.add(WRONG, 'wrong API key');
  const answer = await ctx.call(surface, operationId, { ...args, key });
  expectStatus(answer, 401, `${operationId} with ${what}`);
  expect(typeof answer.body?.message === 'string' && answer.body.message !== '', `${operationId} with ${what}: 401 without an error message`);
}

defineCheck('AUTH-001', async (ctx) => {
  const all = operations.filter((o) => o.surface === 'restV1');
  for (const op of all) await expect401(ctx, 'restV1', op.operationId, null, '', 'no Authorization header');
  return `all ${all.length} REST v1 operations`;
});

defineCheck('AUTH-002', async (ctx) => {
  const all = operations.filter((o) => o.surface === 'restV1');
  for (const op of all) await expect401(ctx, 'restV1', op.operationId, WRONG, '', 'a wrong key');
  return `all ${all.length} REST v1 operations`;
});

defineCheck('AUTH-003', async (ctx) => {
  const answer = await ctx.rest('listTemplates');
  expectStatus(answer, 200, 'listTemplates with a valid key');
});

defineCheck('AUTH-004', async (ctx) => {
  const endpointId = await ctx.anyEndpoint();
  for (const op of operations.filter((o) => o.surface === 'queueV2')) {
    await expect401(ctx, 'queueV2', op.operationId, null, endpointId, 'no key');
    await expect401(ctx, 'queueV2', op.operationId, WRONG, endpointId, 'a wrong key');
  }
}, { needs: ['endpoint'] });

defineCheck('AUTH-005', async (ctx) => {
  const endpointId = await ctx.anyEndpoint();
  const readOnly = ctx.target.readOnlyKey!;
  const none = ctx.target.noPermissionKey!;
  let checked = 0;
  for (const op of operations) {
    // REST v2 (problem details, 403 for scopes): RESTV2-AUTH-*; REST v1 when the target gives it.
    if (!isHttpSurface(op.surface) || urlOf(ctx.target, op.surface) === undefined) continue;
    // A read-only key must be refused everything but `read`; a scope-less key everything.
    if (op.requiredScope !== 'read') await expect401(ctx, op.surface, op.operationId, readOnly, endpointId, `a key without the '${op.requiredScope}' scope`);
    await expect401(ctx, op.surface, op.operationId, none, endpointId, 'a key without any scope');
    checked++;
  }
  // The read scope does read: through REST v1 when given, else REST v2.
  const ok = ctx.target.restUrl !== undefined ? await ctx.rest('listTemplates', { key: readOnly }) : await ctx.v2('listTemplates', { key: readOnly });
  expectStatus(ok, 200, 'listTemplates with the read-only key');
  for (const key of [readOnly, none]) {
    const gql = await ctx.gql('query { podTemplate(id: "cc-none") { id } }', {}, { key });
    expectStatus(gql, 401, 'GraphQL with a key lacking the graphql scope');
  }
  return `${checked} operations + GraphQL`;
}, { needs: ['queueV2', 'graphql', 'endpoint', 'rest'], everyConfiguredSurface: true, requires: ['readOnlyKey', 'noPermissionKey'] });

defineCheck('AUTH-006', async (ctx) => {
  // Every answer of the run is scanned for every key the suite sent; here the error paths explicitly.
  ctx.http.secrets.add(WRONG, 'wrong API key');
  const endpointId = await ctx.anyEndpoint();
  if (ctx.target.restUrl !== undefined) {
    await ctx.rest('listPods', { key: WRONG });
    await ctx.rest('getPod', { path: { podId: 'cc-unknown' } });
  } else {
    await ctx.v2('listPods', { key: WRONG });
    await ctx.v2('getPod', { path: { id: 'cc-unknown' } });
  }
  await ctx.queue(endpointId, 'getJobStatus', { path: { jobId: 'cc-unknown' }, key: WRONG });
  await ctx.queue(endpointId, 'runJob', { rawBody: '{"input":', });
  await ctx.gql('query { podTemplate(id: "x") { id } }', {}, { key: WRONG });
  await ctx.gql('query { nope }');
  return 'key scan applies to every answer of the run';
}, { needs: ['queueV2', 'graphql', 'endpoint', 'rest'], everyConfiguredSurface: true });

defineCheck('GQL-AUTH-001', async (ctx) => {
  const answer = await ctx.gql('query { podTemplate(id: "cc-none") { id name } }');
  expectStatus(answer, 200, 'GraphQL with ?api_key=');
  expect(answer.body && typeof answer.body.data === 'object' && answer.body.data !== null, 'GraphQL answer has no data object');
});

defineCheck('GQL-AUTH-002', async (ctx) => {
  ctx.http.secrets.add(WRONG, 'wrong API key');
  const mutations = [
    'mutation { saveTemplate(input: {name: "cc-x", imageName: "x:1", containerDiskInGb: 1, volumeInGb: 0}) { id } }',
    'mutation { secretCreate(input: {name: "cc-x", value: "cc-never-stored-value"}) { id } }',
  ];
  for (const query of mutations) {
    expectStatus(await ctx.gql(query, {}, { key: null }), 401, 'GraphQL without api_key');
    expectStatus(await ctx.gql(query, {}, { key: WRONG }), 401, 'GraphQL with a wrong api_key');
  }
});

defineCheck('GQL-AUTH-003', async (ctx) => {
  const answer = await ctx.gql('query { podTemplate(id: "cc-none") { id } }', {}, { via: 'bearer' });
  expectStatus(answer, 200, 'GraphQL with the key as a Bearer header');
});

defineCheck('VERSION-001', async (ctx) => {
  const restUrl = ctx.baseUrl('restV1');
  expect(new URL(restUrl).pathname.replace(/\/$/, '').endsWith('/v1'), `REST base ${restUrl} does not end in /v1`);
  expectStatus(await ctx.rest('listTemplates'), 200, 'listTemplates under /v1');
});

defineCheck('VERSION-002', async (ctx) => {
  const doc = JSON.parse(readFileSync(packageFile('generated/rest-v1/openapi.json'), 'utf8')) as { info: { version: string } };
  expect(doc.info.version === ctx.value<string>('interfaceVersion'), `rest-v1 info.version is ${doc.info.version}`);
  return 'checked on the interface description (specs/rest-v1)';
});

defineCheck('VERSION-003', async (ctx) => {
  const queueUrl = ctx.baseUrl('queueV2');
  const segments = new URL(queueUrl).pathname.split('/').filter(Boolean);
  expect(segments[segments.length - 1] === 'v2', `queue base ${queueUrl} does not end in /v2`);
  const endpointId = await ctx.anyEndpoint();
  expectStatus(await ctx.queue(endpointId, 'getHealth'), 200, 'getHealth under /v2/{endpointId}');
}, { needs: ['endpoint'] });

defineCheck('VERSION-004', async (ctx) => {
  const graphqlUrl = ctx.baseUrl('graphql');
  const segments = new URL(graphqlUrl).pathname.split('/').filter(Boolean);
  expect(!segments.some((s) => /^v\d+$/.test(s)), `GraphQL address ${graphqlUrl} carries a version segment`);
  expectStatus(await ctx.gql('query { podTemplate(id: "cc-none") { id } }'), 200, 'GraphQL query');
});
