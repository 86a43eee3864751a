// The GraphQL catalogue answered without a key (SDL `x-auth: none`) and the Hub deploy: GQL-PUBLIC-*, GQL-HUB-*.
// Documents are written the way @runpod/mcp-server 4.0.0 writes them (literals inlined, no variables).
import { defineCheck } from '../../src/conform/registry.js';
import { errorsOf, expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { restDelete, restRead, REST_VIEW } from './rest-view.js';

const LISTINGS = '{ listings(input: {}) { id repoOwner repoName type listedRelease { id tagName config build { id imageName } } } }';
const PUBLIC_CONFIGS = '{ allAiApiPublicConfigs { id aiApiId modelName displayName isLive metadata } }';
const lowest = (input: string) => `{ gpuTypes { id lowestPrice(input: { ${input} }) { stockStatus uninterruptablePrice gpuTypeCudaVersions { cudaVersion availability } } } }`;

async function publicData(ctx: Ctx, query: string, what: string): Promise<any> {
  const answer = await ctx.gql(query, {}, { key: null });
  expectStatus(answer, 200, `${what} without a key`);
  expect(!answer.body?.errors, `${what} without a key failed: ${errorsOf(answer)}`);
  return answer.body.data;
}

defineCheck('GQL-PUBLIC-001', async (ctx) => {
  for (const [query, what] of [[LISTINGS, 'listings'], [PUBLIC_CONFIGS, 'allAiApiPublicConfigs'], [lowest('gpuCount: 1'), 'gpuTypes']] as const) {
    const anonymous = await publicData(ctx, query, what);
    const keyed = await ctx.gql(query);
    expectStatus(keyed, 200, `${what} with a key`);
    expectEqual(anonymous, keyed.body?.data, `${what}: the answer without a key vs with one`);
  }
}, { shares: [] });

defineCheck('GQL-PUBLIC-002', async (ctx) => {
  const refused: [string, string][] = [
    ['{ gpuTypes { id } myself { id } }', 'gpuTypes with myself'],
    ['{ listings(input: {}) { id } podTemplate(id: "cc-none") { id } }', 'listings with podTemplate'],
    ['query A { gpuTypes { id } } query B { myself { id } }', 'a public operation beside an account one'],
    ['fragment M on Query { myself { id } } { gpuTypes { id } ...M }', 'an account field in a fragment'],
    ['{ __schema { types { name } } }', 'introspection'],
    ['mutation { secretDelete(id: "cc-none") }', 'a mutation'],
  ];
  for (const [query, what] of refused) {
    const answer = await ctx.gql(query, {}, { key: null });
    expectStatus(answer, 401, `${what} without a key`);
    expect(answer.body?.data === undefined || answer.body?.data === null, `${what} without a key answered data`);
  }
  const wrong = await ctx.gql('{ gpuTypes { id } }', {}, { key: 'cc-wrong-key-public' });
  expectStatus(wrong, 401, 'a public query with a wrong key');
}, { shares: [] });

defineCheck('GQL-PUBLIC-003', async (ctx) => {
  const count = ctx.value<number>('gpuCount');
  const rest = await ctx.v2('listGpuTypes', { query: { include: 'AVAILABILITY', product: 'POD', count, cloud: 'SECURE' } });
  expectStatus(rest, 200, 'listGpuTypes include=AVAILABILITY product=POD cloud=SECURE');
  const restById = new Map((rest.body.gpus as any[]).map((g) => [g.id as string, g]));
  const gql = (await publicData(ctx, lowest(`gpuCount: ${count}, secureCloud: true`), 'gpuTypes lowestPrice(secureCloud: true)')).gpuTypes as any[];
  let compared = 0;
  for (const gpu of gql) {
    const offer = restById.get(gpu.id);
    if (!offer || !gpu.lowestPrice) continue;
    expectEqual(gpu.lowestPrice.stockStatus === null, offer.availability === 'NONE', `${gpu.id}: stockStatus ${gpu.lowestPrice.stockStatus} vs REST v2 availability ${offer.availability}`);
    for (const cell of gpu.lowestPrice.gpuTypeCudaVersions ?? []) {
      expect(['AVAILABLE', 'UNAVAILABLE'].includes(cell.availability), `${gpu.id}: CUDA ${cell.cudaVersion} availability ${cell.availability}`);
    }
    compared++;
  }
  expect(compared > 0, 'no GPU type is priced in both surfaces');
  // One GPU type, each of its CUDA versions alone: AVAILABLE exactly when REST v2 has stock for that version.
  const probe = gql.find((g) => g.lowestPrice?.gpuTypeCudaVersions?.length > 0);
  expect(probe, 'no GPU type lists CUDA versions');
  for (const cell of probe.lowestPrice.gpuTypeCudaVersions.slice(0, 3)) {
    const one = await ctx.v2('getGpuType', { path: { id: probe.id }, query: { include: 'AVAILABILITY', product: 'POD', count, cloud: 'SECURE', cudaVersions: cell.cudaVersion } });
    expectStatus(one, 200, `getGpuType ${probe.id} cudaVersions=${cell.cudaVersion}`);
    expectEqual(cell.availability === 'AVAILABLE', one.body.availability !== 'NONE', `${probe.id} CUDA ${cell.cudaVersion}: ${cell.availability} vs REST v2 ${one.body.availability}`);
    const narrowed = (await publicData(ctx, lowest(`gpuCount: ${count}, secureCloud: true, allowedCudaVersions: [${JSON.stringify(cell.cudaVersion)}]`), 'gpuTypes allowedCudaVersions')).gpuTypes as any[];
    const mine = narrowed.find((g) => g.id === probe.id);
    expectEqual(mine?.lowestPrice?.stockStatus === null, one.body.availability === 'NONE', `${probe.id} allowedCudaVersions [${cell.cudaVersion}]: stockStatus vs REST v2`);
  }
}, { needs: ['restV2'], shares: ['restV2-quota'] });

defineCheck('GQL-HUB-001', async (ctx) => {
  const listings = (await publicData(ctx, LISTINGS, 'listings')).listings as any[];
  expect(listings.length > 0, 'listings is empty');
  for (const l of listings) {
    expect(l.type === 'SERVERLESS' || l.type === 'POD', `listing ${l.id}: type ${l.type}`);
    if (l.listedRelease?.config != null) expect((() => { try { JSON.parse(l.listedRelease.config); return true; } catch { return false; } })(), `listing ${l.id}: config is not JSON text`);
  }
  const serverless = listings.find((l) => l.type === 'SERVERLESS' && l.listedRelease?.build?.imageName);
  expect(serverless, 'no SERVERLESS listing with a built release');
  const release = serverless.listedRelease;
  const endpointCount = async () => ((await ctx.gql('{ myself { endpoints { id } } }')).body?.data?.myself?.endpoints ?? []).length as number;
  const mutation = 'mutation saveEndpoint($input: EndpointInput!) { saveEndpoint(input: $input) { id name templateId gpuIds } }';
  const input = (hubReleaseId: string) => ({
    name: ctx.name('hub'), hubReleaseId, type: 'QB', gpuIds: 'AMPERE_16', gpuCount: 1, workersMin: 0, workersMax: 1, idleTimeout: 5,
    scalerType: 'QUEUE_DELAY', scalerValue: 4, executionTimeoutMs: 600000, flashBootType: 'FLASHBOOT', locations: null, networkVolumeIds: null, compliance: [], modelReferences: [],
    template: { name: ctx.name('hubtpl'), imageName: release.build.imageName, containerDiskInGb: 20, containerRegistryAuthId: '', dockerArgs: '', startScript: '', ports: '', env: [{ key: 'CC_HUB', value: 'yes' }] },
  });
  const before = await endpointCount();
  const pod = listings.find((l) => l.type === 'POD' && l.listedRelease);
  for (const [id, what] of [['cc-no-such-release', 'an unknown hubReleaseId'], ...(pod ? [[pod.listedRelease.id, 'the release of a POD listing']] : [])] as const) {
    const refused = await ctx.gql(mutation, { input: input(id) });
    expectStatus(refused, 200, `saveEndpoint with ${what}`);
    const message = refused.body?.errors?.[0]?.message ?? '';
    expect(message.includes('hubReleaseId'), `saveEndpoint with ${what}: errors[0].message ${JSON.stringify(message)} does not name hubReleaseId`);
  }
  expectEqual(await endpointCount(), before, 'endpoints after refused Hub deploys');
  const saved = await ctx.gql(mutation, { input: input(release.id) });
  const endpoint = saved.body?.data?.saveEndpoint;
  expect(typeof endpoint?.id === 'string', `saveEndpoint of Hub release ${release.id} failed: ${errorsOf(saved)}`);
  ctx.cleanup(async () => {
    await restDelete(ctx, 'endpoint', endpoint.id);
    await ctx.deleteTemplateEventually(endpoint.templateId);
  });
  // Read back through REST v1 when given, else REST v2 (both keep env as an object).
  const template = await restRead(ctx, 'template', endpoint.templateId);
  expect(template.status === 200, `${template.surface} getTemplate of the template saveEndpoint created answered ${template.status}`);
  expectEqual([template.image, template.body.env?.CC_HUB], [release.build.imageName, 'yes'], 'the created template: image and env');
}, { needs: REST_VIEW });
