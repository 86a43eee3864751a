// REST v2 serverless endpoints, their workers and releases: RESTV2-ENDPOINT-*, RESTV2-WORKERS-*,
// RESTV2-RELEASE-*.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { expectProblem } from './rest-v2-core.js';

const UNKNOWN = 'cc-unknown-id-404';
const POOL = 'ADA_24';

/** A REST v2 endpoint (deleted after the check); its create answer. */
async function v2Endpoint(ctx: Ctx, overrides: Record<string, unknown> = {}): Promise<any> {
  const created = await ctx.v2('createEndpoint', {
    body: {
      name: ctx.name('v2ep'), type: 'QUEUE', image: ctx.target.workerImage, gpu: { pools: [POOL] },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 0, max: 1 }, ...overrides,
    },
  });
  expectStatus(created, 201, 'createEndpoint (REST v2)');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteEndpoint', { path: { id } }));
  return created.body;
}

const endpointIds = async (ctx: Ctx): Promise<string[]> => {
  const list = await ctx.v2('listEndpoints');
  expectStatus(list, 200, 'listEndpoints');
  return (list.body.endpoints as { id: string }[]).map((e) => e.id);
};

defineCheck('RESTV2-ENDPOINT-001', async (ctx) => {
  const created = await v2Endpoint(ctx, { workers: undefined });
  const want = { workers: { min: ctx.value<number>('workersMin'), max: ctx.value<number>('workersMax'), idleTimeout: ctx.value<number>('idleTimeout') }, timeout: ctx.value<number>('timeout'), flashboot: ctx.value<string>('flashboot'), type: 'QUEUE' };
  for (const [k, v] of Object.entries(want)) expectEqual(created[k], v, `createEndpoint default ${k}`);
  expectEqual(created.gpu?.pools, [POOL], 'createEndpoint gpu.pools');
  const got = await ctx.v2('getEndpoint', { path: { id: created.id } });
  expectStatus(got, 200, 'getEndpoint');
  expectEqual(got.body, created, 'getEndpoint after create');
  expect((await endpointIds(ctx)).includes(created.id), 'listEndpoints lacks the new endpoint');
  const patched = await ctx.v2('updateEndpoint', { path: { id: created.id }, body: { workers: { max: 2 }, flashboot: 'FLASHBOOT' } });
  expectStatus(patched, 200, 'updateEndpoint');
  expectEqual(patched.body, { ...created, workers: { ...created.workers, max: 2 }, flashboot: 'FLASHBOOT' }, 'endpoint after PATCH {workers: {max: 2}, flashboot}');
  expectStatus(await ctx.v2('deleteEndpoint', { path: { id: created.id } }), 204, 'deleteEndpoint');
  expectProblem(await ctx.v2('getEndpoint', { path: { id: created.id } }), 404, 'getEndpoint after delete');
});

defineCheck('RESTV2-ENDPOINT-002', async (ctx) => {
  const before = await endpointIds(ctx);
  const base = { name: ctx.name('bad'), type: 'QUEUE', image: 'cc/x:1', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } };
  const cases: [string, Record<string, unknown>, number][] = [
    ['neither gpu nor cpu (and no templateId)', base, 400],
    ['both gpu and cpu', { ...base, gpu: { pools: [POOL] }, cpu: [{ id: 'cpu3c', vcpuCount: 2 }] }, 400],
    ['allowedCudaVersions beside minCudaVersion', { ...base, gpu: { pools: [POOL], allowedCudaVersions: ['12.8'], minCudaVersion: '12.4' } }, 400],
    ['a template that does not exist', { ...base, image: undefined, templateId: UNKNOWN, gpu: { pools: [POOL] } }, 404],
    ['a network volume that does not exist', { ...base, gpu: { pools: [POOL] }, networkVolumes: [UNKNOWN] }, 404],
  ];
  for (const [what, body, status] of cases) expectProblem(await ctx.v2('createEndpoint', { body }), status, `createEndpoint with ${what}`);
  expectEqual((await endpointIds(ctx)).length, before.length, 'endpoints after the refused creates');
  const gpu = await v2Endpoint(ctx);
  expectProblem(await ctx.v2('updateEndpoint', { path: { id: gpu.id }, body: { cpu: [{ id: 'cpu3c', vcpuCount: 2 }] } }), 400, 'updateEndpoint sending cpu to a GPU endpoint');
  const cpu = await v2Endpoint(ctx, { gpu: undefined, cpu: [{ id: 'cpu3c', vcpuCount: 2 }] });
  expectProblem(await ctx.v2('updateEndpoint', { path: { id: cpu.id }, body: { gpu: { count: 2 } } }), 400, 'updateEndpoint sending gpu to a CPU endpoint');
  expectEqual((await ctx.v2('getEndpoint', { path: { id: cpu.id } })).body, cpu, 'CPU endpoint after the refused update');
});

defineCheck('RESTV2-ENDPOINT-003', async (ctx) => {
  const before = await endpointIds(ctx);
  const base = { name: ctx.name('bad'), type: 'QUEUE', image: 'cc/x:1', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, gpu: { pools: [POOL] } };
  const workers = await ctx.v2('createEndpoint', { body: { ...base, workers: { min: 3, max: 1 } } });
  expectProblem(workers, ctx.value<number>('workers'), 'createEndpoint with workers.min above workers.max');
  expect((workers.body.errors ?? []).some((e: string) => e.startsWith('/body/workers/min')), `createEndpoint workers errors ${JSON.stringify(workers.body.errors)} do not name /body/workers/min`);
  const cases: [string, Record<string, unknown>, string][] = [
    ['a GPU pool', { ...base, gpu: { pools: ['CC_NO_SUCH_POOL'] } }, '/body/gpu/pools/0'],
    ['a CPU flavour', { ...base, gpu: undefined, cpu: [{ id: 'cc-no-such-cpu', vcpuCount: 2 }] }, '/body/cpu/0/id'],
    ['a data centre', { ...base, dataCenterIds: ['CC-NO-1'] }, '/body/dataCenterIds/0'],
  ];
  for (const [what, body, path] of cases) {
    const answer = await ctx.v2('createEndpoint', { body });
    expectProblem(answer, ctx.value<number>('notInCatalog'), `createEndpoint with ${what} the catalog does not list`);
    expect((answer.body.errors ?? []).some((e: string) => e.startsWith(path)), `createEndpoint errors ${JSON.stringify(answer.body.errors)} do not name ${path}`);
  }
  expectEqual((await endpointIds(ctx)).length, before.length, 'endpoints after the refused creates');
  const ep = await v2Endpoint(ctx, { workers: { min: 1, max: 2 } });
  expectProblem(await ctx.v2('updateEndpoint', { path: { id: ep.id }, body: { workers: { max: 0 } } }), ctx.value<number>('workers'), 'updateEndpoint lowering workers.max below workers.min');
  expectEqual((await ctx.v2('getEndpoint', { path: { id: ep.id } })).body.workers, ep.workers, 'workers after the refused update');
});

defineCheck('RESTV2-ENDPOINT-004', async (ctx) => {
  const templateId = await ctx.sharedTemplate();
  const v1 = await ctx.rest('createEndpoint', {
    body: { name: ctx.name('v1ep'), templateId, workersMin: 0, workersMax: 2, idleTimeout: 6, scalerType: 'REQUEST_COUNT', scalerValue: 3, executionTimeoutMs: 90_000, gpuTypeIds: ['NVIDIA GeForce RTX 4090'] },
  });
  expectStatus(v1, 200, 'createEndpoint (REST v1)');
  const id = String(v1.body.id);
  ctx.cleanup(() => ctx.rest('deleteEndpoint', { path: { endpointId: id } }));
  const v2 = await ctx.v2('getEndpoint', { path: { id } });
  expectStatus(v2, 200, 'getEndpoint (REST v2) of a REST v1 endpoint');
  const want = { workers: { min: 0, max: 2, idleTimeout: 6 }, scaling: { type: 'REQUEST_COUNT', requestCount: 3 }, timeout: 90_000 };
  for (const [k, v] of Object.entries(want)) expectEqual(v2.body[k], v, `REST v2 ${k} of a REST v1 endpoint`);
  expectEqual(v2.body.gpu?.pools, [POOL], 'REST v2 gpu.pools of a REST v1 endpoint on an RTX 4090');
  expect((await endpointIds(ctx)).includes(id), 'listEndpoints (REST v2) lacks the REST v1 endpoint');
  expectStatus(await ctx.v2('updateEndpoint', { path: { id }, body: { workers: { max: 3 }, timeout: 120_000 } }), 200, 'updateEndpoint (REST v2)');
  const back = await ctx.rest('getEndpoint', { path: { endpointId: id } });
  expectEqual([back.body.workersMax, back.body.executionTimeoutMs], [3, 120_000], 'REST v1 workersMax/executionTimeoutMs after the REST v2 update');
  const made = await v2Endpoint(ctx, { workers: { min: 0, max: 2, idleTimeout: 9 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 6 } });
  const seen = await ctx.rest('getEndpoint', { path: { endpointId: made.id } });
  expectStatus(seen, 200, 'getEndpoint (REST v1) of a REST v2 endpoint');
  expectEqual([seen.body.workersMin, seen.body.workersMax, seen.body.idleTimeout, seen.body.scalerType, seen.body.scalerValue], [0, 2, 9, 'QUEUE_DELAY', 6], 'REST v1 view of a REST v2 endpoint');
}, { needs: ['restV1', 'restV2'] });

defineCheck('RESTV2-ENDPOINT-005', async (ctx) => {
  const own = await v2Endpoint(ctx, { env: { CC: '1' } });
  const v1 = await ctx.rest('getEndpoint', { path: { endpointId: own.id } });
  expectStatus(v1, 200, 'getEndpoint (REST v1) of a REST v2 endpoint');
  const bound = String(v1.body.templateId);
  const template = await ctx.v2('getTemplate', { path: { id: bound } });
  expectStatus(template, 200, 'getTemplate of the endpoint\'s own template');
  expectEqual([template.body.image, template.body.env], [own.image, { CC: '1' }], 'the endpoint\'s own template');
  const listed = async (query: Record<string, string>) => ((await ctx.rest('listTemplates', { query })).body as { id: string }[]).map((t) => t.id);
  expect(!(await listed({})).includes(bound), 'REST v1 listTemplates lists the endpoint\'s own template without includeEndpointBoundTemplates');
  expect((await listed({ includeEndpointBoundTemplates: 'true' })).includes(bound), 'REST v1 listTemplates?includeEndpointBoundTemplates=true lacks the endpoint\'s own template');
  expectStatus(await ctx.v2('deleteEndpoint', { path: { id: own.id } }), 204, 'deleteEndpoint');
  expectProblem(await ctx.v2('getTemplate', { path: { id: bound } }), 404, 'getTemplate of the endpoint\'s own template after deleteEndpoint');
  const shared = await ctx.v2('createTemplate', { body: { name: ctx.name('shared'), image: 'cc/shared:1', disk: 11, serverless: true } });
  expectStatus(shared, 201, 'createTemplate (shared)');
  ctx.cleanup(() => ctx.v2('deleteTemplate', { path: { id: shared.body.id } }));
  const user = await v2Endpoint(ctx, { image: undefined, templateId: shared.body.id });
  expectEqual([user.image, user.disk], ['cc/shared:1', 11], 'container settings of an endpoint made from templateId alone');
  expectStatus(await ctx.v2('deleteEndpoint', { path: { id: user.id } }), 204, 'deleteEndpoint');
  expectStatus(await ctx.v2('getTemplate', { path: { id: shared.body.id } }), 200, 'getTemplate of the referenced template after deleteEndpoint');
}, { needs: ['restV1'] });

const STATES = { running: 'RUNNING', idle: 'IDLE', initializing: 'INITIALIZING', throttled: 'THROTTLED', unhealthy: 'UNHEALTHY' } as const;

defineCheck('RESTV2-WORKERS-001', async (ctx) => {
  const ep = await v2Endpoint(ctx, { workers: { min: 1, max: 1 } });
  const answer = await ctx.eventually('a worker of the workers.min 1 endpoint', async () => {
    const a = await ctx.v2('listEndpointWorkers', { path: { id: ep.id } });
    expectStatus(a, 200, 'listEndpointWorkers');
    return a.body.workers.length > 0 ? a.body : undefined;
  }, 30_000);
  const summary = answer.summary as Record<string, number>;
  const sum = Object.keys(STATES).reduce((s, k) => s + summary[k]!, 0);
  expectEqual(sum, summary['total'], 'summary states add up to total');
  for (const [key, status] of Object.entries(STATES)) {
    if (key === 'throttled') continue;
    expectEqual(answer.workers.filter((w: { status: string }) => w.status === status).length, summary[key], `summary.${key} against the listed workers`);
  }
  const releases = await ctx.v2('listEndpointReleases', { path: { id: ep.id } });
  expectEqual(answer.workers[0].version, releases.body.endpointVersion, 'worker version against endpointVersion');
  expectEqual(answer.workers[0].isStale, false, 'isStale of a worker on the current release');
  expectProblem(await ctx.v2('listEndpointWorkers', { path: { id: UNKNOWN } }), 404, 'listEndpointWorkers of an unknown endpoint');
}, { needs: ['jobs'] });

defineCheck('RESTV2-WORKERS-002', async (ctx) => {
  const core = ctx.target.embedded!.core;
  const ep = await v2Endpoint(ctx, { workers: { min: 2, max: 2 } });
  const catalog = await ctx.v2('listGpuTypes');
  const gpus = (catalog.body.gpus as { id: string; pool: string | null }[]).filter((g) => g.pool === POOL).map((g) => g.id);
  const saved = [...core.unavailableGpuTypes];
  try {
    await ctx.eventually('2 workers', async () => ((await ctx.v2('listEndpointWorkers', { path: { id: ep.id } })).body.workers.length === 2 ? true : undefined));
    for (const gpu of gpus) core.unavailableGpuTypes.add(gpu);
    // The endpoint now wants a third worker it cannot place.
    expectStatus(await ctx.v2('updateEndpoint', { path: { id: ep.id }, body: { workers: { min: 3, max: 3 } } }), 200, 'updateEndpoint workers.min 3');
    const answer = await ctx.eventually('a throttled worker', async () => {
      const a = await ctx.v2('listEndpointWorkers', { path: { id: ep.id } });
      return a.body.summary.throttled > 0 ? a.body : undefined;
    });
    expectEqual([answer.summary.throttled, answer.summary.total, answer.workers.length], [1, 3, 2], 'throttled, total and listed workers with no GPU capacity');
  } finally {
    core.unavailableGpuTypes.clear();
    for (const gpu of saved) core.unavailableGpuTypes.add(gpu);
  }
  return 'checked against the embedded mock with its GPU types made unavailable in-process';
}, { requires: ['embedded'], needs: ['jobs'] });

defineCheck('RESTV2-RELEASE-001', async (ctx) => {
  const ep = await v2Endpoint(ctx);
  const releases = async () => {
    const a = await ctx.v2('listEndpointReleases', { path: { id: ep.id } });
    expectStatus(a, 200, 'listEndpointReleases');
    return a.body;
  };
  const first = await releases();
  expectStatus(await ctx.v2('updateEndpoint', { path: { id: ep.id }, body: { name: ctx.name('renamed'), workers: { max: 2 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 2 } } }), 200, 'updateEndpoint (name, workers, scaling)');
  const same = await releases();
  expectEqual([same.endpointVersion, same.releases.length], [first.endpointVersion, first.releases.length], 'releases after a name/workers/scaling change');
  expectStatus(await ctx.v2('updateEndpoint', { path: { id: ep.id }, body: { image: 'cc/next:2', env: { CC_RELEASE: 'yes' } } }), 200, 'updateEndpoint (image, env)');
  const next = await releases();
  expectEqual(next.endpointVersion, first.endpointVersion + 1, 'endpointVersion after an image change');
  const latest = next.releases[0];
  expectEqual(latest.version, next.endpointVersion, 'the newest release is listed first');
  const diff = new Map((latest.diff as { field: string; old: unknown; new: unknown }[]).map((d) => [d.field, d]));
  expectEqual([diff.get('image')?.old, diff.get('image')?.new], [ep.image, 'cc/next:2'], 'diff of image');
  expectEqual((diff.get('env')?.new as Record<string, string> | undefined)?.['CC_RELEASE'], 'yes', 'diff of env');
});

defineCheck('RESTV2-RELEASE-002', async (ctx) => {
  const max = ctx.value<number>('maxReleases');
  const ep = await v2Endpoint(ctx);
  for (let i = 1; i <= max + 1; i++) expectStatus(await ctx.v2('updateEndpoint', { path: { id: ep.id }, body: { env: { CC_STEP: String(i) } } }), 200, `updateEndpoint #${i}`);
  const answer = await ctx.v2('listEndpointReleases', { path: { id: ep.id } });
  const versions = (answer.body.releases as { version: number }[]).map((r) => r.version);
  expectEqual(versions.length, max, 'releases kept');
  expectEqual(versions[0], answer.body.endpointVersion, 'newest release first');
  expect(versions.every((v, i) => i === 0 || v === versions[i - 1]! - 1), `release versions ${versions.join(',')} are not newest first and consecutive`);
});

defineCheck('RESTV2-RELEASE-003', async (ctx) => {
  const ep = await v2Endpoint(ctx, { workers: { min: 1, max: 1 } });
  const workers = async () => (await ctx.v2('listEndpointWorkers', { path: { id: ep.id } })).body;
  const jobId = await ctx.run(ep.id, { durationMs: 20_000 }, { policy: { executionTimeout: 60_000 } });
  await ctx.eventually('a RUNNING worker', async () => ((await workers()).summary.running === 1 ? true : undefined));
  expectStatus(await ctx.v2('updateEndpoint', { path: { id: ep.id }, body: { image: 'cc/rollout:2' } }), 200, 'updateEndpoint (image)');
  const busy = await workers();
  expectEqual([busy.workers[0]?.isStale, busy.workers[0]?.image], [true, ep.image], 'the busy worker after the release');
  const during = await ctx.v2('listEndpointReleases', { path: { id: ep.id } });
  expectEqual(during.body.rollout.inProgress, true, 'rollout.inProgress while the busy worker runs the old release');
  await ctx.pass(20_000);
  await ctx.waitForStatus(ep.id, jobId, ['COMPLETED']);
  const done = await ctx.eventually('rollout to finish', async () => {
    const a = await ctx.v2('listEndpointReleases', { path: { id: ep.id } });
    return a.body.rollout.percentOnLatest === 100 && a.body.rollout.workersTotal > 0 ? a.body : undefined;
  });
  expectEqual(done.rollout.inProgress, false, 'rollout.inProgress after the job');
  const after = await workers();
  expectEqual([after.workers[0]?.isStale, after.workers[0]?.image], [false, 'cc/rollout:2'], 'the worker after the rollout');
}, { needs: ['queueV2', 'jobs'], realWaitMs: 20_000 });
