// GraphQL operations the official SDKs send (runpod-python 1.12.0 and its REST v2 wrapper): GQL-SDK-*.
// Documents are written the way the SDK writes them: arguments inlined as literals, no variables.
// What they made is read back through REST: REST v1 when given, else REST v2 (rest-view.ts).
import { defineCheck } from '../../src/conform/registry.js';
import { errorsOf, expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';
import { restDelete, restList, restRead, REST_VIEW } from './rest-view.js';

const POD_FIELDS = 'id name imageName desiredStatus gpuCount env machineId machine { podHostId }';
const ENDPOINT_FIELDS = 'id name templateId gpuIds workersMin workersMax';
/** A GraphQL string literal (JSON string syntax is valid GraphQL string syntax). */
const lit = (value: string): string => JSON.stringify(value);

function data(answer: Answer, field: string): any {
  expectStatus(answer, 200, field);
  expect(!answer.body?.errors, `${field} failed: ${errorsOf(answer)}`);
  return answer.body?.data?.[field];
}

function failed(answer: Answer, what: string, naming?: string): void {
  expectStatus(answer, 200, what);
  const message = answer.body?.errors?.[0]?.message;
  expect(typeof message === 'string' && message !== '', `${what} did not fail with errors[0].message`);
  if (naming) expect(message.includes(naming), `${what}: errors[0].message (${JSON.stringify(message)}) does not name ${naming}`);
}

async function deployCpu(ctx: Ctx, extra = '', instance = 'cpu3c-2-4'): Promise<any> {
  const pod = data(await ctx.gql(`mutation { deployCpuPod(input: { name: ${lit(ctx.name('gqlpod'))}, imageName: ${lit(ctx.target.workerImage)}, cloudType: ALL, startSsh: true, instanceId: ${lit(instance)}, dataCenterId: null${extra} }) { ${POD_FIELDS} } }`), 'deployCpuPod');
  expect(typeof pod?.id === 'string', 'deployCpuPod answered no id');
  ctx.cleanup(() => ctx.gql(`mutation { podTerminate(input: { podId: ${lit(pod.id)} }) }`));
  return pod;
}

async function serverlessTemplate(ctx: Ctx, disk = 10): Promise<string> {
  const saved = data(await ctx.gql(`mutation { saveTemplate(input: { name: ${lit(ctx.name('gqlsls'))}, imageName: ${lit(ctx.target.workerImage)}, dockerArgs: "", containerDiskInGb: ${disk}, volumeInGb: 0, ports: "", env: [], isServerless: true }) { id } }`), 'saveTemplate');
  ctx.cleanup(() => ctx.deleteTemplateEventually(saved.id));
  return saved.id;
}

defineCheck('GQL-SDK-001', async (ctx) => {
  const volume = await ctx.volume();
  const me = data(await ctx.gql('query myself { myself { id pubKey networkVolumes { id name size dataCenterId } pods { id } endpoints { id } } }'), 'myself');
  expect(typeof me?.id === 'string', 'myself answered no id');
  // The volume as the surface that made it answers: REST v1 dataCenterId, REST v2 dataCenter.
  const dataCenterId = volume.dataCenterId ?? volume.dataCenter;
  expect(me.networkVolumes.some((v: { id: string; dataCenterId: string }) => v.id === volume.id && v.dataCenterId === dataCenterId), 'myself.networkVolumes lacks the volume the suite created');
  const ids = (list: { id?: string }[]) => list.map((x) => x.id).sort();
  const pods = await restList(ctx, 'pod');
  expectEqual(ids(me.pods), ids(pods), `myself.pods ids vs ${pods[0]?.surface ?? 'REST'} listPods`);
  expectEqual(ids(me.endpoints), ids(await restList(ctx, 'endpoint')), 'myself.endpoints ids vs REST listEndpoints');
}, { needs: ['graphql', ...REST_VIEW] });

defineCheck('GQL-SDK-002', async (ctx) => {
  const before = data(await ctx.gql('query myself { myself { id pubKey } }'), 'myself').pubKey as string | null;
  ctx.cleanup(() => ctx.gql(`mutation { updateUserSettings(input: { pubKey: ${lit(before ?? '')} }) { id } }`));
  const keys = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConformanceGql cc-gql@example.com\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConformanceGq2 cc-gq2@example.com';
  const updated = data(await ctx.gql(`mutation { updateUserSettings(input: { pubKey: ${lit(keys)} }) { id pubKey } }`), 'updateUserSettings');
  expectEqual(updated?.pubKey, keys, 'updateUserSettings pubKey');
  expectEqual(data(await ctx.gql('query myself { myself { pubKey } }'), 'myself').pubKey, keys, 'myself.pubKey after updateUserSettings');
});

defineCheck('GQL-SDK-003', async (ctx) => {
  const id = ctx.value<string>('gpuTypeId');
  const all = data(await ctx.gql('query GpuTypes { gpuTypes { id displayName memoryInGb } }'), 'gpuTypes') as { id: string }[];
  expect(all.some((t) => t.id === id), `gpuTypes lacks ${id}`);
  const fields = 'id securePrice communityPrice secureCloud communityCloud lowestPrice(input: {gpuCount: 1}) { uninterruptablePrice }';
  const [one, ...more] = data(await ctx.gql(`query GpuTypes { gpuTypes(input: {id: ${lit(id)}}) { ${fields} } }`), 'gpuTypes');
  expectEqual([one?.id, more.length], [id, 0], 'gpuTypes(input: {id}) answer');
  const offers = [one.secureCloud ? one.securePrice : undefined, one.communityCloud ? one.communityPrice : undefined].filter((p) => typeof p === 'number');
  if (offers.length > 0) expectEqual(one.lowestPrice?.uninterruptablePrice, Math.min(...offers), 'lowestPrice for 1 GPU');
  expectEqual(data(await ctx.gql('query GpuTypes { gpuTypes(input: {id: "cc-no-such-gpu"}) { id } }'), 'gpuTypes'), [], 'gpuTypes of an unknown id');
}, { shares: [] });

defineCheck('GQL-SDK-004', async (ctx) => {
  const gpuTypeId = ctx.value<string>('gpuTypeId');
  const name = ctx.name('gqlgpu');
  // Bearer, as runpod-python sends it (never ?api_key=).
  const answer = await ctx.gql(`
    mutation {
      podFindAndDeployOnDemand(
        input: {
          name: ${lit(name)}, imageName: ${lit(ctx.target.workerImage)}, cloudType: ALL, startSsh: true, gpuTypeId: ${lit(gpuTypeId)}, supportPublicIp: true, gpuCount: 1, volumeInGb: 0, minVcpuCount: 1, minMemoryInGb: 1, dataCenterId: null, dockerArgs: "", containerDiskInGb: 10, volumeMountPath: "/runpod-volume", env: [{ key: "CC", value: "1" }]
        }
      ) { ${POD_FIELDS} }
    }`, {}, { via: 'bearer' });
  const gpu = data(answer, 'podFindAndDeployOnDemand');
  expect(typeof gpu?.id === 'string' && typeof gpu.machine?.podHostId === 'string', 'podFindAndDeployOnDemand answered no id or machine.podHostId');
  ctx.cleanup(() => restDelete(ctx, 'pod', gpu.id));
  const cpu = await deployCpu(ctx, '', ctx.value<string>('cpuInstanceId'));
  for (const [pod, what] of [[gpu, 'GPU'], [cpu, 'CPU']] as const) {
    const viaRest = await restRead(ctx, 'pod', pod.id);
    expect(viaRest.status === 200, `${viaRest.surface} getPod of the ${what} pod deployed through GraphQL answered ${viaRest.status}`);
    expectEqual([viaRest.id, viaRest.name, viaRest.image], [pod.id, pod.name, pod.imageName], `${viaRest.surface} view of the ${what} pod`);
  }
  expectEqual(gpu.env, ['CC=1'], 'Pod.env as KEY=value strings');
}, { needs: ['graphql', ...REST_VIEW], shares: [] });

defineCheck('GQL-SDK-005', async (ctx) => {
  const pod = await ctx.pod();
  const status = async () => (await restRead(ctx, 'pod', pod.id)).state;
  const stopped = data(await ctx.gql(`mutation { podStop(input: { podId: ${lit(pod.id)} }) { id desiredStatus } }`), 'podStop');
  expectEqual([stopped?.desiredStatus, await status()], ['EXITED', 'EXITED'], 'podStop answer and the REST status');
  const resumed = data(await ctx.gql(`mutation { podResume(input: { podId: ${lit(pod.id)}, gpuCount: 1 }) { id desiredStatus imageName env machineId machine { podHostId } } }`), 'podResume');
  expectEqual([resumed?.desiredStatus, await status()], ['RUNNING', 'RUNNING'], 'podResume answer and the REST status');
  const read = data(await ctx.gql(`query pod { pod(input: {podId: ${lit(pod.id)}}) { id desiredStatus } }`), 'pod');
  expectEqual(read, { id: pod.id, desiredStatus: 'RUNNING' }, 'pod(input: {podId})');
  expectEqual(data(await ctx.gql('query pod { pod(input: {podId: "cc-no-such-pod"}) { id } }'), 'pod'), null, 'pod of an unknown id');
  const terminated = await ctx.gql(`mutation { podTerminate(input: { podId: ${lit(pod.id)} }) }`);
  expectEqual(data(terminated, 'podTerminate'), null, 'podTerminate answer');
  expectEqual((await restRead(ctx, 'pod', pod.id)).status, 404, 'REST getPod after podTerminate');
}, { needs: ['graphql', ...REST_VIEW], shares: [] });

defineCheck('GQL-SDK-006', async (ctx) => {
  const name = ctx.name('gqltpl');
  const template = data(await ctx.gql(`mutation { saveTemplate(input: { name: ${lit(name)}, imageName: ${lit(ctx.target.workerImage)}, dockerArgs: "", containerDiskInGb: 10, volumeInGb: 0, ports: "22/tcp", env: [], isServerless: false }) { id } }`), 'saveTemplate');
  ctx.cleanup(() => ctx.deleteTemplateEventually(template.id));
  const pod = await deployCpu(ctx, `, templateId: ${lit(template.id)}`);
  expectEqual(await restDelete(ctx, 'template', template.id), ctx.value<{ deleteTemplate: number }>('rejects').deleteTemplate, 'REST deleteTemplate while a GraphQL-deployed pod uses it');
  failed(await ctx.gql(`mutation { deleteTemplate(templateName: ${lit(name)}) }`), 'GraphQL deleteTemplate while a GraphQL-deployed pod uses it');
  expectEqual((await restRead(ctx, 'template', template.id)).status, 200, 'REST getTemplate after the refused deletes');
  data(await ctx.gql(`mutation { podTerminate(input: { podId: ${lit(pod.id)} }) }`), 'podTerminate');
}, { needs: ['graphql', ...REST_VIEW], shares: ['clock'] });

defineCheck('GQL-SDK-007', async (ctx) => {
  // Told apart by their disk: REST v2 shows an endpoint's container settings, not its template's id.
  const first = await serverlessTemplate(ctx, 10);
  const second = await serverlessTemplate(ctx, 11);
  const pools = ctx.value<string>('gpuIds');
  const endpoint = data(await ctx.gql(`
    mutation {
        saveEndpoint(
            input: {
                name: ${lit(ctx.name('gqlep'))}, templateId: ${lit(first)}, gpuIds: ${lit(pools)}, networkVolumeId: "", locations: "", idleTimeout: 5, scalerType: "QUEUE_DELAY", scalerValue: 4, workersMin: 0, workersMax: 1, gpuCount: 1
            }
        ) { ${ENDPOINT_FIELDS} }
    }`), 'saveEndpoint');
  expect(typeof endpoint?.id === 'string', 'saveEndpoint answered no id');
  ctx.cleanup(() => restDelete(ctx, 'endpoint', endpoint.id));
  expectEqual([endpoint.templateId, endpoint.gpuIds, endpoint.workersMax], [first, pools, 1], 'saveEndpoint answer');
  const viaRest = await restRead(ctx, 'endpoint', endpoint.id);
  expect(viaRest.status === 200, `${viaRest.surface} getEndpoint of the GraphQL endpoint answered ${viaRest.status}`);
  // REST v1 lists the pools' GPU types (gpuTypeIds); REST v2 keeps the pools (gpu.pools).
  const gpus = viaRest.surface === 'restV1' ? viaRest.body.gpuTypeIds : viaRest.body.gpu?.pools;
  expect(Array.isArray(gpus) && gpus.length > 0, `${viaRest.surface} shows no GPU types or pools for ${pools}`);
  const moved = data(await ctx.gql(`mutation { updateEndpointTemplate(input: {templateId: ${lit(second)}, endpointId: ${lit(endpoint.id)}}) { id templateId } }`), 'updateEndpointTemplate');
  expectEqual(moved, { id: endpoint.id, templateId: second }, 'updateEndpointTemplate answer');
  const after = await restRead(ctx, 'endpoint', endpoint.id);
  if (after.surface === 'restV1') expectEqual(after.body.templateId, second, 'REST v1 templateId after updateEndpointTemplate');
  else expectEqual(after.body.disk, 11, 'REST v2 disk after updateEndpointTemplate (the second template\'s containerDiskInGb)');
}, { needs: ['graphql', ...REST_VIEW], shares: ['clock'] });

defineCheck('GQL-SDK-008', async (ctx) => {
  const name = ctx.name('gqlreg');
  const saved = data(await ctx.gql(`mutation SaveRegistryAuth { saveRegistryAuth(input: {name: ${lit(name)}, username: "cc-user", password: ${lit(ctx.secret('registry password'))}}) { id name } }`), 'saveRegistryAuth');
  expectEqual(Object.keys(saved ?? {}).sort(), ['id', 'name'], 'saveRegistryAuth answer keys');
  ctx.cleanup(() => ctx.gql(`mutation DeleteRegistryAuth { deleteRegistryAuth(registryAuthId: ${lit(saved.id)}) }`));
  const updated = data(await ctx.gql(`mutation UpdateRegistryAuth { updateRegistryAuth(input: {id: ${lit(saved.id)}, username: "cc-user-2", password: ${lit(ctx.secret('registry password'))}}) { id name } }`), 'updateRegistryAuth');
  expectEqual(updated, { id: saved.id, name }, 'updateRegistryAuth answer');
  const viaRest = await restRead(ctx, 'registryAuth', saved.id);
  expectEqual([viaRest.id, viaRest.name], [saved.id, name], `${viaRest.surface} view of the GraphQL registry auth`);
  await restList(ctx, 'registryAuth');
  expectEqual(data(await ctx.gql(`mutation DeleteRegistryAuth { deleteRegistryAuth(registryAuthId: ${lit(saved.id)}) }`), 'deleteRegistryAuth'), null, 'deleteRegistryAuth answer');
  return 'both passwords scanned in every answer of the run';
}, { needs: ['graphql', ...REST_VIEW], shares: [] });

defineCheck('GQL-SDK-009', async (ctx) => {
  const id = 'cc-no-such-id';
  const attempts: [string, string][] = [
    ['podStop', `mutation { podStop(input: { podId: "${id}" }) { id } }`],
    ['podResume', `mutation { podResume(input: { podId: "${id}", gpuCount: 1 }) { id } }`],
    ['podTerminate', `mutation { podTerminate(input: { podId: "${id}" }) }`],
    ['updateEndpointTemplate', `mutation { updateEndpointTemplate(input: {templateId: "${id}", endpointId: "${id}"}) { id } }`],
    ['updateRegistryAuth', `mutation { updateRegistryAuth(input: {id: "${id}", username: "u", password: ${lit(ctx.secret('registry password'))}}) { id } }`],
    ['deleteRegistryAuth', `mutation { deleteRegistryAuth(registryAuthId: "${id}") }`],
  ];
  for (const [operation, query] of attempts) failed(await ctx.gql(query), `${operation} of an unknown id`, id);
}, { shares: [] });

defineCheck('GQL-SDK-INPUT-001', async (ctx) => {
  const long = 'x'.repeat(ctx.value<number>('nameMaxLength') + 1);
  const gpu = 'NVIDIA GeForce RTX 4090';
  const attempts: [string, string, string][] = [
    ['deployCpuPod name', `mutation { deployCpuPod(input: { name: ${lit(long)}, imageName: "x:1" }) { id } }`, 'name'],
    ['podFindAndDeployOnDemand gpuCount', `mutation { podFindAndDeployOnDemand(input: { name: "cc", imageName: "x:1", gpuTypeId: ${lit(gpu)}, gpuCount: ${ctx.value<number>('gpuCountMax') + 1} }) { id } }`, 'gpuCount'],
    ['podFindAndDeployOnDemand gpuCount as a string', `mutation { podFindAndDeployOnDemand(input: { name: "cc", imageName: "x:1", gpuTypeId: ${lit(gpu)}, gpuCount: "1" }) { id } }`, 'Int'],
    ['podFindAndDeployOnDemand without gpuTypeId', 'mutation { podFindAndDeployOnDemand(input: { name: "cc", imageName: "x:1" }) { id } }', 'gpuTypeId'],
    ['podStop podId', `mutation { podStop(input: { podId: ${lit('p'.repeat(ctx.value<number>('podIdMaxLength') + 1))} }) { id } }`, 'podId'],
    ['saveEndpoint workersMax', `mutation { saveEndpoint(input: { name: "cc", templateId: "t", workersMax: ${ctx.value<number>('workersMaxMax') + 1} }) { id } }`, 'workersMax'],
    ['saveRegistryAuth name', `mutation { saveRegistryAuth(input: {name: ${lit(long)}, username: "u", password: ${lit(ctx.secret('registry password'))}}) { id } }`, 'name'],
    ['updateUserSettings without input', 'mutation { updateUserSettings { id } }', 'input'],
  ];
  const before = (await restList(ctx, 'pod')).length;
  for (const [what, query, field] of attempts) failed(await ctx.gql(query), what, field);
  expectEqual((await restList(ctx, 'pod')).length, before, 'pods after the refused deploys');
}, { needs: REST_VIEW });
