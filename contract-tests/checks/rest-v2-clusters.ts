// REST v2 clusters (member pods created and deleted with them) and account SSH keys:
// RESTV2-CLUSTER-*, RESTV2-ACCOUNT-*.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { expectProblem } from './rest-v2-core.js';
import { v2Pod } from './rest-v2-pods.js';

const COMPUTE = { gpuTypeId: 'NVIDIA H100 80GB HBM3', gpuCountPerPod: 8, podCount: 2 };
const KEY_A = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConformanceKeyA cc-a@example.com';
const KEY_B = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConformanceKeyB cc-b@example.com';

async function v2Cluster(ctx: Ctx, overrides: Record<string, unknown> = {}): Promise<any> {
  const created = await ctx.v2('createCluster', { body: { name: ctx.name('cluster'), type: 'TRAINING', image: ctx.target.workerImage, compute: COMPUTE, ...overrides } });
  expectStatus(created, 201, 'createCluster');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteCluster', { path: { id } }));
  return created.body;
}

async function members(ctx: Ctx, id: string): Promise<any[]> {
  const pods = await ctx.v2('listClusterPods', { path: { id } });
  expectStatus(pods, 200, 'listClusterPods');
  return pods.body.pods as any[];
}

async function counts(ctx: Ctx): Promise<[number, number]> {
  const clusters = await ctx.v2('listClusters');
  expectStatus(clusters, 200, 'listClusters');
  const pods = await ctx.v2('listPods', { query: { includeClusterPods: 'true' } });
  expectStatus(pods, 200, 'listPods');
  return [clusters.body.clusters.length, pods.body.pods.length];
}

/** Keeps the account's SSH keys as they were before the check. */
async function keepSshKeys(ctx: Ctx): Promise<void> {
  const before = await ctx.v2('getSshKeys');
  expectStatus(before, 200, 'getSshKeys');
  ctx.cleanup(() => ctx.v2('updateSshKeys', { body: { keys: before.body.keys } }));
}

defineCheck('RESTV2-CLUSTER-001', async (ctx) => {
  const created = await v2Cluster(ctx);
  expectEqual(created.compute, COMPUTE, 'createCluster: compute');
  expectEqual(created.pods?.total, COMPUTE.podCount, 'createCluster: pods.total');
  expect(typeof created.network?.cidr === 'string', 'createCluster: no network');
  const pods = await members(ctx, created.id);
  expectEqual(pods.map((p) => p.cluster?.rank).sort(), [0, 1], 'member ranks');
  expect(pods.every((p) => p.cluster?.id === created.id && p.gpu?.id === COMPUTE.gpuTypeId && p.gpu?.count === COMPUTE.gpuCountPerPod), 'members: cluster id or gpu not as created');
  expectEqual(created.primary?.podId, pods.find((p) => p.cluster.rank === 0)?.id, 'primary: the rank 0 pod');
  const got = await ctx.v2('getCluster', { path: { id: created.id } });
  expectStatus(got, 200, 'getCluster');
  expectEqual([got.body.id, got.body.name, got.body.type], [created.id, created.name, created.type], 'getCluster: id, name, type');
  const listed = await ctx.v2('listClusters');
  expect((listed.body.clusters as { id: string }[]).some((c) => c.id === created.id), 'listClusters does not list the cluster');
  const name = ctx.name('renamed');
  const renamed = await ctx.v2('updateCluster', { path: { id: created.id }, body: { name } });
  expectStatus(renamed, 200, 'updateCluster');
  expectEqual(renamed.body.name, name, 'updateCluster: name');
  expectStatus(await ctx.v2('deleteCluster', { path: { id: created.id } }), 204, 'deleteCluster');
  expectProblem(await ctx.v2('getCluster', { path: { id: created.id } }), 404, 'getCluster after deleteCluster');
  for (const pod of pods) expectProblem(await ctx.v2('getPod', { path: { id: pod.id } }), 404, 'a member pod after deleteCluster');
});

defineCheck('RESTV2-CLUSTER-002', async (ctx) => {
  const created = await v2Cluster(ctx);
  const pods = await members(ctx, created.id);
  const plain = await ctx.v2('listPods');
  expect(!(plain.body.pods as { id: string }[]).some((p) => p.id === pods[0].id), 'listPods lists a cluster member without includeClusterPods');
  const all = await ctx.v2('listPods', { query: { includeClusterPods: 'true' } });
  const member = (all.body.pods as any[]).find((p) => p.id === pods[0].id);
  expectEqual(member?.cluster?.id, created.id, 'listPods includeClusterPods=true: the member and its cluster block');
  const conflict = ctx.value<number>('status');
  const id = pods[0].id as string;
  expectProblem(await ctx.v2('updatePod', { path: { id }, body: { name: ctx.name('x') } }), conflict, 'updatePod of a cluster member');
  expectProblem(await ctx.v2('deletePod', { path: { id } }), conflict, 'deletePod of a cluster member');
  expectProblem(await ctx.v2('podAction', { path: { id }, body: { action: 'terminate' } }), conflict, 'terminate of a cluster member');
  const after = await ctx.v2('getPod', { path: { id } });
  expectStatus(after, 200, 'getPod of the member after the refusals');
  expectEqual(after.body.name, pods[0].name, 'member name after the refused update');
});

defineCheck('RESTV2-CLUSTER-003', async (ctx) => {
  const before = await counts(ctx);
  const base = { name: ctx.name('badcluster'), type: 'RAY', compute: COMPUTE };
  expectProblem(await ctx.v2('createCluster', { body: base }), ctx.value<number>('noImage'), 'createCluster without image');
  expectProblem(await ctx.v2('createCluster', { body: { ...base, image: ctx.target.workerImage, mounts: { network: [{ volumeId: 'cc-unknown-volume', path: '/v' }] } } }), ctx.value<number>('unknownVolume'), 'createCluster with an unknown network volume');
  expectProblem(await ctx.v2('createCluster', { body: { ...base, image: ctx.target.workerImage, compute: { ...COMPUTE, podCount: 1 } } }), 422, 'createCluster with podCount 1');
  expectEqual(await counts(ctx), before, '[clusters, pods] after the refused creates');
});

defineCheck('RESTV2-ACCOUNT-001', async (ctx) => {
  await keepSshKeys(ctx);
  const put = await ctx.v2('updateSshKeys', { body: { keys: [KEY_A, KEY_B] } });
  expectStatus(put, 200, 'updateSshKeys');
  expectEqual(put.body.keys, [KEY_A, KEY_B], 'updateSshKeys answer');
  expectStatus(await ctx.v2('updateSshKeys', { body: { keys: [KEY_B] } }), 200, 'updateSshKeys (replace)');
  expectEqual((await ctx.v2('getSshKeys')).body.keys, [KEY_B], 'getSshKeys after the replacement');
  const max = ctx.value<number>('maxKeys');
  expectProblem(await ctx.v2('updateSshKeys', { body: { keys: Array.from({ length: max + 1 }, (_, i) => `ssh-ed25519 AAAAcc${i}`) } }), 422, `updateSshKeys with ${max + 1} keys`);
  expectProblem(await ctx.v2('updateSshKeys', { body: { keys: ['not an authorized_keys line'] } }), 422, 'updateSshKeys with a line that is no key');
  expectEqual((await ctx.v2('getSshKeys')).body.keys, [KEY_B], 'getSshKeys after the refused updates');
  const cleared = await ctx.v2('updateSshKeys', { body: { keys: [] } });
  expectEqual(cleared.body.keys, [], 'updateSshKeys with []');
});

defineCheck('RESTV2-ACCOUNT-002', async (ctx) => {
  await keepSshKeys(ctx);
  expectStatus(await ctx.v2('updateSshKeys', { body: { keys: [KEY_A, KEY_B] } }), 200, 'updateSshKeys');
  const pod = await v2Pod(ctx, { startSsh: true });
  expectEqual(pod.env?.PUBLIC_KEY, `${KEY_A}\n${KEY_B}`, 'PUBLIC_KEY of a startSsh pod');
  const own = await v2Pod(ctx, { startSsh: true, env: { PUBLIC_KEY: 'cc-own-key' } });
  expectEqual(own.env?.PUBLIC_KEY, 'cc-own-key', 'PUBLIC_KEY set by the request');
  expectStatus(await ctx.v2('updateSshKeys', { body: { keys: [KEY_A] } }), 200, 'updateSshKeys (replace)');
  expectEqual((await ctx.v2('getPod', { path: { id: pod.id } })).body.env?.PUBLIC_KEY, `${KEY_A}\n${KEY_B}`, 'PUBLIC_KEY of the earlier pod after the key change');
});
