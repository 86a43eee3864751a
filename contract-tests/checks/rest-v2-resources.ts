// REST v2 network volumes, registry credentials and ECR delegations: RESTV2-VOLUME-*,
// RESTV2-REGISTRY-*, RESTV2-DELEGATION-001.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { expectProblem } from './rest-v2-core.js';

const DATA_CENTER = 'EU-RO-1';

async function v2Volume(ctx: Ctx, overrides: Record<string, unknown> = {}): Promise<any> {
  const created = await ctx.v2('createNetworkVolume', { body: { name: ctx.name('vol'), size: 10, dataCenter: DATA_CENTER, ...overrides } });
  expectStatus(created, 201, 'createNetworkVolume (REST v2)');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteNetworkVolume', { path: { id } }));
  return created.body;
}

async function v2Registry(ctx: Ctx): Promise<{ id: string; name: string; password: string }> {
  const name = ctx.name('reg');
  const password = ctx.secret('registry password');
  const created = await ctx.v2('createRegistry', { body: { name, username: 'cc-conformance', password } });
  expectStatus(created, 201, 'createRegistry');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteRegistry', { path: { id } }));
  return { id, name, password };
}

const listed = async (ctx: Ctx, op: string, key: string): Promise<any[]> => {
  const answer = await ctx.v2(op);
  expectStatus(answer, 200, op);
  return answer.body[key] as any[];
};

defineCheck('RESTV2-VOLUME-001', async (ctx) => {
  const dc = await ctx.v2('getDataCenter', { path: { id: DATA_CENTER } });
  expectStatus(dc, 200, `getDataCenter ${DATA_CENTER}`);
  const created = await v2Volume(ctx, { size: 20 });
  expectEqual(created, { id: created.id, name: created.name, size: 20, dataCenter: DATA_CENTER, type: dc.body.networkVolumeTypes[0] }, 'createNetworkVolume answer (tier: the data centre\'s primary one)');
  expectEqual((await ctx.v2('getNetworkVolume', { path: { id: created.id } })).body, created, 'getNetworkVolume after create');
  expect((await listed(ctx, 'listNetworkVolumes', 'networkVolumes')).some((v) => v.id === created.id), 'listNetworkVolumes lacks the new volume');
  const name = ctx.name('grown');
  const grown = await ctx.v2('updateNetworkVolume', { path: { id: created.id }, body: { name, size: 30 } });
  expectStatus(grown, 200, 'updateNetworkVolume');
  expectEqual(grown.body, { ...created, name, size: 30 }, 'volume after PATCH {name, size: 30}');
  expectStatus(await ctx.v2('deleteNetworkVolume', { path: { id: created.id } }), 204, 'deleteNetworkVolume');
  expectProblem(await ctx.v2('getNetworkVolume', { path: { id: created.id } }), 404, 'getNetworkVolume after delete');
});

defineCheck('RESTV2-VOLUME-002', async (ctx) => {
  const volume = await v2Volume(ctx, { size: 40 });
  const shrink = await ctx.v2('updateNetworkVolume', { path: { id: volume.id }, body: { size: 20 } });
  expectProblem(shrink, ctx.value<number>('status'), 'updateNetworkVolume shrinking the volume');
  expect((shrink.body.errors ?? []).some((e: string) => e.startsWith('/body/size')), `errors ${JSON.stringify(shrink.body.errors)} do not name /body/size`);
  expectEqual((await ctx.v2('getNetworkVolume', { path: { id: volume.id } })).body.size, 40, 'size after the refused shrink');
});

defineCheck('RESTV2-VOLUME-003', async (ctx) => {
  const before = (await listed(ctx, 'listNetworkVolumes', 'networkVolumes')).length;
  const dcs = (await listed(ctx, 'listDataCenters', 'dataCenters')) as { id: string; networkVolumeTypes: string[] }[];
  const standardOnly = dcs.find((d) => d.networkVolumeTypes.length === 1 && d.networkVolumeTypes[0] === 'STANDARD');
  expectProblem(await ctx.v2('createNetworkVolume', { body: { name: ctx.name('v'), size: 10, dataCenter: 'CC-NO-1' } }), ctx.value<number>('notOffered'), 'createNetworkVolume in a data centre the catalog does not list');
  if (standardOnly) {
    expectProblem(await ctx.v2('createNetworkVolume', { body: { name: ctx.name('v'), size: 10, dataCenter: standardOnly.id, type: 'HIGH_PERFORMANCE' } }), ctx.value<number>('notOffered'), `createNetworkVolume HIGH_PERFORMANCE in ${standardOnly.id} (STANDARD only)`);
  }
  expectEqual((await listed(ctx, 'listNetworkVolumes', 'networkVolumes')).length, before, 'volumes after the refused creates');
  const volume = await v2Volume(ctx);
  const endpoint = await ctx.v2('createEndpoint', {
    body: { name: ctx.name('ep'), type: 'QUEUE', image: ctx.target.workerImage, gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 0, max: 1 }, networkVolumes: [volume.id] },
  });
  expectStatus(endpoint, 201, 'createEndpoint using the volume');
  ctx.cleanup(() => ctx.v2('deleteEndpoint', { path: { id: endpoint.body.id } }));
  expectProblem(await ctx.v2('deleteNetworkVolume', { path: { id: volume.id } }), ctx.value<number>('inUse'), 'deleteNetworkVolume of a volume an endpoint uses');
  expectStatus(await ctx.v2('getNetworkVolume', { path: { id: volume.id } }), 200, 'getNetworkVolume after the refused delete');
  expectStatus(await ctx.v2('deleteEndpoint', { path: { id: endpoint.body.id } }), 204, 'deleteEndpoint');
  expectStatus(await ctx.v2('deleteNetworkVolume', { path: { id: volume.id } }), 204, 'deleteNetworkVolume once unused');
});

defineCheck('RESTV2-VOLUME-004', async (ctx) => {
  const v1 = await ctx.volume({ size: 15, dataCenterId: 'US-KS-2' });
  const v2 = await ctx.v2('getNetworkVolume', { path: { id: v1.id } });
  expectStatus(v2, 200, 'getNetworkVolume (REST v2) of a REST v1 volume');
  expectEqual(v2.body, { id: v1.id, name: v1.name, size: 15, dataCenter: 'US-KS-2', type: 'STANDARD' }, 'REST v2 view of a REST v1 volume');
  expect((await listed(ctx, 'listNetworkVolumes', 'networkVolumes')).some((v) => v.id === v1.id), 'listNetworkVolumes (REST v2) lacks the REST v1 volume');
  const made = await v2Volume(ctx, { size: 12 });
  const seen = await ctx.rest('getNetworkVolume', { path: { networkVolumeId: made.id } });
  expectStatus(seen, 200, 'getNetworkVolume (REST v1) of a REST v2 volume');
  expectEqual([seen.body.name, seen.body.size, seen.body.dataCenterId], [made.name, 12, DATA_CENTER], 'REST v1 view of a REST v2 volume');
}, { needs: ['restV1', 'restV2'] });

defineCheck('RESTV2-REGISTRY-001', async (ctx) => {
  const reg = await v2Registry(ctx);
  const got = await ctx.v2('getRegistry', { path: { id: reg.id } });
  expectStatus(got, 200, 'getRegistry');
  expectEqual(got.body, { id: reg.id, name: reg.name }, 'getRegistry answer (id and name only)');
  const all = await listed(ctx, 'listRegistries', 'registries');
  expectEqual(all.find((r) => r.id === reg.id), { id: reg.id, name: reg.name }, 'listRegistries entry');
  expect(!JSON.stringify([got.body, all]).includes('cc-conformance'), 'an answer carries the registry username');
  expectProblem(await ctx.v2('createRegistry', { body: { name: reg.name, username: 'u', password: ctx.secret('registry password') } }), 400, 'createRegistry with a taken name');
  expectStatus(await ctx.v2('deleteRegistry', { path: { id: reg.id } }), 204, 'deleteRegistry');
  expectProblem(await ctx.v2('getRegistry', { path: { id: reg.id } }), 404, 'getRegistry after delete');
});

defineCheck('RESTV2-REGISTRY-002', async (ctx) => {
  const reg = await v2Registry(ctx);
  const template = await ctx.v2('createTemplate', { body: { name: ctx.name('t'), image: 'cc/private:1', registry: reg.id } });
  expectStatus(template, 201, 'createTemplate with the registry');
  ctx.cleanup(() => ctx.v2('deleteTemplate', { path: { id: template.body.id } }));
  const pod = await ctx.v2('createPod', { body: { name: ctx.name('pod'), image: 'cc/private:1', registry: reg.id, gpu: { id: 'NVIDIA GeForce RTX 4090', count: 1 } } });
  expectStatus(pod, 201, 'createPod with the registry');
  ctx.cleanup(() => ctx.v2('deletePod', { path: { id: pod.body.id } }));
  expectProblem(await ctx.v2('deleteRegistry', { path: { id: reg.id } }), ctx.value<number>('inUse'), 'deleteRegistry while a pod uses it');
  expectStatus(await ctx.v2('getRegistry', { path: { id: reg.id } }), 200, 'getRegistry after the refused delete');
  expectStatus(await ctx.v2('deletePod', { path: { id: pod.body.id } }), 204, 'deletePod');
  expectStatus(await ctx.v2('deleteRegistry', { path: { id: reg.id } }), 204, 'deleteRegistry once no pod uses it');
  expectEqual((await ctx.v2('getTemplate', { path: { id: template.body.id } })).body.registry, null, 'template registry after the delete');
});

defineCheck('RESTV2-REGISTRY-003', async (ctx) => {
  const v1 = await ctx.registryAuth();
  expectEqual((await ctx.v2('getRegistry', { path: { id: v1.id } })).body, { id: v1.id, name: v1.name }, 'REST v2 view of a REST v1 registry auth');
  expect((await listed(ctx, 'listRegistries', 'registries')).some((r) => r.id === v1.id), 'listRegistries lacks the REST v1 registry auth');
  const v2 = await v2Registry(ctx);
  const seen = await ctx.rest('getContainerRegistryAuth', { path: { containerRegistryAuthId: v2.id } });
  expectStatus(seen, 200, 'getContainerRegistryAuth (REST v1) of a REST v2 registry');
  expectEqual(seen.body.name, v2.name, 'REST v1 name of a REST v2 registry');
  expectStatus(await ctx.rest('deleteContainerRegistryAuth', { path: { containerRegistryAuthId: v2.id } }), 204, 'deleteContainerRegistryAuth (REST v1)');
  expectProblem(await ctx.v2('getRegistry', { path: { id: v2.id } }), 404, 'getRegistry after the REST v1 delete');
}, { needs: ['restV1', 'restV2'] });

defineCheck('RESTV2-DELEGATION-001', async (ctx) => {
  const account = String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
  const repository = `cc/${ctx.name('repo').toLowerCase()}`;
  const arn = `arn:aws:ecr:us-east-2:${account}:repository/${repository}`;
  const created = await ctx.v2('createDelegation', { body: { resource: arn, name: 'cc-delegation' } });
  expectStatus(created, 201, 'createDelegation');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('revokeDelegation', { path: { id } }));
  expectEqual([created.body.awsRegion, created.body.awsUser, created.body.repository], ['us-east-2', account, repository], 'delegation fields from the ARN');
  const fields = ['id', 'name', 'delegatorUserId', 'awsUser', 'repository', 'tag', 'awsRegion', 'dockerRegistryUri', 'createdAt'];
  const extra = Object.keys(created.body).filter((k) => !fields.includes(k));
  expectEqual(extra, [], 'createDelegation answer fields beyond EcrDelegation');
  expect((await listed(ctx, 'listDelegations', 'delegations')).some((d) => d.id === id), 'listDelegations lacks the delegation');
  expectProblem(await ctx.v2('createDelegation', { body: { resource: arn } }), ctx.value<number>('duplicate'), 'createDelegation of a repository already delegated');
  expectProblem(await ctx.v2('createDelegation', { body: { resource: 'arn:aws:s3:::cc-bucket' } }), ctx.value<number>('malformed'), 'createDelegation with a resource that is no ECR repository ARN');
  expectStatus(await ctx.v2('revokeDelegation', { path: { id } }), 204, 'revokeDelegation');
  expectProblem(await ctx.v2('revokeDelegation', { path: { id } }), 404, 'revokeDelegation again');
});
