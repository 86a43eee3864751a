// Documented rejections of spec-valid requests (state rules): REST-CRUD-008, REST-POD-010,
// REST-ENDPOINT-009, REST-TEMPLATE-009, REST-VOLUME-007, REST-VOLUME-008, GQL-SECRET-004. Each refused
// request must change nothing.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, errorsOf, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';

/** 400 whose errors[] names `path` (REST-ERROR-002 shape). */
export function expectRefusal(answer: Answer, path: string, what: string, status = 400): void {
  expectStatus(answer, status, what);
  expect(typeof answer.body?.message === 'string' && answer.body.message !== '', `${what}: error body lacks a message`);
  const paths = ((answer.body?.errors ?? []) as { path?: string }[]).map((e) => e.path);
  expect(paths.includes(path), `${what}: errors[] does not name ${path} (got ${paths.join(', ') || 'none'})`);
}

const LISTS = ['listPods', 'listEndpoints', 'listTemplates', 'listNetworkVolumes', 'listContainerRegistryAuths'] as const;

/** Runs `refused` and fails when any list gained an id meanwhile. */
export async function storesNothing(ctx: Ctx, what: string, refused: () => Promise<void>): Promise<void> {
  const snapshot = async () => {
    const ids = new Set<string>();
    for (const op of LISTS) for (const item of (await ctx.rest(op)).body as { id: string }[]) ids.add(`${op}:${item.id}`);
    return ids;
  };
  const before = await snapshot();
  await refused();
  const added = [...(await snapshot())].filter((id) => !before.has(id));
  expect(added.length === 0, `${what} stored something: ${added.join(', ')}`);
}

defineCheck('REST-CRUD-008', async (ctx) => {
  const templateId = await ctx.sharedTemplate();
  const missing = 'cc-no-such-id';
  await storesNothing(ctx, 'creates naming unknown resources', async () => {
    expectRefusal(await ctx.rest('createPod', { body: { name: ctx.name('pod'), templateId: missing } }), '/body/templateId', 'createPod with an unknown templateId');
    expectRefusal(await ctx.rest('createPod', { body: { name: ctx.name('pod'), imageName: ctx.target.workerImage, networkVolumeId: missing } }), '/body/networkVolumeId', 'createPod with an unknown networkVolumeId');
    expectRefusal(await ctx.rest('createEndpoint', { body: { templateId, networkVolumeIds: [missing] } }), '/body/networkVolumeIds/0', 'createEndpoint with an unknown networkVolumeIds entry');
    expectRefusal(await ctx.rest('createTemplate', { body: { name: ctx.name('tpl'), imageName: 'x:1', containerRegistryAuthId: missing } }), '/body/containerRegistryAuthId', 'createTemplate with an unknown containerRegistryAuthId');
  });
  const endpointId = await ctx.endpoint();
  const endpointBefore = (await ctx.rest('getEndpoint', { path: { endpointId } })).body;
  for (const op of ['updateEndpoint', 'updateEndpointViaPost']) {
    expectRefusal(await ctx.rest(op, { path: { endpointId }, body: { templateId: missing } }), '/body/templateId', `${op} with an unknown templateId`);
  }
  expectEqual((await ctx.rest('getEndpoint', { path: { endpointId } })).body, endpointBefore, 'endpoint after the refused updates');
  const template = await ctx.template();
  for (const op of ['updateTemplate', 'updateTemplateViaPost']) {
    expectRefusal(await ctx.rest(op, { path: { templateId: template.id }, body: { containerRegistryAuthId: missing } }), '/body/containerRegistryAuthId', `${op} with an unknown containerRegistryAuthId`);
  }
  expectEqual((await ctx.rest('getTemplate', { path: { templateId: template.id } })).body, template.body, 'template after the refused updates');
  const pod = await ctx.pod();
  for (const op of ['updatePod', 'updatePodViaPost']) {
    expectRefusal(await ctx.rest(op, { path: { podId: pod.id }, body: { containerRegistryAuthId: missing } }), '/body/containerRegistryAuthId', `${op} with an unknown containerRegistryAuthId`);
  }
});

defineCheck('REST-POD-010', async (ctx) => {
  await storesNothing(ctx, 'createPod without image or template', async () => {
    expectRefusal(await ctx.rest('createPod', { body: { name: ctx.name('pod') } }), ctx.value<string>('path'), 'createPod with neither imageName nor templateId');
    expectRefusal(await ctx.rest('createPod', { body: { name: ctx.name('pod'), templateId: null } }), ctx.value<string>('path'), 'createPod with templateId null and no imageName');
  });
});

defineCheck('REST-ENDPOINT-009', async (ctx) => {
  const templateId = await ctx.sharedTemplate();
  const defaultMax = ctx.value<number>('workersMaxDefault');
  await storesNothing(ctx, 'createEndpoint with workersMin above workersMax', async () => {
    expectRefusal(await ctx.rest('createEndpoint', { body: { templateId, workersMin: defaultMax + 1 } }), '/body/workersMin', `createEndpoint workersMin ${defaultMax + 1} without workersMax (default ${defaultMax})`);
    expectRefusal(await ctx.rest('createEndpoint', { body: { templateId, workersMin: 2, workersMax: 1 } }), '/body/workersMax', 'createEndpoint workersMin 2, workersMax 1');
  });
  const endpointId = await ctx.endpoint({ workersMin: 0, workersMax: 1 });
  const before = (await ctx.rest('getEndpoint', { path: { endpointId } })).body;
  for (const op of ['updateEndpoint', 'updateEndpointViaPost']) {
    expectRefusal(await ctx.rest(op, { path: { endpointId }, body: { workersMin: 2 } }), '/body/workersMin', `${op} workersMin 2 above workersMax 1`);
  }
  expectEqual((await ctx.rest('getEndpoint', { path: { endpointId } })).body, before, 'endpoint after the refused updates');
  return `workersMax defaults to ${defaultMax}`;
});

defineCheck('REST-TEMPLATE-009', async (ctx) => {
  const a = await ctx.template();
  const b = await ctx.template();
  for (const op of ['updateTemplate', 'updateTemplateViaPost']) {
    const answer = await ctx.rest(op, { path: { templateId: a.id }, body: { name: b.name } });
    expectStatus(answer, 400, `${op} renaming to another template's name`);
  }
  expectEqual((await ctx.rest('getTemplate', { path: { templateId: a.id } })).body, a.body, 'template after the refused renames');
});

defineCheck('REST-VOLUME-007', async (ctx) => {
  const volume = await ctx.volume({ size: 20 });
  const networkVolumeId = volume.id as string;
  for (const op of ['updateNetworkVolume', 'updateNetworkVolumeViaPost']) {
    expectRefusal(await ctx.rest(op, { path: { networkVolumeId }, body: { size: 19 } }), ctx.value<string>('path'), `${op} shrinking 20 → 19 GB`);
  }
  expectEqual((await ctx.rest('getNetworkVolume', { path: { networkVolumeId } })).body.size, 20, 'size after the refused shrink');
  expectStatus(await ctx.rest('updateNetworkVolume', { path: { networkVolumeId }, body: { size: 20 } }), 200, 'updateNetworkVolume with the same size');
  expectStatus(await ctx.rest('updateNetworkVolumeViaPost', { path: { networkVolumeId }, body: { size: 25 } }), 200, 'updateNetworkVolumeViaPost growing to 25 GB');
  expectEqual((await ctx.rest('getNetworkVolume', { path: { networkVolumeId } })).body.size, 25, 'size after growing');
});

defineCheck('REST-VOLUME-008', async (ctx) => {
  for (const attach of ['endpoint', 'pod'] as const) {
    const volume = await ctx.volume();
    const networkVolumeId = volume.id as string;
    const userId = attach === 'endpoint' ? await ctx.endpoint({ networkVolumeId }) : (await ctx.pod({ networkVolumeId })).id as string;
    expectStatus(await ctx.rest('deleteNetworkVolume', { path: { networkVolumeId } }), 400, `deleteNetworkVolume attached to a ${attach}`);
    expectStatus(await ctx.rest('getNetworkVolume', { path: { networkVolumeId } }), 200, 'getNetworkVolume after the refused delete');
    const detach = attach === 'endpoint' ? ctx.rest('deleteEndpoint', { path: { endpointId: userId } }) : ctx.rest('deletePod', { path: { podId: userId } });
    expectStatus(await detach, 204, `delete the ${attach}`);
    expectStatus(await ctx.rest('deleteNetworkVolume', { path: { networkVolumeId } }), 204, `deleteNetworkVolume once the ${attach} is gone`);
  }
});

defineCheck('GQL-SECRET-004', async (ctx) => {
  const first = await ctx.secretResource();
  const dup = await ctx.gql('mutation($input: SecretCreateInput!) { secretCreate(input: $input) { id name } }', { input: { name: first.name, value: ctx.secret('secret value') } });
  const created = dup.body?.data?.secretCreate;
  if (created?.id) ctx.cleanup(() => ctx.gql('mutation($id: ID!) { secretDelete(id: $id) }', { id: created.id }));
  expect(Array.isArray(dup.body?.errors) && dup.body.errors.length > 0, `secretCreate with a used name answered no errors[] (${errorsOf(dup)})`);
  expect(!created, 'secretCreate with a used name created a secret');
});
