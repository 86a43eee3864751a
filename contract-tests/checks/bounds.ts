// Bounded everything: values beyond the spec's maxima are refused with the path named and nothing stored
// (REST-CRUD-007, REST-BOUNDS-001, QUEUE-BOUNDS-001, GQL-BOUNDS-001); past the embedded mock's ceilings
// it answers 429 / 503 with Retry-After (QUEUE-CAPACITY-001, CAPACITY-HEAP-001).
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, errorsOf, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';
import { expectRefusal, storesNothing } from './state-rules.js';
import { restStoresNothing, REST_VIEW } from './rest-view.js';

const HUGE = 100_000_000;
const env = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`K${i}`, 'v']));

defineCheck('REST-CRUD-007', async (ctx) => {
  const max = ctx.value<number>('maxBodyBytes');
  const template = await ctx.template();
  const templateId = await ctx.sharedTemplate();
  const big = (extra: Record<string, unknown>) => JSON.stringify({ ...extra, readme: 'x'.repeat(max) });
  await storesNothing(ctx, 'bodies above the size limit', async () => {
    expectRefusal(await ctx.rest('createTemplate', { rawBody: big({ name: ctx.name('tpl'), imageName: 'x:1' }) }), '/body', `createTemplate with a body over ${max} bytes`);
    expectRefusal(await ctx.rest('createEndpoint', { rawBody: big({ templateId }) }), '/body', `createEndpoint with a body over ${max} bytes`);
    expectRefusal(await ctx.rest('updateTemplate', { path: { templateId: template.id }, rawBody: big({}) }), '/body', `updateTemplate with a body over ${max} bytes`);
  });
  expectEqual((await ctx.rest('getTemplate', { path: { templateId: template.id } })).body, template.body, 'template after the refused update');
});

defineCheck('REST-BOUNDS-001', async (ctx) => {
  const templateId = await ctx.sharedTemplate();
  const name = 'n'.repeat(ctx.value<number>('nameMaxLength') + 1);
  const workers = { workersMin: HUGE, workersMax: HUGE };
  await storesNothing(ctx, 'creates beyond the bounds', async () => {
    expectRefusal(await ctx.rest('createEndpoint', { body: { templateId, ...workers } }), '/body/workersMin', 'createEndpoint workersMin 100000000');
    expectRefusal(await ctx.rest('createEndpoint', { body: { templateId, workersMax: ctx.value<number>('workersMax') + 1 } }), '/body/workersMax', 'createEndpoint workersMax above its maximum');
    expectRefusal(await ctx.rest('createEndpoint', { body: { templateId, gpuCount: ctx.value<number>('gpuCountMax') + 1 } }), '/body/gpuCount', 'createEndpoint gpuCount above its maximum');
    expectRefusal(await ctx.rest('createEndpoint', { body: { templateId, executionTimeoutMs: -1 } }), '/body/executionTimeoutMs', 'createEndpoint executionTimeoutMs -1');
    expectRefusal(await ctx.rest('createTemplate', { body: { name, imageName: 'x:1' } }), '/body/name', 'createTemplate name above maxLength');
    expectRefusal(await ctx.rest('createTemplate', { body: { name: ctx.name('tpl'), imageName: 'x:1', env: env(ctx.value<number>('envMaxProperties') + 1) } }), '/body/env', 'createTemplate env above maxProperties');
    expectRefusal(await ctx.rest('createTemplate', { body: { name: ctx.name('tpl'), imageName: 'x:1', ports: Array(ctx.value<number>('portsMaxItems') + 1).fill('8888/http') } }), '/body/ports', 'createTemplate ports above maxItems');
    expectRefusal(await ctx.rest('createTemplate', { body: { name: ctx.name('tpl'), imageName: 'x:1', containerDiskInGb: -1 } }), '/body/containerDiskInGb', 'createTemplate containerDiskInGb -1');
    expectRefusal(await ctx.rest('createNetworkVolume', { body: { name, size: 10, dataCenterId: 'EU-RO-1' } }), '/body/name', 'createNetworkVolume name above maxLength');
    expectRefusal(await ctx.rest('createContainerRegistryAuth', { body: { name: ctx.name('a'), username: 'u'.repeat(256), password: ctx.secret('registry password') } }), '/body/username', 'createContainerRegistryAuth username above maxLength');
  });
  const endpointId = await ctx.endpoint();
  const before = (await ctx.rest('getEndpoint', { path: { endpointId } })).body;
  for (const op of ['updateEndpoint', 'updateEndpointViaPost']) {
    expectRefusal(await ctx.rest(op, { path: { endpointId }, body: workers }), '/body/workersMin', `${op} workersMin 100000000`);
  }
  // The service is still there and unchanged.
  expectEqual((await ctx.rest('getEndpoint', { path: { endpointId } })).body, before, 'endpoint after the refused updates');
  expectStatus(await ctx.queue(endpointId, 'getHealth'), 200, 'getHealth after the refused updates');
  expectRefusal(await ctx.rest('listPods', { query: { imageName: 'i'.repeat(1025) } }), '/query/imageName', 'listPods imageName above maxLength');
}, { needs: ['queueV2'] });

defineCheck('QUEUE-BOUNDS-001', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  const url = `https://example.com/${'a'.repeat(ctx.value<number>('webhookMaxLength'))}`;
  const s3Config = { accessId: 'a', accessSecret: ctx.secret('s3 accessSecret'), bucketName: 'b'.repeat(ctx.value<number>('s3BucketNameMaxLength') + 1), endpointUrl: 'https://s3.example.test' };
  for (const op of ['runJob', 'runJobSync'] as const) {
    const query = op === 'runJobSync' ? { wait: 1_000 } : undefined;
    expectRefusal(await ctx.queue(endpointId, op, { body: { input: {}, webhook: url }, query }), '/body/webhook', `${op} webhook above maxLength`);
    expectRefusal(await ctx.queue(endpointId, op, { body: { input: {}, s3Config }, query }), '/body/s3Config/bucketName', `${op} s3Config.bucketName above maxLength`);
  }
  const jobs = (await ctx.queue(endpointId, 'getHealth')).body.jobs;
  expectEqual(jobs.inQueue + jobs.inProgress + jobs.completed + jobs.failed, 0, 'jobs stored by the refused submissions');
});

const SAVE = 'mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { id name } }';
const SECRET = 'mutation($input: SecretCreateInput!) { secretCreate(input: $input) { id name } }';

function expectGqlRefusal(answer: Answer, field: string, what: string): void {
  expectStatus(answer, 200, what);
  const messages = ((answer.body?.errors ?? []) as { message?: string }[]).map((e) => String(e.message));
  expect(messages.length > 0, `${what}: no errors[] entry`);
  expect(messages.some((m) => m.includes(field)), `${what}: no errors[] entry names ${field} (${errorsOf(answer)})`);
  expect(!answer.body?.data || Object.values(answer.body.data).every((v) => v === null), `${what}: data is not null`);
}

defineCheck('GQL-BOUNDS-001', async (ctx) => {
  const base = { name: ctx.name('gtpl'), imageName: 'x:1', containerDiskInGb: 10, volumeInGb: 0 };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...base, name: 'n'.repeat(ctx.value<number>('nameMaxLength') + 1) }, 'name'],
    [{ ...base, containerDiskInGb: ctx.value<number>('containerDiskInGbMax') + 1 }, 'containerDiskInGb'],
    [{ ...base, env: Array.from({ length: ctx.value<number>('envMaxItems') + 1 }, (_, i) => ({ key: `K${i}`, value: 'v' })) }, 'env'],
  ];
  await restStoresNothing(ctx, 'saveTemplate beyond the bounds', async () => {
    for (const [input, field] of cases) expectGqlRefusal(await ctx.gql(SAVE, { input }), field, `saveTemplate ${field} beyond its bound`);
  });
  expectGqlRefusal(await ctx.gql(SECRET, { input: { name: 'n'.repeat(ctx.value<number>('nameMaxLength') + 1), value: ctx.secret('secret value') } }), 'name', 'secretCreate name beyond its bound');
}, { needs: REST_VIEW });

/** Runs `body` with one of the embedded mock's ceilings lowered, restoring it whatever happens. */
async function withLimits<T>(ctx: Ctx, lowered: Record<string, number>, body: () => Promise<T>): Promise<T> {
  const limits = ctx.target.embedded!.core.options.limits as unknown as Record<string, number>;
  const saved = { ...limits };
  Object.assign(limits, lowered);
  try {
    return await body();
  } finally {
    Object.assign(limits, saved);
  }
}

function expectRetryLater(answer: Answer, status: number, what: string): void {
  expectStatus(answer, status, what);
  expect(/^\d+$/.test(answer.headers.get('retry-after') ?? ''), `${what}: no Retry-After of whole seconds`);
  expect(typeof answer.body?.message === 'string' && answer.body.message !== '', `${what}: error body lacks a message`);
}

defineCheck('QUEUE-CAPACITY-001', async (ctx) => {
  const engine = ctx.target.embedded!.core.engine;
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  await withLimits(ctx, { maxJobsPerEndpoint: 2 }, async () => {
    for (let i = 0; i < 2; i++) await ctx.run(endpointId, { durationMs: 0 });
    expectRetryLater(await ctx.queue(endpointId, 'runJob', { body: { input: {} } }), 429, 'runJob on an endpoint at its stored-job ceiling');
    expectRetryLater(await ctx.queue(endpointId, 'runJobSync', { body: { input: {} }, query: { wait: 1_000 } }), 429, 'runJobSync on an endpoint at its stored-job ceiling');
    expectEqual((await ctx.queue(endpointId, 'getHealth')).body.jobs.inQueue, 2, 'queued jobs after the refused submissions');
    expectStatus(await ctx.queue(endpointId, 'purgeQueue'), 200, 'purgeQueue');
    await ctx.run(endpointId, { durationMs: 0 }); // room again once jobs are deleted
  });
  const other = await ctx.endpoint({ workersMax: 0 });
  await withLimits(ctx, { maxJobsTotal: engine.jobCount }, async () => {
    expectRetryLater(await ctx.queue(other, 'runJob', { body: { input: {} } }), 429, 'runJob while the service stores its total ceiling of jobs');
  });
  return 'checked in-process with lowered ceilings (per endpoint 2, total = jobs stored)';
}, { requires: ['embedded'] });

defineCheck('CAPACITY-HEAP-001', async (ctx) => {
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  const templateId = await ctx.sharedTemplate();
  await withLimits(ctx, { heapLimitBytes: 0 }, async () => {
    await storesNothing(ctx, 'creates at the memory ceiling', async () => {
      expectRetryLater(await ctx.rest('createTemplate', { body: { name: ctx.name('tpl'), imageName: 'x:1' } }), 503, 'createTemplate at the memory ceiling');
      expectRetryLater(await ctx.rest('createEndpoint', { body: { templateId } }), 503, 'createEndpoint at the memory ceiling');
      expectRetryLater(await ctx.rest('createNetworkVolume', { body: { name: ctx.name('v'), size: 10, dataCenterId: 'EU-RO-1' } }), 503, 'createNetworkVolume at the memory ceiling');
      expectRetryLater(await ctx.queue(endpointId, 'runJob', { body: { input: {} } }), 503, 'runJob at the memory ceiling');
      const gql = await ctx.gql(SAVE, { input: { name: ctx.name('g'), imageName: 'x:1', containerDiskInGb: 10, volumeInGb: 0 } });
      expect(Array.isArray(gql.body?.errors) && gql.body.errors.length > 0 && !gql.body.data?.saveTemplate, `saveTemplate at the memory ceiling was not refused (${errorsOf(gql)})`);
    });
    // Reads keep working.
    expectStatus(await ctx.rest('listTemplates'), 200, 'listTemplates at the memory ceiling');
    expectEqual((await ctx.queue(endpointId, 'getHealth')).body.jobs.inQueue, 0, 'jobs stored at the memory ceiling');
  });
  expectStatus(await ctx.queue(endpointId, 'runJob', { body: { input: {} } }), 200, 'runJob once below the ceiling again');
  return 'checked in-process with the heap ceiling lowered to 0 bytes';
}, { needs: ['restV1', 'queueV2', 'graphql'], requires: ['embedded'] });
