// The public GraphQL catalogue (SDL `x-auth: none`): what answers without a key, the Hub and Public Endpoint
// fixtures against the SDL and the mock's catalogue, lowestPrice per cloud and CUDA version, and the Hub
// deploy through saveEndpoint (hubReleaseId + template) with its bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUB_LISTINGS, PUBLIC_ENDPOINT_CONFIGS } from '../../src/mock/graphql/public-catalogue.js';
import { GPU_TYPES, isGpuPool } from '../../src/mock/rest-v2/catalog-data.js';
import { Harness } from './harness.js';

let h: Harness;
beforeAll(async () => (h = await Harness.start()));
afterAll(() => h.close());

const LISTING_FIELDS = 'id repoId title description repoName repoOwner createdAt updatedAt views stars deploys language category tags type listedRelease { id name tagName createdAt config build { id imageName } }';
const counts = () => [h.mock.core.store.endpoints.size, h.mock.core.store.templates.size];
const DEPLOY = 'mutation saveEndpoint($input: EndpointInput!) { saveEndpoint(input: $input) { id name gpuIds gpuCount templateId flashBootType } }';
const hubInput = (extra: Record<string, unknown> = {}) => ({
  name: 'hub-deploy', hubReleaseId: 'rel_vllm_240', type: 'QB', gpuIds: 'ADA_24', gpuCount: 1, workersMin: 0, workersMax: null, idleTimeout: 5,
  scalerType: 'QUEUE_DELAY', scalerValue: 4, executionTimeoutMs: 600000, flashBootType: 'FLASHBOOT', locations: null, networkVolumeIds: null,
  compliance: [], modelReferences: [], minCudaVersion: '12.4', allowedCudaVersions: '12.8,12.6,12.4',
  template: { name: `hub-tpl-${Math.random().toString(36).slice(2, 8)}`, imageName: 'runpod/worker-v1-vllm:v2.4.0', containerDiskInGb: 40, containerRegistryAuthId: '', dockerArgs: '', startScript: '', ports: '', env: [{ key: 'MODEL_NAME', value: 'm' }] },
  ...extra,
});

describe('GQL-PUBLIC-001 / GQL-PUBLIC-002: which requests answer without a key', () => {
  it('GQL-PUBLIC-001 the catalogue queries answer without a key, exactly as with one', async () => {
    const query = `{ listings(input: {}) { ${LISTING_FIELDS} } allAiApiPublicConfigs { id aiApiId modelName displayName description metadata isLive createdAt updatedAt } gpuTypes { id displayName memoryInGb secureCloud communityCloud lowestPrice(input: {gpuCount: 1}) { stockStatus uninterruptablePrice gpuTypeCudaVersions { cudaVersion availability } } } }`;
    const anonymous = await h.graphql(query, undefined, null);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data).toEqual((await h.graphql(query)).body.data);
    expect(anonymous.body.data.listings).toHaveLength(HUB_LISTINGS.length);
  });

  it.each([
    ['{ gpuTypes { id } myself { id pubKey } }'],
    ['{ listings(input: {}) { id } pod(input: {podId: "x"}) { id } }'],
    ['{ allAiApiPublicConfigs { id } podTemplate(id: "x") { id } }'],
    ['{ __type(name: "User") { name } }'],
    ['mutation { secretDelete(id: "x") }'],
    ['{ gpuTypes { id '],
  ])('GQL-PUBLIC-002 without a key: %s → 401, no data', async (query) => {
    const res = await h.request('POST', h.mock.graphqlUrl, { body: { query }, key: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [{ message: 'Unauthorized: missing API key' }] });
  });

  it('GQL-PUBLIC-002 a wrong key is 401 even for public data', async () => {
    const res = await h.request('POST', `${h.mock.graphqlUrl}?api_key=wrong`, { body: { query: '{ gpuTypes { id } }' }, key: null });
    expect(res.status).toBe(401);
  });
});

describe('the Hub and Public Endpoint fixtures', () => {
  it('listings: unique ids, SERVERLESS and POD, configs as JSON naming the catalogue\'s pools and CUDA versions', () => {
    expect(new Set(HUB_LISTINGS.map((l) => l.id)).size).toBe(HUB_LISTINGS.length);
    expect(new Set(HUB_LISTINGS.map((l) => l.type))).toEqual(new Set(['SERVERLESS', 'POD']));
    const cuda = new Set(GPU_TYPES.flatMap((g) => g.cuda));
    for (const l of HUB_LISTINGS) {
      const config = JSON.parse(l.listedRelease!.config!) as { gpuIds?: string; allowedCudaVersions?: string[]; env: { key: string }[] };
      for (const pool of config.gpuIds?.split(',') ?? []) expect(isGpuPool(pool), `${l.id} pool ${pool}`).toBe(true);
      for (const v of config.allowedCudaVersions ?? []) expect(cuda.has(v), `${l.id} CUDA ${v}`).toBe(true);
      expect(Array.isArray(config.env)).toBe(true);
    }
  });

  it('public endpoint configs: unique aiApiIds, metadata JSON with source, owner and priceString', () => {
    expect(new Set(PUBLIC_ENDPOINT_CONFIGS.map((c) => c['aiApiId'])).size).toBe(PUBLIC_ENDPOINT_CONFIGS.length);
    for (const c of PUBLIC_ENDPOINT_CONFIGS) expect(Object.keys(JSON.parse(c['metadata'] as string)).sort()).toEqual(['owner', 'priceString', 'source', 'tag']);
  });

  it('listings(input: {type, searchTerm}) filters', async () => {
    const pods = (await h.graphql('{ listings(input: {type: POD}) { id type } }', undefined, null)).body.data.listings;
    expect(pods.length).toBeGreaterThan(0);
    expect(pods.every((l: { type: string }) => l.type === 'POD')).toBe(true);
    expect((await h.graphql('{ listings(input: {searchTerm: "COMFY"}) { id } }')).body.data.listings).toEqual([{ id: 'hub_comfyui' }]);
  });
});

describe('GQL-PUBLIC-003 lowestPrice per cloud and CUDA version', () => {
  const priced = async (input: string) => (await h.graphql(`{ gpuTypes { id securePrice communityPrice lowestPrice(input: {${input}}) { stockStatus uninterruptablePrice gpuTypeCudaVersions { cudaVersion availability } } } }`, undefined, null)).body.data.gpuTypes as any[];

  it('secureCloud picks that cloud\'s price; absent, the cheaper one', async () => {
    const secure = await priced('gpuCount: 1, secureCloud: true');
    const either = await priced('gpuCount: 1');
    const rtx4090 = (list: any[]) => list.find((g) => g.id === 'NVIDIA GeForce RTX 4090');
    expect(rtx4090(secure).lowestPrice.uninterruptablePrice).toBe(rtx4090(secure).securePrice);
    expect(rtx4090(either).lowestPrice.uninterruptablePrice).toBe(Math.min(rtx4090(either).securePrice, rtx4090(either).communityPrice));
    // L4 has no community cloud
    expect((await priced('gpuCount: 1, secureCloud: false')).find((g) => g.id === 'NVIDIA L4').lowestPrice).toBeNull();
  });

  it('allowedCudaVersions narrows gpuTypeCudaVersions; a GPU type without that version has no stock', async () => {
    const list = await priced('gpuCount: 1, allowedCudaVersions: ["11.8"]');
    const ada = list.find((g) => g.id === 'NVIDIA GeForce RTX 4090');
    expect(ada.lowestPrice.gpuTypeCudaVersions).toEqual([]);
    expect(ada.lowestPrice.stockStatus).toBeNull();
    const ampere = list.find((g) => g.id === 'NVIDIA GeForce RTX 3090');
    expect(ampere.lowestPrice.gpuTypeCudaVersions.map((c: any) => c.cudaVersion)).toEqual(['11.8']);
  });

  it('a GPU type the control API marks unavailable is out of stock on every CUDA version', async () => {
    await h.control('POST', '/gpu-availability', { unavailable: ['NVIDIA GeForce RTX 3090'] });
    try {
      const gpu = (await priced('gpuCount: 1')).find((g) => g.id === 'NVIDIA GeForce RTX 3090');
      expect(gpu.lowestPrice.stockStatus).toBeNull();
      expect(gpu.lowestPrice.gpuTypeCudaVersions.every((c: any) => c.availability === 'UNAVAILABLE')).toBe(true);
    } finally {
      await h.control('POST', '/gpu-availability', { unavailable: [] });
    }
  });
});

describe('GQL-HUB-001 saveEndpoint from a Hub release', () => {
  it('creates the template and the endpoint as deploy-hub-repo sends them', async () => {
    const res = await h.graphql(DEPLOY, { input: hubInput() });
    const endpoint = res.body.data.saveEndpoint;
    expect(endpoint).toMatchObject({ name: 'hub-deploy', gpuIds: 'ADA_24', gpuCount: 1, flashBootType: 'FLASHBOOT' });
    const template = h.mock.core.store.templates.get(endpoint.templateId)!;
    expect(template).toMatchObject({ imageName: 'runpod/worker-v1-vllm:v2.4.0', containerDiskInGb: 40, isServerless: true, env: { MODEL_NAME: 'm' } });
    expect(h.mock.core.store.endpoints.get(endpoint.id)).toMatchObject({ hubReleaseId: 'rel_vllm_240', executionTimeoutMs: 600000, allowedCudaVersions: ['12.8', '12.6', '12.4'] });
  });

  it('keeps a template startScript and answers it as the template\'s (the mock runs none)', async () => {
    const base = hubInput();
    const res = await h.graphql(DEPLOY, { input: { ...base, template: { ...base.template, name: `hub-ss-${Date.now()}`, startScript: 'bash /start.sh' } } });
    expect(res.body.errors).toBeUndefined();
    const templateId = res.body.data.saveEndpoint.templateId as string;
    const read = await h.graphql('query t($id: String!) { podTemplate(id: $id) { id startScript } }', { id: templateId });
    expect(read.body.data?.podTemplate).toEqual({ id: templateId, startScript: 'bash /start.sh' });
  });

  it.each([
    [{ hubReleaseId: 'rel_nope' }, /hubReleaseId: no listed Hub release 'rel_nope'/],
    [{ hubReleaseId: 'rel_axolotl_070' }, /hubReleaseId: .* POD listing/],
    [{ hubReleaseId: 'rel_whisper_300' }, /hubReleaseId: .* no built image/],
    [{ type: 'XX' }, /input\.type/],
    [{ minCudaVersion: '12.6' }, /minCudaVersion: 12\.6 is above/],
    [{ gpuIds: 'NOPE_99' }, /gpuIds: 'NOPE_99' is no GPU pool/],
    [{ networkVolumeIds: ['nv-none'] }, /networkVolumeIds: network volume nv-none/],
    [{ templateId: 'tpl-x' }, /templateId or template, not both/],
    [{ template: { name: 'x', imageName: 'i:1', startScript: 's'.repeat(4097) } }, /startScript/],
    [{ template: { name: 'x'.repeat(192), imageName: 'i:1' } }, /template\.name must be at most 191 characters/],
  ])('refuses %j, storing nothing', async (extra, message) => {
    const before = counts();
    const res = await h.graphql(DEPLOY, { input: hubInput(extra) });
    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]?.message).toMatch(message);
    expect(counts()).toEqual(before);
  });

  it('a store refusal of the endpoint removes the template it created', async () => {
    const before = counts();
    const res = await h.graphql(DEPLOY, { input: hubInput({ workersMin: 5, workersMax: 1 }) });
    expect(res.body.errors?.[0]?.message).toBeTruthy();
    expect(counts()).toEqual(before);
  });
});
