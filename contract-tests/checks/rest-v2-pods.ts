// REST v2 pods and their /action state machine: RESTV2-POD-*, RESTV2-ACTION-*. Helpers (v2Pod,
// untilStatus) are shared with the log and cluster checks.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { CheckFailure } from '../../src/conform/http.js';
import { expectProblem } from './rest-v2-core.js';

export const POD_GPU = { id: 'NVIDIA GeForce RTX 4090', count: 1 };
/** Delay after a template's last use before it can be deleted (REST v1 deleteTemplate x-delete-delay-ms). */
const TEMPLATE_DELETE_DELAY_MS = 120_000;
const UNKNOWN = 'cc-unknown-id-404';

/** podAction.yaml: the actions of each status (before a lock or cluster membership takes some away). */
export const ACTIONS_BY_STATUS: Record<string, string[]> = {
  RUNNING: ['stop', 'restart', 'terminate'],
  EXITED: ['start', 'terminate'],
  ERROR: ['start', 'terminate'],
  PROVISIONING: ['stop', 'terminate'],
  STARTING: ['stop', 'terminate'],
  TERMINATED: [],
};

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** A REST v2 pod, deleted (unlocked first) after the check. */
export async function v2Pod(ctx: Ctx, overrides: Record<string, unknown> = {}): Promise<any> {
  const created = await ctx.v2('createPod', { body: { name: ctx.name('v2pod'), image: ctx.target.workerImage, gpu: POD_GPU, ...overrides } });
  expectStatus(created, 201, 'createPod (REST v2)');
  const id = String(created.body.id);
  ctx.cleanup(async () => {
    const pod = await ctx.v2('getPod', { path: { id } });
    if (pod.status !== 200) return;
    if (pod.body.locked === true) await ctx.v2('updatePod', { path: { id }, body: { locked: false } });
    await ctx.v2('deletePod', { path: { id } });
  });
  return created.body;
}

/** Polls getPod (letting time pass between polls) until the pod has one of `statuses`; every answer's actions must fit its status. */
export async function untilStatus(ctx: Ctx, id: string, statuses: readonly string[], seen: string[] = []): Promise<any> {
  for (let i = 0; i < 180; i++) {
    const pod = await ctx.v2('getPod', { path: { id } });
    expectStatus(pod, 200, `getPod while waiting for ${statuses.join('/')}`);
    if (seen.at(-1) !== pod.body.status) seen.push(pod.body.status);
    expectActions(pod.body);
    if (statuses.includes(pod.body.status)) return pod.body;
    await ctx.pass(1_000);
  }
  throw new CheckFailure(`pod ${id} did not reach ${statuses.join('/')} (seen: ${seen.join(' → ')})`);
}

function expectActions(pod: { id: string; status: string; actions: string[]; locked?: boolean; cluster?: unknown }): void {
  let wanted = ACTIONS_BY_STATUS[pod.status] ?? [];
  if (pod.locked === true) wanted = wanted.filter((a) => a === 'start');
  if (pod.cluster !== undefined) wanted = wanted.filter((a) => a !== 'terminate');
  expect(sameSet(pod.actions, wanted), `pod ${pod.status}${pod.locked ? ' (locked)' : ''}: actions ${JSON.stringify(pod.actions)}, expected ${JSON.stringify(wanted)}`);
}

async function podIds(ctx: Ctx): Promise<string[]> {
  const list = await ctx.v2('listPods', { query: { includeClusterPods: 'true' } });
  expectStatus(list, 200, 'listPods');
  return (list.body.pods as { id: string }[]).map((p) => p.id);
}

async function createsNoPod(ctx: Ctx, cases: [string, Record<string, unknown>, number, string][]): Promise<void> {
  const before = await podIds(ctx);
  for (const [what, body, status, path] of cases) {
    const answer = await ctx.v2('createPod', { body: { name: ctx.name('bad'), image: ctx.target.workerImage, ...body } });
    expectProblem(answer, status, `createPod, ${what}`);
    const errors = (answer.body.errors ?? []) as string[];
    expect(errors.some((e) => e.startsWith(`${path}: `) || e.startsWith(`${path.replace('/body/', '')}: `)), `createPod, ${what}: errors ${JSON.stringify(errors)} do not name ${path}`);
  }
  const added = (await podIds(ctx)).filter((id) => !before.includes(id));
  expect(added.length === 0, `refused createPod calls stored pods: ${added.join(', ')}`);
}

defineCheck('RESTV2-POD-001', async (ctx) => {
  const created = await v2Pod(ctx, { ports: ['8888/http'] });
  expectEqual([created.image, created.gpu?.id, created.cloud, created.template], [ctx.target.workerImage, POD_GPU.id, ctx.value('cloud'), null], 'created pod: image, gpu.id, cloud, template');
  expectActions(created);
  const got = await ctx.v2('getPod', { path: { id: created.id } });
  expectStatus(got, 200, 'getPod');
  expectEqual([got.body.id, got.body.name, got.body.image, got.body.gpu], [created.id, created.name, created.image, created.gpu], 'getPod: id, name, image, gpu');
  expect((await podIds(ctx)).includes(created.id), 'listPods does not list the created pod');
  expectStatus(await ctx.v2('deletePod', { path: { id: created.id } }), 204, 'deletePod');
  expectProblem(await ctx.v2('getPod', { path: { id: created.id } }), 404, 'getPod after deletePod');
});

defineCheck('RESTV2-POD-002', async (ctx) => {
  const cpu = { id: 'cpu3c', vcpuCount: 2 };
  await createsNoPod(ctx, [
    ['neither gpu nor cpu', {}, 400, '/body'],
    ['both gpu and cpu', { gpu: POD_GPU, cpu }, 400, '/body'],
    ['persistent and network mounts', { gpu: POD_GPU, mounts: { persistent: { size: 20, path: '/w' }, network: [{ volumeId: UNKNOWN, path: '/n' }] } }, 400, '/body/mounts'],
    ['persistent mount on a CPU pod', { cpu, mounts: { persistent: { size: 20, path: '/w' } } }, 400, '/body/mounts/persistent'],
  ]);
});

defineCheck('RESTV2-POD-003', async (ctx) => {
  const persistent = await v2Pod(ctx, { cloud: 'COMMUNITY', mounts: { persistent: { size: 20, path: '/data' } } });
  expectEqual([persistent.mounts, persistent.cloud], [{ persistent: { size: 20, path: '/data' } }, 'COMMUNITY'], 'pod with a persistent mount: mounts, cloud');
  const plain = await v2Pod(ctx);
  expectEqual(plain.mounts, {}, 'pod without mounts: mounts');
  const volume = await ctx.v2('createNetworkVolume', { body: { name: ctx.name('vol'), size: 10, dataCenter: 'EU-RO-1' } });
  expectStatus(volume, 201, 'createNetworkVolume');
  ctx.cleanup(() => ctx.v2('deleteNetworkVolume', { path: { id: volume.body.id } }));
  const networked = await v2Pod(ctx, { mounts: { network: [{ volumeId: volume.body.id, path: '/runpod-volume' }] } });
  expectEqual(networked.mounts, { network: [{ volumeId: volume.body.id, path: '/runpod-volume' }] }, 'pod with a network mount: mounts');
  expectEqual(networked.dataCenterId, volume.body.dataCenter, "pod with a network mount: dataCenterId (the volume's)");
  const got = await ctx.v2('getPod', { path: { id: networked.id } });
  expectEqual(got.body.mounts, networked.mounts, 'getPod: mounts');
});

defineCheck('RESTV2-POD-004', async (ctx) => {
  const serverless = await ctx.v2('createTemplate', { body: { name: ctx.name('sls'), image: ctx.target.workerImage, serverless: true } });
  expectStatus(serverless, 201, 'createTemplate (serverless)');
  ctx.cleanup(() => ctx.v2('deleteTemplate', { path: { id: serverless.body.id } }));
  await createsNoPod(ctx, [
    ['unknown template', { gpu: POD_GPU, templateId: UNKNOWN }, ctx.value<number>('unknownReference'), '/body/templateId'],
    ['unknown network volume', { gpu: POD_GPU, mounts: { network: [{ volumeId: UNKNOWN, path: '/v' }] } }, ctx.value<number>('unknownReference'), '/body/mounts/network/0/volumeId'],
    ['unknown registry credential', { gpu: POD_GPU, registry: UNKNOWN }, ctx.value<number>('unknownReference'), '/body/registry'],
    ['serverless template', { gpu: POD_GPU, templateId: serverless.body.id }, ctx.value<number>('serverlessTemplate'), '/body/templateId'],
  ]);
});

defineCheck('RESTV2-POD-005', async (ctx) => {
  const template = await ctx.v2('createTemplate', { body: { name: ctx.name('podtpl'), image: 'cc/tpl:1', args: 'python serve.py', disk: 30, ports: ['8888/http'], env: { A: 'tpl', B: 'tpl' } } });
  expectStatus(template, 201, 'createTemplate');
  ctx.cleanup(async () => {
    // Used by the pod until just now: past the documented delete delay when the clock can be moved.
    const first = await ctx.v2('deleteTemplate', { path: { id: template.body.id } });
    if (first.status === 400 && ctx.controlled) {
      await ctx.pass(TEMPLATE_DELETE_DELAY_MS);
      await ctx.v2('deleteTemplate', { path: { id: template.body.id } });
    }
  });
  const pod = await v2Pod(ctx, { image: undefined, templateId: template.body.id, disk: 40, env: { B: 'body', C: 'body' } });
  expectEqual([pod.image, pod.args, pod.disk, pod.ports], ['cc/tpl:1', 'python serve.py', 40, ['8888/http']], 'pod from a template: image, args, disk (body wins), ports');
  expectEqual(pod.env, { A: 'tpl', B: 'body', C: 'body' }, 'pod from a template: env merged per key, body wins');
  expectEqual(pod.template, template.body.id, 'pod from a template: template (the id it was made from)');
  expectStatus(await ctx.v2('updateTemplate', { path: { id: template.body.id }, body: { image: 'cc/tpl:2' } }), 200, 'updateTemplate');
  expectEqual((await ctx.v2('getPod', { path: { id: pod.id } })).body.image, 'cc/tpl:1', 'pod image after its template changed (a copy, not a live link)');
});

defineCheck('RESTV2-POD-006', async (ctx) => {
  const pod = await v2Pod(ctx, { env: { KEEP: '1' }, mounts: { persistent: { size: 20, path: '/w' } } });
  const patched = await ctx.v2('updatePod', { path: { id: pod.id }, body: { name: ctx.name('renamed'), mounts: { persistent: { size: 20, path: '/x' } } } });
  expectStatus(patched, 200, 'updatePod');
  expectEqual([patched.body.image, patched.body.env, patched.body.mounts], [pod.image, { KEEP: '1' }, { persistent: { size: 20, path: '/x' } }], 'updatePod: unsent fields kept, mount path changed');
  expectEqual((await ctx.v2('getPod', { path: { id: pod.id } })).body.name, patched.body.name, 'getPod after updatePod: name');
  const status = ctx.value<number>('mountChange');
  expectProblem(await ctx.v2('updatePod', { path: { id: pod.id }, body: { mounts: { network: [] } } }), status, 'updatePod with network []');
  expectProblem(await ctx.v2('updatePod', { path: { id: pod.id }, body: { mounts: { network: [{ volumeId: UNKNOWN, path: '/v' }] } } }), status, 'updatePod adding a network mount to a persistent-mount pod');
  expectEqual((await ctx.v2('getPod', { path: { id: pod.id } })).body.mounts, { persistent: { size: 20, path: '/x' } }, 'mounts after the refused updates');
});

defineCheck('RESTV2-POD-007', async (ctx) => {
  const v1 = await ctx.pod({ gpuTypeIds: [POD_GPU.id], gpuCount: 2, containerDiskInGb: 25, dockerStartCmd: ['python', 'a b.py'], cloudType: 'COMMUNITY', volumeInGb: 15, volumeMountPath: '/vol' });
  const read = await ctx.v2('getPod', { path: { id: v1.id } });
  expectStatus(read, 200, 'getPod (REST v2) of a REST v1 pod');
  expectEqual(
    [read.body.name, read.body.image, read.body.gpu, read.body.disk, read.body.args, read.body.cloud, read.body.mounts],
    // gpu.vcpuCount / gpu.memory: the totals REST v1 shows as vcpuCount / memoryInGb (API reference 081392fe).
    [v1.name, ctx.target.workerImage, { id: POD_GPU.id, count: 2, vcpuCount: v1.vcpuCount, memory: v1.memoryInGb }, 25, "python 'a b.py'", 'COMMUNITY', { persistent: { size: 15, path: '/vol' } }],
    'REST v1 pod through REST v2: name, image, gpu, disk, args, cloud, mounts',
  );
  const v2 = await v2Pod(ctx, { disk: 33, args: 'run --fast', mounts: { persistent: { size: 12, path: '/p' } } });
  const back = await ctx.rest('getPod', { path: { podId: v2.id } });
  expectStatus(back, 200, 'getPod (REST v1) of a REST v2 pod');
  expectEqual([back.body.image, back.body.containerDiskInGb, back.body.dockerStartCmd, back.body.volumeInGb, back.body.volumeMountPath], [v2.image, 33, ['run', '--fast'], 12, '/p'], 'REST v2 pod through REST v1');
  await untilStatus(ctx, v2.id, ['RUNNING', 'EXITED', 'ERROR']);
  expectStatus(await ctx.v2('podAction', { path: { id: v2.id }, body: { action: 'terminate' } }), 204, 'podAction terminate');
  expectStatus(await ctx.rest('getPod', { path: { podId: v2.id } }), 404, 'getPod (REST v1) after a REST v2 terminate');
}, { needs: ['restV1'] });

defineCheck('RESTV2-POD-008', async (ctx) => {
  await createsNoPod(ctx, [
    ['a GPU type not in the catalog', { gpu: { id: 'cc-no-such-gpu' } }, 400, '/body/gpu/id'],
    ['a CPU flavour not in the catalog', { cpu: { id: 'cc-no-such-cpu', vcpuCount: 2 } }, 400, '/body/cpu/id'],
    ['CUDA versions no host has', { gpu: { ...POD_GPU, allowedCudaVersions: ['9.0'] } }, 400, '/body/gpu/allowedCudaVersions'],
  ]);
  const accepted = ['12.4', '12.6', '12.8'];
  const pod = await v2Pod(ctx, { gpu: { ...POD_GPU, allowedCudaVersions: accepted } });
  expect(accepted.includes(pod.cudaVersion), `pod placed with allowedCudaVersions ${accepted.join(', ')} reports cudaVersion ${String(pod.cudaVersion)}`);
  expect(typeof pod.dataCenterId === 'string' && pod.dataCenterId !== '', 'placed pod reports no dataCenterId');
});

defineCheck('RESTV2-POD-009', async (ctx) => {
  const status = ctx.value<number>('status');
  const dcs = (await ctx.v2('listDataCenters', {})).body.dataCenters as { id: string; globalNetwork: boolean }[];
  const withGlobal = new Set(dcs.filter((d) => d.globalNetwork).map((d) => d.id));
  const without = dcs.filter((d) => !d.globalNetwork).map((d) => d.id).slice(0, 64);
  const notNvidia = ((await ctx.v2('listGpuTypes', {})).body.gpus as { id: string; manufacturer: string }[]).find((g) => g.manufacturer !== 'NVIDIA');
  const on = { globalNetworking: true };
  const cases: [string, Record<string, unknown>, number, string][] = [['a CPU pod', { cpu: { id: 'cpu3c', vcpuCount: 2 }, ...on }, status, '/body/globalNetworking']];
  if (notNvidia) cases.push([`a ${notNvidia.manufacturer} GPU`, { gpu: { id: notNvidia.id, count: 1 }, ...on }, status, '/body/globalNetworking']);
  if (without.length > 0) cases.push(['only data centres without global networking', { gpu: POD_GPU, dataCenterIds: without, ...on }, status, '/body/globalNetworking']);
  await createsNoPod(ctx, cases);

  const pod = await v2Pod(ctx, on);
  expect(withGlobal.has(pod.dataCenterId), `a globally networked pod placed in ${String(pod.dataCenterId)}, which has no global networking`);
  const net = pod.globalNetworking as { enabled: boolean; ip?: string; internalDns?: string };
  expect(net.enabled === true && typeof net.ip === 'string' && net.internalDns === `${pod.id}.runpod.internal`, `globalNetworking of the new pod: ${JSON.stringify(net)}`);
  const patched = await ctx.v2('updatePod', { path: { id: pod.id }, body: { globalNetworking: false } });
  expectStatus(patched, 200, 'updatePod globalNetworking false');
  expectEqual(patched.body.globalNetworking?.enabled, true, 'globalNetworking.enabled right after the update (it waits for a restart)');
  await untilStatus(ctx, pod.id, ['RUNNING']);
  const restarted = await ctx.v2('podAction', { path: { id: pod.id }, body: { action: 'restart' } });
  expectStatus(restarted, 200, 'podAction restart');
  expectEqual(restarted.body.globalNetworking, { enabled: false }, 'globalNetworking after the restart');
});

defineCheck('RESTV2-ACTION-001', async (ctx) => {
  const created = await v2Pod(ctx);
  expect(['PROVISIONING', 'STARTING', 'RUNNING'].includes(created.status), `a new pod is ${created.status}`);
  expectActions(created);
  let note: string | undefined;
  if (ctx.controlled && created.status === 'PROVISIONING') {
    // A clock we drive: the mock's figures. A quota wait (429) would move the clock, so its answer skips this part.
    const statusAfter = async (ms: number) => {
      await ctx.pass(ms);
      const got = await ctx.v2('getPod', { path: { id: created.id }, quota: 'raw' });
      return got.status === 429 ? undefined : got.body.status;
    };
    const starting = await statusAfter(ctx.value<number>('provisionMs'));
    const running = starting === undefined ? undefined : await statusAfter(ctx.value<number>('bootMs'));
    if (running === undefined) note = 'provisioning figures not timed: the quota answered 429';
    else expectEqual([starting, running], ['STARTING', 'RUNNING'], `status ${ctx.value<number>('provisionMs')} ms and ${ctx.value<number>('provisionMs') + ctx.value<number>('bootMs')} ms after creation`);
  }
  const seen = [created.status as string];
  await untilStatus(ctx, created.id, ['RUNNING'], seen);
  const order = ['PROVISIONING', 'STARTING', 'RUNNING'];
  expect(seen.every((s, i) => i === 0 || order.indexOf(s) > order.indexOf(seen[i - 1]!)), `statuses went ${seen.join(' → ')}`);
  return note;
});

defineCheck('RESTV2-ACTION-002', async (ctx) => {
  const pod = await v2Pod(ctx);
  const act = (action: string) => ctx.v2('podAction', { path: { id: pod.id }, body: { action } });
  await untilStatus(ctx, pod.id, ['RUNNING']);
  const stopped = await act('stop');
  expectStatus(stopped, 200, 'stop of a RUNNING pod');
  expectEqual([stopped.body.id, stopped.body.status], [pod.id, 'EXITED'], 'stop answer: id, status');
  expectActions(stopped.body);
  expectProblem(await act('restart'), ctx.value<number>('conflict'), 'restart of an EXITED pod');
  expectEqual((await ctx.v2('getPod', { path: { id: pod.id } })).body.status, 'EXITED', 'status after the refused restart');
  const started = await act('start');
  expectStatus(started, 200, 'start of an EXITED pod');
  expect(['PROVISIONING', 'STARTING', 'RUNNING'].includes(started.body.status), `start answered a pod ${started.body.status}`);
  await untilStatus(ctx, pod.id, ['RUNNING']);
  expectStatus(await act('restart'), 200, 'restart of a RUNNING pod');
  expectStatus(await act('terminate'), ctx.value<number>('terminated'), 'terminate');
  expectProblem(await ctx.v2('getPod', { path: { id: pod.id } }), 404, 'getPod after terminate');
});

defineCheck('RESTV2-ACTION-003', async (ctx) => {
  const pod = await v2Pod(ctx);
  const before = await ctx.v2('getPod', { path: { id: pod.id } });
  const reset = await ctx.v2('podAction', { path: { id: pod.id }, body: { action: 'reset' } });
  expectProblem(reset, ctx.value<number>('status'), 'podAction reset');
  expect(((reset.body.errors ?? []) as string[]).some((e) => e.includes('action')), `podAction reset: errors ${JSON.stringify(reset.body.errors)} do not name action`);
  const after = await ctx.v2('getPod', { path: { id: pod.id } });
  expectEqual(after.body.startedAt, before.body.startedAt, 'startedAt after the refused reset');
  expect(after.body.status !== 'EXITED', 'the refused reset stopped the pod');
});

defineCheck('RESTV2-ACTION-004', async (ctx) => {
  const pod = await v2Pod(ctx);
  await untilStatus(ctx, pod.id, ['RUNNING']);
  const locked = await ctx.v2('updatePod', { path: { id: pod.id }, body: { locked: true } });
  expectStatus(locked, 200, 'updatePod locked: true');
  expectEqual(locked.body.locked, true, 'locked after the update');
  expectActions(locked.body);
  const conflict = ctx.value<number>('status');
  for (const action of ['stop', 'terminate']) expectProblem(await ctx.v2('podAction', { path: { id: pod.id }, body: { action } }), conflict, `${action} of a locked pod`);
  expectProblem(await ctx.v2('deletePod', { path: { id: pod.id } }), conflict, 'deletePod of a locked pod');
  expectEqual((await ctx.v2('getPod', { path: { id: pod.id } })).body.status, 'RUNNING', 'status of the locked pod after the refusals');
  const unlocked = await ctx.v2('updatePod', { path: { id: pod.id }, body: { locked: false } });
  expectActions(unlocked.body);
  expectStatus(await ctx.v2('podAction', { path: { id: pod.id }, body: { action: 'stop' } }), 200, 'stop once unlocked');
});
