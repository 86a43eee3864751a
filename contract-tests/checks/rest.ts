// REST v1 CRUD round trips, shared decisions and errors: REST-CRUD-*, REST-ERROR-*, REST-POD-*,
// REST-ENDPOINT-*, REST-TEMPLATE-*, REST-VOLUME-*.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { restDelete, restRead } from './rest-view.js';

const has = (list: unknown, id: string) => Array.isArray(list) && list.some((x: { id?: string }) => x.id === id);

async function expectError(ctx: Ctx, answer: { status: number; body: any }, status: number, what: string) {
  expectStatus(answer as never, status, what);
  expect(typeof answer.body?.message === 'string' && answer.body.message.length > 0, `${what}: error body lacks a message`);
}

const LISTS = ['listTemplates', 'listEndpoints', 'listNetworkVolumes', 'listContainerRegistryAuths'] as const;

async function listedIds(ctx: Ctx): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const op of LISTS) {
    const answer = await ctx.rest(op);
    expectStatus(answer, 200, `${op} (state snapshot)`);
    for (const item of answer.body as { id: string }[]) ids.add(`${op}:${item.id}`);
  }
  return ids;
}

/** Runs rejected requests and checks they created nothing (ids new in any list after them). */
async function createsNothing(ctx: Ctx, what: string, rejected: () => Promise<void>): Promise<void> {
  const before = await listedIds(ctx);
  await rejected();
  const added = [...(await listedIds(ctx))].filter((id) => !before.has(id));
  expect(added.length === 0, `${what} stored something: ${added.join(', ')}`);
}

defineCheck('REST-CRUD-001', async (ctx) => {
  for (const op of ctx.rule.operations ?? []) {
    const answer = await ctx.rest(op);
    expectStatus(answer, 200, op);
    expect(Array.isArray(answer.body), `${op} did not answer a bare JSON array`);
  }
});

defineCheck('REST-CRUD-002', async (ctx) => {
  const unknown = 'cc-unknown-id-404';
  const cases: [string, Record<string, string>, unknown?][] = [
    ['getPod', { podId: unknown }], ['updatePod', { podId: unknown }, { name: 'x' }], ['updatePodViaPost', { podId: unknown }, { name: 'x' }],
    ['deletePod', { podId: unknown }], ['startPod', { podId: unknown }], ['stopPod', { podId: unknown }],
    ['resetPod', { podId: unknown }], ['restartPod', { podId: unknown }],
    ['getEndpoint', { endpointId: unknown }], ['updateEndpoint', { endpointId: unknown }, { name: 'x' }],
    ['updateEndpointViaPost', { endpointId: unknown }, { name: 'x' }], ['deleteEndpoint', { endpointId: unknown }],
    ['getTemplate', { templateId: unknown }], ['updateTemplate', { templateId: unknown }, { name: 'x' }],
    ['updateTemplateViaPost', { templateId: unknown }, { name: 'x' }], ['deleteTemplate', { templateId: unknown }],
    ['getNetworkVolume', { networkVolumeId: unknown }], ['updateNetworkVolume', { networkVolumeId: unknown }, { name: 'x' }],
    ['updateNetworkVolumeViaPost', { networkVolumeId: unknown }, { name: 'x' }], ['deleteNetworkVolume', { networkVolumeId: unknown }],
  ];
  for (const [op, path, body] of cases) await expectError(ctx, await ctx.rest(op, { path, body }), 404, `${op} of an unknown id`);
}, { shares: [] });

defineCheck('REST-CRUD-003', async (ctx) => {
  const templateId = await ctx.sharedTemplate();
  const cases: [string, Record<string, string> | undefined, Record<string, unknown>][] = [
    ['createTemplate', undefined, { name: ctx.name('x'), imageName: 'x:1', ccUnknownField: 1 }],
    ['createEndpoint', undefined, { templateId, ccUnknownField: 1 }],
    ['updateTemplate', { templateId }, { ccUnknownField: 1 }],
    ['createContainerRegistryAuth', undefined, { name: ctx.name('x'), username: 'u', password: ctx.secret('registry password'), ccUnknownField: 1 }],
  ];
  const templateBefore = (await ctx.rest('getTemplate', { path: { templateId } })).body;
  await createsNothing(ctx, 'requests with an unknown property', async () => {
    for (const [op, path, body] of cases) {
      const answer = await ctx.rest(op, { path, body });
      await expectError(ctx, answer, 400, `${op} with an unknown property`);
      const errors = answer.body?.errors as { path?: string }[] | undefined;
      expect(errors?.some((e) => String(e.path).includes('ccUnknownField')), `${op}: errors[] does not point at /body/ccUnknownField`);
    }
  });
  expectEqual((await ctx.rest('getTemplate', { path: { templateId } })).body, templateBefore, 'template after a rejected updateTemplate');
});

defineCheck('REST-CRUD-004', async (ctx) => {
  const templateId = await ctx.sharedTemplate();
  await createsNothing(ctx, 'malformed or wrongly typed creates', async () => {
    for (const op of ['createTemplate', 'createEndpoint', 'createNetworkVolume']) {
      await expectError(ctx, await ctx.rest(op, { rawBody: '{"name": ' }), 400, `${op} with malformed JSON`);
    }
    await expectError(ctx, await ctx.rest('createTemplate', { body: { name: 42, imageName: 'x:1' } }), 400, 'createTemplate with name a number');
    await expectError(ctx, await ctx.rest('createNetworkVolume', { body: { name: 'v', size: 'big', dataCenterId: 'EU-RO-1' } }), 400, 'createNetworkVolume with size a string');
    await expectError(ctx, await ctx.rest('createEndpoint', { body: { templateId, workersMax: '3' } }), 400, 'createEndpoint with workersMax a string');
  });
});

defineCheck('REST-CRUD-005', async (ctx) => {
  await ctx.pod(); // asserts 201
  await ctx.template(); // asserts 200
  await ctx.endpoint();
  await ctx.volume();
  await ctx.registryAuth();
}, { shares: [] });

defineCheck('REST-CRUD-006', async (ctx) => {
  const pod = await ctx.rest('createPod', { body: { name: ctx.name('pod'), imageName: ctx.target.workerImage } });
  expectStatus(pod, 201, 'createPod');
  const ep = await ctx.rest('createEndpoint', { body: { name: ctx.name('ep'), templateId: await ctx.sharedTemplate() } });
  expectStatus(ep, 200, 'createEndpoint');
  const tpl = await ctx.rest('createTemplate', { body: { name: ctx.name('tpl'), imageName: ctx.target.workerImage } });
  expectStatus(tpl, 200, 'createTemplate');
  const vol = await ctx.rest('createNetworkVolume', { body: { name: ctx.name('vol'), size: 10, dataCenterId: 'EU-RO-1' } });
  expectStatus(vol, 200, 'createNetworkVolume');
  const auth = await ctx.rest('createContainerRegistryAuth', { body: { name: ctx.name('a'), username: 'u', password: ctx.secret('registry password') } });
  expectStatus(auth, 200, 'createContainerRegistryAuth');
  const deletes: [string, Record<string, string>][] = [
    ['deletePod', { podId: pod.body.id }], ['deleteEndpoint', { endpointId: ep.body.id }], ['deleteTemplate', { templateId: tpl.body.id }],
    ['deleteNetworkVolume', { networkVolumeId: vol.body.id }], ['deleteContainerRegistryAuth', { containerRegistryAuthId: auth.body.id }],
  ];
  for (const [op, path] of deletes) {
    const answer = await ctx.rest(op, { path });
    expectStatus(answer, 204, op);
    expect(answer.text === '', `${op} answered 204 with a body`);
  }
}, { shares: [] });

defineCheck('REST-ERROR-001', async (ctx) => {
  const answers = [
    await ctx.rest('getTemplate', { path: { templateId: 'cc-unknown' } }),
    await ctx.rest('createTemplate', { body: {} }),
    await ctx.rest('listPods', { key: null }),
    await ctx.rest('deleteContainerRegistryAuth', { path: { containerRegistryAuthId: 'cc-unknown' } }),
  ];
  for (const a of answers) {
    expect(a.status >= 400, `expected an error status, got ${a.status}`);
    expect(a.body && typeof a.body.message === 'string' && a.body.message.length > 0, `${a.status} answer lacks {message}`);
    if (a.body.errors !== undefined) expect(Array.isArray(a.body.errors), `${a.status} answer has errors that is not an array`);
  }
}, { shares: [] });

defineCheck('REST-ERROR-002', async (ctx) => {
  const answer = await ctx.rest('createNetworkVolume', { body: { size: -1, ccExtra: true } });
  await expectError(ctx, answer, 400, 'createNetworkVolume with three problems');
  const paths = ((answer.body.errors ?? []) as { path: string; message: string }[]).map((e) => e.path);
  for (const e of answer.body.errors ?? []) {
    expect(typeof e.path === 'string' && e.path.startsWith('/'), `errors[] entry path ${JSON.stringify(e.path)} is not a JSON Pointer`);
    expect(typeof e.message === 'string' && e.message !== '', 'errors[] entry without message');
  }
  for (const want of ['size', 'ccExtra']) expect(paths.some((p) => p.includes(want)), `errors[] does not list ${want} (got ${paths.join(', ')})`);
  expect(paths.some((p) => p.includes('name') || p === '/body'), `errors[] does not list the missing name (got ${paths.join(', ')})`);
}, { shares: [] });

// ---- pods ----------------------------------------------------------------------------------------

defineCheck('REST-POD-001', async (ctx) => {
  const pod = await ctx.pod();
  expect(typeof pod.id === 'string' && pod.id !== '', 'createPod answered no id');
  expectEqual(pod.desiredStatus, ctx.value('desiredStatus'), 'createPod desiredStatus');
}, { shares: [] });

defineCheck('REST-POD-002', async (ctx) => {
  const pod = await ctx.pod();
  const got = await ctx.rest('getPod', { path: { podId: pod.id } });
  expectStatus(got, 200, 'getPod');
  for (const k of ['id', 'name', 'imageName']) expectEqual(got.body[k], pod[k], `getPod ${k}`);
  expect(has((await ctx.rest('listPods')).body, pod.id), 'listPods does not contain the created pod');
}, { shares: [] });

async function updateRoundTrip(ctx: Ctx, kind: { create: () => Promise<any>; get: string; patch: string; post: string; param: string }, field: string, values: [unknown, unknown]) {
  const a = await kind.create();
  const viaPatch = await ctx.rest(kind.patch, { path: { [kind.param]: a.id }, body: { [field]: values[0] } });
  expectStatus(viaPatch, 200, kind.patch);
  expectEqual(viaPatch.body[field], values[0], `${kind.patch} answer ${field}`);
  const after = await ctx.rest(kind.get, { path: { [kind.param]: a.id } });
  expectEqual(after.body[field], values[0], `${kind.get} after ${kind.patch}: ${field}`);
  for (const [k, v] of Object.entries(a)) if (k !== field && typeof v !== 'object' && !/status|At$|Time|version/i.test(k)) expectEqual(after.body[k], v, `${kind.patch} changed ${k} it was not given`);
  const viaPost = await ctx.rest(kind.post, { path: { [kind.param]: a.id }, body: { [field]: values[1] } });
  expectStatus(viaPost, 200, kind.post);
  expectEqual(viaPost.body[field], values[1], `${kind.post} answer ${field}`);
  const again = await ctx.rest(kind.get, { path: { [kind.param]: a.id } });
  expectEqual(again.body[field], values[1], `${kind.get} after ${kind.post}: ${field}`);
  const { [field]: _a, ...restPatch } = viaPatch.body;
  const { [field]: _b, ...restPost } = viaPost.body;
  for (const k of Object.keys(restPatch)) if (!/At$|Time|status|version/i.test(k)) expectEqual(restPost[k], restPatch[k], `${kind.post} vs ${kind.patch}: ${k}`);
}

const pods = (ctx: Ctx) => ({ create: () => ctx.pod(), get: 'getPod', patch: 'updatePod', post: 'updatePodViaPost', param: 'podId' });
const endpoints = (ctx: Ctx) => ({ create: async () => (await ctx.rest('getEndpoint', { path: { endpointId: await ctx.endpoint() } })).body, get: 'getEndpoint', patch: 'updateEndpoint', post: 'updateEndpointViaPost', param: 'endpointId' });
const templates = (ctx: Ctx) => ({ create: async () => (await ctx.template()).body, get: 'getTemplate', patch: 'updateTemplate', post: 'updateTemplateViaPost', param: 'templateId' });
const volumes = (ctx: Ctx) => ({ create: () => ctx.volume(), get: 'getNetworkVolume', patch: 'updateNetworkVolume', post: 'updateNetworkVolumeViaPost', param: 'networkVolumeId' });

defineCheck('REST-POD-003', (ctx) => updateRoundTrip(ctx, pods(ctx), 'name', [ctx.name('renamed'), ctx.name('renamed')]), { shares: [] });
defineCheck('REST-POD-004', (ctx) => updateRoundTrip(ctx, pods(ctx), 'containerDiskInGb', [60, 70]), { shares: [] });

async function podAction(ctx: Ctx, action: string, before: 'RUNNING' | 'EXITED', after: string) {
  const pod = await ctx.pod();
  if (before === 'EXITED') expectStatus(await ctx.rest('stopPod', { path: { podId: pod.id } }), 200, 'stopPod');
  const answer = await ctx.rest(action, { path: { podId: pod.id } });
  expectStatus(answer, 200, action);
  const got = await ctx.rest('getPod', { path: { podId: pod.id } });
  expectEqual(got.body.desiredStatus, after, `desiredStatus after ${action}`);
}
defineCheck('REST-POD-005', (ctx) => podAction(ctx, 'stopPod', 'RUNNING', 'EXITED'), { shares: [] });
defineCheck('REST-POD-006', (ctx) => podAction(ctx, 'startPod', 'EXITED', 'RUNNING'), { shares: [] });
// reset/restart from either state: an EXITED pod is started (the spec states no refusal).
defineCheck('REST-POD-007', async (ctx) => {
  for (const before of ['RUNNING', 'EXITED'] as const) await podAction(ctx, 'resetPod', before, 'RUNNING');
}, { shares: [] });
defineCheck('REST-POD-008', async (ctx) => {
  for (const before of ['RUNNING', 'EXITED'] as const) await podAction(ctx, 'restartPod', before, 'RUNNING');
}, { shares: [] });

defineCheck('REST-POD-009', async (ctx) => {
  const pod = await ctx.pod();
  expectStatus(await ctx.rest('deletePod', { path: { podId: pod.id } }), 204, 'deletePod');
  expectStatus(await ctx.rest('getPod', { path: { podId: pod.id } }), 404, 'getPod after delete');
  expect(!has((await ctx.rest('listPods')).body, pod.id), 'listPods still contains the deleted pod');
}, { shares: [] });

// ---- endpoints ---------------------------------------------------------------------------------

defineCheck('REST-ENDPOINT-001', async (ctx) => {
  const templateId = await ctx.sharedTemplate();
  const body = { name: ctx.name('ep'), templateId, gpuTypeIds: ['NVIDIA A40', 'NVIDIA GeForce RTX 4090'], workersMin: 0, workersMax: 2, idleTimeout: 7 };
  const answer = await ctx.rest('createEndpoint', { body });
  expectStatus(answer, 200, 'createEndpoint');
  ctx.cleanup(() => ctx.rest('deleteEndpoint', { path: { endpointId: answer.body.id } }));
  expect(typeof answer.body.id === 'string' && answer.body.id !== '', 'createEndpoint answered no id');
  for (const [k, v] of Object.entries(body)) expectEqual(answer.body[k], v, `createEndpoint ${k}`);
}, { shares: [] });

defineCheck('REST-ENDPOINT-002', async (ctx) => {
  await expectError(ctx, await ctx.rest('createEndpoint', { body: { name: ctx.name('ep') } }), 400, 'createEndpoint without templateId');
  await expectError(ctx, await ctx.rest('createEndpoint', { body: { name: ctx.name('ep'), templateId: 'cc-no-such-template' } }), 400, 'createEndpoint with an unknown templateId');
}, { shares: [] });

defineCheck('REST-ENDPOINT-003', async (ctx) => {
  const id = await ctx.endpoint({ workersMax: 2 });
  const got = await ctx.rest('getEndpoint', { path: { endpointId: id } });
  expectStatus(got, 200, 'getEndpoint');
  expectEqual(got.body.id, id, 'getEndpoint id');
  expectEqual(got.body.workersMax, 2, 'getEndpoint workersMax');
  expect(has((await ctx.rest('listEndpoints')).body, id), 'listEndpoints does not contain the created endpoint');
}, { shares: [] });

defineCheck('REST-ENDPOINT-004', (ctx) => updateRoundTrip(ctx, endpoints(ctx), 'workersMax', [2, 3]), { shares: [] });
defineCheck('REST-ENDPOINT-005', (ctx) => updateRoundTrip(ctx, endpoints(ctx), 'idleTimeout', [9, 11]), { shares: [] });

// The seed's endpoint deletion, judged through REST v1 when given, else REST v2 (DELETE /serverless/{id}).
defineCheck('REST-ENDPOINT-006', async (ctx) => {
  const id = await ctx.endpoint({ workersMax: 0 });
  const jobId = await ctx.run(id, { durationMs: 0 });
  expectEqual(await restDelete(ctx, 'endpoint', id), 204, `${ctx.restSurface()} deleteEndpoint status`);
  expectEqual((await restRead(ctx, 'endpoint', id)).status, 404, 'getEndpoint status after delete');
  expectStatus(await ctx.queue(id, 'getJobStatus', { path: { jobId } }), 404, 'getJobStatus on the deleted endpoint');
  expectStatus(await ctx.queue(id, 'getHealth'), 404, 'getHealth on the deleted endpoint');
}, { shares: [], needs: ['rest', 'queueV2'] });

defineCheck('REST-ENDPOINT-007', async (ctx) => {
  const id = await ctx.endpoint();
  expectStatus(await ctx.queue(id, 'getHealth'), 200, 'getHealth of a new endpoint');
}, { shares: [], needs: ['rest', 'queueV2'] });

// ---- templates ---------------------------------------------------------------------------------

defineCheck('REST-TEMPLATE-001', async (ctx) => {
  const name = ctx.name('tpl');
  const t = await ctx.template({ name, imageName: 'repo/img:1.0' });
  expect(typeof t.body.id === 'string' && t.body.id !== '', 'createTemplate answered no id');
  expectEqual(t.body.name, name, 'createTemplate name');
  expectEqual(t.body.imageName, 'repo/img:1.0', 'createTemplate imageName');
}, { shares: [] });

defineCheck('REST-TEMPLATE-002', async (ctx) => {
  await expectError(ctx, await ctx.rest('createTemplate', { body: { imageName: 'x:1' } }), 400, 'createTemplate without name');
  await expectError(ctx, await ctx.rest('createTemplate', { body: { name: ctx.name('t') } }), 400, 'createTemplate without imageName');
}, { shares: [] });

defineCheck('REST-TEMPLATE-003', async (ctx) => {
  const t = await ctx.template();
  const before = ((await ctx.rest('listTemplates')).body as { name: string }[]).filter((x) => x.name === t.name).length;
  const dup = await ctx.rest('createTemplate', { body: { name: t.name, imageName: 'other:2' } });
  if (dup.status === 200) ctx.cleanup(() => ctx.rest('deleteTemplate', { path: { templateId: dup.body.id } }));
  await expectError(ctx, dup, 400, 'createTemplate with a duplicate name');
  const after = ((await ctx.rest('listTemplates')).body as { name: string }[]).filter((x) => x.name === t.name).length;
  expectEqual(after, before, 'templates with that name after the refused create');
}, { shares: [] });

defineCheck('REST-TEMPLATE-004', async (ctx) => {
  const t = await ctx.template();
  const got = await ctx.rest('getTemplate', { path: { templateId: t.id } });
  expectStatus(got, 200, 'getTemplate');
  for (const k of ['id', 'name', 'imageName']) expectEqual(got.body[k], t.body[k], `getTemplate ${k}`);
  expect(has((await ctx.rest('listTemplates')).body, t.id), 'listTemplates does not contain the created template');
}, { shares: [] });

defineCheck('REST-TEMPLATE-005', (ctx) => updateRoundTrip(ctx, templates(ctx), 'imageName', ['repo/a:2', 'repo/a:3']), { shares: [] });
defineCheck('REST-TEMPLATE-006', (ctx) => updateRoundTrip(ctx, templates(ctx), 'readme', ['# one', '# two']), { shares: [] });

defineCheck('REST-TEMPLATE-007', async (ctx) => {
  const created = await ctx.rest('createTemplate', { body: { name: ctx.name('tpl'), imageName: 'x:1' } });
  expectStatus(created, 200, 'createTemplate');
  expectStatus(await ctx.rest('deleteTemplate', { path: { templateId: created.body.id } }), 204, 'deleteTemplate of an unused template');
  expectStatus(await ctx.rest('getTemplate', { path: { templateId: created.body.id } }), 404, 'getTemplate after delete');
}, { shares: [] });

defineCheck('REST-TEMPLATE-008', async (ctx) => {
  const t = await ctx.template({ isServerless: true, volumeInGb: 0 });
  await ctx.endpoint({ templateId: t.id });
  await expectError(ctx, await ctx.rest('deleteTemplate', { path: { templateId: t.id } }), 400, 'deleteTemplate while an endpoint uses it');
  expectStatus(await ctx.rest('getTemplate', { path: { templateId: t.id } }), 200, 'getTemplate after the refused delete');
}, { shares: ['clock'] }); // the template's delete delay is let pass on the clock at cleanup

// ---- network volumes ------------------------------------------------------------------------------

defineCheck('REST-VOLUME-001', async (ctx) => {
  const name = ctx.name('vol');
  const v = await ctx.volume({ name, size: 25, dataCenterId: 'EU-RO-1' });
  expect(typeof v.id === 'string' && v.id !== '', 'createNetworkVolume answered no id');
  expectEqual([v.name, v.size, v.dataCenterId], [name, 25, 'EU-RO-1'], 'createNetworkVolume fields');
}, { shares: [] });

defineCheck('REST-VOLUME-002', async (ctx) => {
  const ok = { name: ctx.name('vol'), size: 10, dataCenterId: 'EU-RO-1' };
  await createsNothing(ctx, 'rejected createNetworkVolume calls', async () => {
    for (const missing of ['name', 'size', 'dataCenterId']) {
      const { [missing]: _, ...body } = ok as Record<string, unknown>;
      await expectError(ctx, await ctx.rest('createNetworkVolume', { body }), 400, `createNetworkVolume without ${missing}`);
    }
    for (const size of [ctx.value<number>('sizeMinGb') - 1, ctx.value<number>('sizeMaxGb') + 1]) {
      await expectError(ctx, await ctx.rest('createNetworkVolume', { body: { ...ok, size } }), 400, `createNetworkVolume size ${size}`);
    }
  });
});

defineCheck('REST-VOLUME-003', async (ctx) => {
  const v = await ctx.volume();
  const got = await ctx.rest('getNetworkVolume', { path: { networkVolumeId: v.id } });
  expectStatus(got, 200, 'getNetworkVolume');
  expectEqual(got.body, v, 'getNetworkVolume record');
  expect(has((await ctx.rest('listNetworkVolumes')).body, v.id), 'listNetworkVolumes does not contain the created volume');
}, { shares: [] });

defineCheck('REST-VOLUME-004', (ctx) => updateRoundTrip(ctx, volumes(ctx), 'size', [20, 30]), { shares: [] });
defineCheck('REST-VOLUME-005', (ctx) => updateRoundTrip(ctx, volumes(ctx), 'name', [ctx.name('v'), ctx.name('v')]), { shares: [] });

defineCheck('REST-VOLUME-006', async (ctx) => {
  const created = await ctx.rest('createNetworkVolume', { body: { name: ctx.name('vol'), size: 10, dataCenterId: 'EU-RO-1' } });
  expectStatus(created, 200, 'createNetworkVolume');
  expectStatus(await ctx.rest('deleteNetworkVolume', { path: { networkVolumeId: created.body.id } }), 204, 'deleteNetworkVolume');
  expectStatus(await ctx.rest('getNetworkVolume', { path: { networkVolumeId: created.body.id } }), 404, 'getNetworkVolume after delete');
}, { shares: [] });
