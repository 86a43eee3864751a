// REST v2 catalog and billing: RESTV2-CATALOG-*, RESTV2-BILLING-*.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { expectProblem } from './rest-v2-core.js';

const UNKNOWN = 'cc-unknown-id-404';
const STOCK_FIELDS = ['availability', 'dataCenters', 'cudaVersions'];

async function list(ctx: Ctx, op: string, key: string, query?: Record<string, string | number>): Promise<any[]> {
  const answer = await ctx.v2(op, query ? { query } : {});
  expectStatus(answer, 200, `${op}${query ? ` ${JSON.stringify(query)}` : ''}`);
  expect(Array.isArray(answer.body?.[key]), `${op} did not answer {"${key}": [...]}`);
  return answer.body[key] as any[];
}

defineCheck('RESTV2-CATALOG-001', async (ctx) => {
  const cases: [string, string, string, string[]][] = [
    ['listGpuTypes', 'getGpuType', 'gpus', STOCK_FIELDS],
    ['listCpuTypes', 'getCpuType', 'cpus', STOCK_FIELDS],
    ['listDataCenters', 'getDataCenter', 'dataCenters', ['gpuAvailability', 'cpuAvailability']],
  ];
  for (const [listOp, getOp, key, stock] of cases) {
    const items = await list(ctx, listOp, key);
    expect(items.length > 0, `${listOp} is empty`);
    expect(items.every((i) => stock.every((f) => i[f] === undefined)), `${listOp} carries stock fields without include`);
    const one = await ctx.v2(getOp, { path: { id: items[0].id } });
    expectStatus(one, 200, `${getOp} of a listed id`);
    expectEqual(one.body, items[0], `${getOp} against its list entry`);
    expectProblem(await ctx.v2(getOp, { path: { id: UNKNOWN } }), 404, `${getOp} of an unknown id`);
  }
});

defineCheck('RESTV2-CATALOG-002', async (ctx) => {
  const status = ctx.value<number>('status');
  const gpu = (await list(ctx, 'listGpuTypes', 'gpus'))[0].id as string;
  const cpu = (await list(ctx, 'listCpuTypes', 'cpus'))[0].id as string;
  const gpuOps: [string, Record<string, string>][] = [['listGpuTypes', {}], ['getGpuType', { id: gpu }]];
  for (const [op, path] of gpuOps) {
    expectProblem(await ctx.v2(op, { path, query: { include: 'AVAILABILITY' } }), status, `${op} include=AVAILABILITY without product`);
    for (const [name, value] of [['product', 'POD'], ['count', 2], ['cloud', 'SECURE'], ['countryCodes', 'FR'], ['cudaVersions', '12.8'], ['minCudaVersion', '12']] as const) {
      expectProblem(await ctx.v2(op, { path, query: { [name]: value } }), status, `${op} ${name} without include`);
    }
    expectProblem(await ctx.v2(op, { path, query: { include: 'AVAILABILITY', product: 'POD', cudaVersions: '12.8', minCudaVersion: '12.4' } }), status, `${op} with cudaVersions and minCudaVersion`);
  }
  const cpuOps: [string, Record<string, string>][] = [['listCpuTypes', {}], ['getCpuType', { id: cpu }]];
  for (const [op, path] of cpuOps) {
    expectProblem(await ctx.v2(op, { path, query: { include: 'AVAILABILITY' } }), status, `${op} include=AVAILABILITY without product`);
    expectProblem(await ctx.v2(op, { path, query: { vcpuCount: 4 } }), status, `${op} vcpuCount without include`);
  }
});

defineCheck('RESTV2-CATALOG-003', async (ctx) => {
  const dcIds = new Set((await list(ctx, 'listDataCenters', 'dataCenters')).map((d) => d.id as string));
  const stocked = await list(ctx, 'listGpuTypes', 'gpus', { include: 'AVAILABILITY', product: 'POD' });
  expect(stocked.every((g) => typeof g.availability === 'string'), 'a GPU type lacks availability with include=AVAILABILITY');
  for (const g of stocked) {
    for (const d of g.dataCenters ?? []) expect(dcIds.has(d.id), `${g.id}: data center ${d.id} is not in listDataCenters`);
  }
  const all = new Set(stocked.map((g) => g.id as string));
  const narrowed = await list(ctx, 'listGpuTypes', 'gpus', { include: 'AVAILABILITY', product: 'POD', countryCodes: 'JP' });
  expect(narrowed.every((g) => all.has(g.id)), 'countryCodes added GPU types');
  const withCuda = stocked.find((g) => (g.cudaVersions ?? []).length > 1);
  if (withCuda) {
    const version = withCuda.cudaVersions[0].version as string;
    const one = await ctx.v2('getGpuType', { path: { id: withCuda.id }, query: { include: 'AVAILABILITY', product: 'POD', cudaVersions: version } });
    expectStatus(one, 200, 'getGpuType with cudaVersions');
    expectEqual((one.body.cudaVersions ?? []).map((c: { version: string }) => c.version), [version], `${withCuda.id} cudaVersions narrowed to ${version}`);
  }
});

defineCheck('RESTV2-CATALOG-004', async (ctx) => {
  const all = await list(ctx, 'listDataCenters', 'dataCenters');
  const region = all[0].region as string;
  expectEqual((await list(ctx, 'listDataCenters', 'dataCenters', { regions: region })).map((d) => d.id), all.filter((d) => d.region === region).map((d) => d.id), `regions=${region}`);
  const tiers = await list(ctx, 'listDataCenters', 'dataCenters', { networkVolumeTypes: 'HIGH_PERFORMANCE' });
  expectEqual(tiers.map((d) => d.id), all.filter((d) => d.networkVolumeTypes.includes('HIGH_PERFORMANCE')).map((d) => d.id), 'networkVolumeTypes=HIGH_PERFORMANCE');
  const cert = all.find((d) => d.compliance.length > 0)?.compliance[0] as string | undefined;
  if (cert) expectEqual((await list(ctx, 'listDataCenters', 'dataCenters', { compliance: cert })).map((d) => d.id), all.filter((d) => d.compliance.includes(cert)).map((d) => d.id), `compliance=${cert}`);
  expectEqual((await list(ctx, 'listDataCenters', 'dataCenters', { globalNetwork: 'true' })).map((d) => d.id), all.filter((d) => d.globalNetwork).map((d) => d.id), 'globalNetwork=true');
  const gpuStock = await ctx.v2('getDataCenter', { path: { id: all[0].id }, query: { include: 'GPU_AVAILABILITY' } });
  expectStatus(gpuStock, 200, 'getDataCenter include=GPU_AVAILABILITY');
  expect(gpuStock.body.cpuAvailability === undefined, 'cpuAvailability without include=CPU_AVAILABILITY');
  const withGpus = (await list(ctx, 'listDataCenters', 'dataCenters', { include: 'GPU_AVAILABILITY' })).filter((d) => d.gpuAvailability !== undefined);
  expect(withGpus.length > 0, 'no data center has gpuAvailability with include=GPU_AVAILABILITY');
});

defineCheck('RESTV2-CATALOG-005', async (ctx) => {
  const own = new Set((await list(ctx, 'listTemplates', 'templates')).map((t) => t.id as string));
  const official = await list(ctx, 'listPublicTemplates', 'templates');
  expectEqual((await list(ctx, 'listPublicTemplates', 'templates', { source: 'official' })).map((t) => t.id), official.map((t) => t.id), 'source=official against the default');
  for (const source of ['official', 'verified', 'community']) {
    const templates = source === 'official' ? official : await list(ctx, 'listPublicTemplates', 'templates', { source });
    expect(templates.length <= ctx.value<number>('maxItems'), `${source}: more than ${ctx.value<number>('maxItems')} templates`);
    for (const t of templates) {
      expect(t.public === true && t.registry === null, `${source} template ${t.id}: public ${t.public}, registry ${t.registry}`);
      expect(!own.has(t.id), `${source} template ${t.id} is one of the caller's templates`);
    }
  }
});

defineCheck('RESTV2-CATALOG-006', async (ctx) => {
  const core = ctx.target.embedded!.core;
  const gpus = await list(ctx, 'listGpuTypes', 'gpus');
  const rtx = gpus.find((g) => g.id === 'NVIDIA GeForce RTX 4090');
  expectEqual(rtx?.pool, 'ADA_24', 'pool of NVIDIA GeForce RTX 4090');
  const dcs = (await list(ctx, 'listDataCenters', 'dataCenters')).map((d) => d.id);
  expectEqual(dcs.length, 26, 'data centers (REST v1 dataCenterIds)');
  expect(dcs.includes('EU-RO-1') && dcs.includes('US-KS-2'), 'EU-RO-1 or US-KS-2 missing');
  const had = core.unavailableGpuTypes.has(rtx!.id);
  core.unavailableGpuTypes.add(rtx!.id);
  try {
    const none = await ctx.v2('getGpuType', { path: { id: rtx!.id }, query: { include: 'AVAILABILITY', product: 'POD' } });
    expectEqual(none.body.availability, 'NONE', 'availability of an unavailable GPU type');
    expect((none.body.dataCenters ?? []).every((d: { availability: string }) => d.availability === 'NONE'), 'a data center still stocks the unavailable GPU type');
  } finally {
    if (!had) core.unavailableGpuTypes.delete(rtx!.id);
  }
  return 'checked against the embedded mock with the GPU type made unavailable in-process';
}, { requires: ['embedded'] });

// ---- billing -----------------------------------------------------------------------------------

const BILLING = [
  ['listBilling', undefined], ['listPodBilling', 'podId'], ['listServerlessBilling', 'serverlessId'],
  ['listEndpointBilling', undefined], ['listNetworkVolumeBilling', 'networkVolumeId'], ['listClusterBilling', 'clusterId'],
] as const;

defineCheck('RESTV2-BILLING-001', async (ctx) => {
  for (const [op, filter] of BILLING) {
    const answer = await ctx.v2(op, { query: { lastN: 3 } });
    expectStatus(answer, 200, op);
    const { records, metadata } = answer.body as { records: any[]; metadata: any };
    expectEqual(metadata.recordCount, records.length, `${op} recordCount`);
    const start = Date.parse(metadata.query.startTime);
    const end = Date.parse(metadata.query.endTime);
    expect(records.every((r) => Date.parse(r.startTime) >= start && Date.parse(r.endTime) <= end && r.startTime < r.endTime), `${op}: a record lies outside the window ${metadata.query.startTime} … ${metadata.query.endTime}`);
    if (filter) expectEqual(metadata.query[filter], null, `${op} metadata.query.${filter} without the filter`);
    for (const [k, v] of Object.entries(metadata.totals as Record<string, number>)) {
      const sum = records.reduce((s, r) => s + (r[k] ?? 0), 0);
      expect(Math.abs(sum - v) <= 0.0001 * Math.max(1, records.length), `${op} totals.${k} ${v} is not the sum of the records (${sum})`);
    }
  }
});

defineCheck('RESTV2-BILLING-002', async (ctx) => {
  const aligned = await ctx.v2('listBilling', { query: { startTime: '2026-03-04T05:06:07Z', endTime: '2026-03-06T01:00:00Z', bucketSize: 'day' } });
  expectStatus(aligned, 200, 'listBilling with unaligned times');
  expectEqual([aligned.body.metadata.query.startTime, aligned.body.metadata.query.endTime], ['2026-03-04T00:00:00Z', '2026-03-07T00:00:00Z'], 'window moved to bucket edges');
  expectEqual(aligned.body.records.length, 3, 'daily buckets in the window');
  const last = await ctx.v2('listEndpointBilling', { query: { lastN: 4, bucketSize: 'hour' } });
  expectStatus(last, 200, 'listEndpointBilling lastN=4');
  expectEqual(last.body.records.length, 4, 'records of lastN=4 hourly');
  const status = ctx.value<number>('status');
  expectProblem(await ctx.v2('listPodBilling', { query: { lastN: 2, startTime: '2026-03-01T00:00:00Z' } }), status, 'lastN with startTime');
  expectProblem(await ctx.v2('listBilling', { query: { startTime: '2026-03-05T00:00:00Z', endTime: '2026-03-01T00:00:00Z' } }), status, 'startTime after endTime');
  expectProblem(await ctx.v2('listBilling', { query: { startTime: '2020-01-01T00:00:00Z', endTime: '2026-01-01T00:00:00Z', bucketSize: 'hour' } }), status, `more than ${ctx.value<number>('maxBuckets')} buckets`);
});

defineCheck('RESTV2-BILLING-003', async (ctx) => {
  const pod = await ctx.rest('createPod', { body: { name: ctx.name('billed'), imageName: 'cc/billed:1', gpuTypeIds: ['NVIDIA GeForce RTX 4090'] } });
  expectStatus(pod, 201, 'createPod (REST v1)');
  const id = String(pod.body.id);
  ctx.cleanup(() => ctx.rest('deletePod', { path: { podId: id } }));
  await ctx.pass(3 * 3_600_000);
  const v1 = await ctx.rest('getPodBilling', { query: { grouping: 'podId', podId: id } });
  expectStatus(v1, 200, 'getPodBilling (REST v1)');
  const v2 = await ctx.v2('listPodBilling', { query: { podId: id, lastN: 2, bucketSize: 'day' } });
  expectStatus(v2, 200, 'listPodBilling');
  expectEqual(v2.body.metadata.totals.totalAmount, v1.body[0]?.amount, 'REST v2 total of the pod against REST v1');
  const hourly = await ctx.v2('listPodBilling', { query: { podId: id, lastN: 6, bucketSize: 'hour' } });
  const billed = (hourly.body.records as { totalAmount: number }[]).filter((r) => r.totalAmount > 0).length;
  expect(billed >= 3 && billed <= 4, `the 3 running hours fall in ${billed} hourly buckets`);
}, { needs: ['restV1', 'restV2'], realWaitMs: 3 * 3_600_000 });

defineCheck('RESTV2-BILLING-004', async (ctx) => {
  const volume = await ctx.v2('createNetworkVolume', { body: { name: ctx.name('billed'), size: 10, dataCenter: 'EU-RO-1' } });
  expectStatus(volume, 201, 'createNetworkVolume');
  ctx.cleanup(() => ctx.v2('deleteNetworkVolume', { path: { id: volume.body.id } }));
  const mine = await ctx.v2('listNetworkVolumeBilling', { query: { networkVolumeId: volume.body.id, lastN: 2 } });
  expectStatus(mine, 200, 'listNetworkVolumeBilling by id');
  expect(mine.body.records.length > 0, 'no record of the new volume');
  expect(mine.body.records.every((r: { networkVolumeId: string }) => r.networkVolumeId === volume.body.id), 'a record of another volume');
  expectEqual(mine.body.metadata.query.networkVolumeId, volume.body.id, 'metadata.query.networkVolumeId');
  for (const [op, filter] of BILLING) {
    if (!filter) continue;
    const none = await ctx.v2(op, { query: { [filter]: UNKNOWN, lastN: 2 } });
    expectStatus(none, 200, `${op} for an id that names nothing`);
    expectEqual(none.body.records, [], `${op} records for an id that names nothing`);
  }
});
