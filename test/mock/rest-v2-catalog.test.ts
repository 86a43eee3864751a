// REST v2 catalog: seeded GPU types, CPU flavours, data centres and public templates, with stock only
// on request and following the query's filters and the control API's unavailable GPUs. RESTV2-CATALOG-*.
import { afterEach, describe, expect, it } from 'vitest';
import { V2Harness } from './rest-v2-resource-harness.js';

let t: V2Harness | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const start = async () => (t = await V2Harness.start());
const RTX_4090 = encodeURIComponent('NVIDIA GeForce RTX 4090');

describe('RESTV2-CATALOG-001 seeded, deterministic catalog with REST v1\'s ids', () => {
  it('lists GPU types (the REST v1 ids, pools, prices), CPU flavours, the 26 data centres and official templates, the same on every start', async () => {
    const h = await start();
    const gpus = (await h.v2('GET', '/catalog/gpus')).body.gpus;
    expect(gpus.find((g: { id: string }) => g.id === 'NVIDIA GeForce RTX 4090')).toMatchObject({ pool: 'ADA_24', manufacturer: 'NVIDIA', memory: 24, price: { secure: 0.69, serverless: 1.12 } });
    expect(gpus.every((g: Record<string, unknown>) => g['availability'] === undefined)).toBe(true);
    const cpus = (await h.v2('GET', '/catalog/cpus')).body.cpus;
    expect(cpus.map((c: { id: string }) => c.id)).toEqual(['cpu3c', 'cpu3g', 'cpu3m', 'cpu5c', 'cpu5g', 'cpu5m']);
    const dcs = (await h.v2('GET', '/catalog/datacenters')).body.dataCenters;
    expect(dcs).toHaveLength(26);
    expect(dcs.map((d: { id: string }) => d.id)).toContain('EU-RO-1');
    const templates = (await h.v2('GET', '/catalog/templates')).body.templates;
    expect(templates.every((x: { public: boolean; registry: unknown }) => x.public && x.registry === null)).toBe(true);
    expect((await h.v2('GET', '/templates')).body.templates).toEqual([]);
    const again = await h.v2('GET', `/catalog/gpus/${RTX_4090}?include=AVAILABILITY&product=POD`);
    await h.close();
    t = await V2Harness.start();
    expect((await t.v2('GET', `/catalog/gpus/${RTX_4090}?include=AVAILABILITY&product=POD`)).body).toEqual(again.body);
  });

  it('unknown ids are 404; public templates by source', async () => {
    const h = await start();
    expect((await h.v2('GET', '/catalog/gpus/NVIDIA%20Nothing')).status).toBe(404);
    expect((await h.v2('GET', '/catalog/cpus/cpu9x')).status).toBe(404);
    expect((await h.v2('GET', '/catalog/datacenters/XX-NO-1')).status).toBe(404);
    expect((await h.v2('GET', '/catalog/datacenters/US-KS-2')).body).toMatchObject({ id: 'US-KS-2', region: 'NORTH_AMERICA', networkVolumeTypes: ['STANDARD', 'HIGH_PERFORMANCE'] });
    const verified = (await h.v2('GET', '/catalog/templates?source=verified')).body.templates;
    const community = (await h.v2('GET', '/catalog/templates?source=community')).body.templates;
    expect(verified.length).toBeGreaterThan(0);
    expect(community.length).toBeGreaterThan(0);
    expect(verified.map((x: { id: string }) => x.id)).not.toContain(community[0].id);
  });
});

describe('RESTV2-CATALOG-002 stock only with include, and the query\'s filters', () => {
  it('filters without include, include without product, both CUDA filters → 400', async () => {
    const h = await start();
    expect((await h.v2('GET', '/catalog/gpus?count=2')).status).toBe(400);
    expect((await h.v2('GET', '/catalog/gpus?include=AVAILABILITY')).status).toBe(400);
    expect((await h.v2('GET', `/catalog/gpus/${RTX_4090}?product=POD`)).status).toBe(400);
    expect((await h.v2('GET', '/catalog/gpus?include=AVAILABILITY&product=POD&cudaVersions=12.8&minCudaVersion=12')).status).toBe(400);
    expect((await h.v2('GET', '/catalog/cpus?vcpuCount=4')).status).toBe(400);
    expect((await h.v2('GET', '/catalog/cpus?include=AVAILABILITY&product=POD&vcpuCount=6')).status).toBe(400);
  });

  it('product, count, cloud, countryCodes and CUDA filters shape availability, dataCenters and cudaVersions', async () => {
    const h = await start();
    const get = async (query: string, id = RTX_4090) => (await h.v2('GET', `/catalog/gpus/${id}?include=AVAILABILITY&${query}`)).body;
    const pod = await get('product=POD');
    expect(pod.availability).not.toBe('NONE');
    expect(pod.dataCenters.length).toBeGreaterThan(0);
    expect(pod.cudaVersions.every((c: { available: boolean }) => c.available)).toBe(true);
    // Not in any serverless pool: no serverless stock.
    expect((await get('product=SERVERLESS', encodeURIComponent('NVIDIA GeForce RTX 5090'))).availability).toBe('NONE');
    expect((await get('product=POD&count=8')).availability).not.toBe('NONE');
    expect((await get('product=POD&cloud=COMMUNITY&count=8')).availability).toBe('NONE');
    expect((await get('product=POD&cloud=COMMUNITY', encodeURIComponent('NVIDIA L4'))).availability).toBe('NONE');
    const inFrance = await get('product=POD&countryCodes=FR');
    expect(inFrance.dataCenters.map((d: { id: string }) => d.id)).toEqual(['EU-FR-1']);
    expect((await get('product=POD&cudaVersions=11.8')).availability).toBe('NONE');
    expect((await get('product=POD&minCudaVersion=12.8')).cudaVersions.map((c: { version: string }) => c.version)).toEqual(['12.8', '12.9', '13.0']);
    const listInJapan = (await h.v2('GET', '/catalog/gpus?include=AVAILABILITY&product=POD&countryCodes=JP')).body.gpus;
    expect(listInJapan.length).toBeLessThan(24);
    expect(listInJapan.every((g: { dataCenters: { id: string }[] }) => g.dataCenters.every((d) => d.id === 'AP-JP-1'))).toBe(true);
  });

  it('a GPU type the control API marks unavailable has no stock anywhere (availability NONE)', async () => {
    const h = await start();
    await h.h.control('POST', '/gpu-availability', { unavailable: ['NVIDIA GeForce RTX 4090'] });
    const gpu = (await h.v2('GET', `/catalog/gpus/${RTX_4090}?include=AVAILABILITY&product=POD`)).body;
    expect(gpu.availability).toBe('NONE');
    expect(gpu.dataCenters.every((d: { availability: string }) => d.availability === 'NONE')).toBe(true);
    expect(gpu.cudaVersions.every((c: { available: boolean }) => !c.available)).toBe(true);
    const dc = (await h.v2('GET', '/catalog/datacenters/EU-RO-1?include=GPU_AVAILABILITY')).body;
    expect(dc.gpuAvailability.find((g: { id: string }) => g.id === 'NVIDIA GeForce RTX 4090').availability).toBe('NONE');
  });

  it('data centres filter by region, tiers (all), compliance (all) and globalNetwork; include adds stock', async () => {
    const h = await start();
    const list = async (query: string) => (await h.v2('GET', `/catalog/datacenters?${query}`)).body.dataCenters as Record<string, any>[];
    expect((await list('regions=OCEANIA')).map((d) => d.id)).toEqual(['OC-AU-1']);
    const both = await list('networkVolumeTypes=HIGH_PERFORMANCE&networkVolumeTypes=STANDARD');
    expect(both.every((d) => d.networkVolumeTypes.length === 2)).toBe(true);
    expect((await list('compliance=GDPR&compliance=HIPAA')).map((d) => d.id)).toEqual(['EU-FR-1']);
    expect((await list('globalNetwork=false')).every((d) => d.globalNetwork === false)).toBe(true);
    const withStock = await list('include=GPU_AVAILABILITY&include=CPU_AVAILABILITY&regions=ASIA');
    expect(withStock[0]!['gpuAvailability'].length).toBeGreaterThan(0);
    expect(withStock[0]!['cpuAvailability'].length).toBeGreaterThan(0);
    expect((await list('regions=ASIA'))[0]!['gpuAvailability']).toBeUndefined();
  });
});
