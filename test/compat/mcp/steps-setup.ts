// Wire steps, part 1: the catalogue (public GraphQL and REST v2), the account, and every create, each
// judged against the mock's state. Steps share `ids` (what earlier steps created), so they run in order.
import { expect } from 'vitest';
import { HUB_LISTINGS, PUBLIC_ENDPOINT_CONFIGS } from '../../../src/mock/graphql/public-catalogue.js';
import { CPU_TYPES, DATA_CENTERS, GPU_TYPES, PUBLIC_TEMPLATES } from '../../../src/mock/rest-v2/catalog-data.js';
import { MCP_KEY, type McpWire } from './harness.js';

export type Ids = Record<string, string>;
export interface Step {
  tool: string;
  what: string;
  run(w: McpWire, ids: Ids): Promise<void>;
}

const ok = async (w: McpWire, tool: string, args: Record<string, unknown> = {}): Promise<any> => {
  const answer = await w.call(tool, args);
  expect(answer.ok, `${tool} ${JSON.stringify(args)} → ${JSON.stringify(answer.body).slice(0, 400)}`).toBe(true);
  return answer.body;
};
const refused = async (w: McpWire, tool: string, args: Record<string, unknown>, message: RegExp): Promise<void> => {
  const answer = await w.call(tool, args);
  expect(answer.ok).toBe(false);
  expect(JSON.stringify(answer.body)).toMatch(message);
};
export { ok, refused };

const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMcpWireTestKey0000000000000000000000000 mcp@wire';
const store = (w: McpWire) => w.mock.core.store;

export const SETUP_STEPS: Step[] = [
  { tool: 'list-gpu-types', what: 'the catalogue with stock for pods', run: async (w) => {
    const body = await ok(w, 'list-gpu-types', { include: ['AVAILABILITY'], product: ['POD'] });
    expect(body.gpus.map((g: { id: string }) => g.id)).toEqual(GPU_TYPES.map((g) => g.id));
    expect(body.gpus.every((g: { availability?: string }) => typeof g.availability === 'string')).toBe(true);
  } },
  { tool: 'get-gpu-type', what: 'one GPU type', run: async (w) => {
    expect((await ok(w, 'get-gpu-type', { id: 'NVIDIA GeForce RTX 4090' })).pool).toBe('ADA_24');
  } },
  { tool: 'list-cpu-types', what: 'CPU flavours', run: async (w) => {
    expect((await ok(w, 'list-cpu-types')).cpus).toHaveLength(CPU_TYPES.length);
  } },
  { tool: 'get-cpu-type', what: 'one CPU flavour', run: async (w) => {
    expect((await ok(w, 'get-cpu-type', { id: CPU_TYPES[0]!.id })).id).toBe(CPU_TYPES[0]!.id);
  } },
  { tool: 'list-data-centers', what: 'data centres', run: async (w) => {
    expect((await ok(w, 'list-data-centers')).dataCenters).toHaveLength(DATA_CENTERS.length);
  } },
  { tool: 'get-data-center', what: 'one data centre', run: async (w) => {
    expect((await ok(w, 'get-data-center', { id: 'EU-RO-1' })).id).toBe('EU-RO-1');
  } },
  { tool: 'list-public-templates', what: 'RunPod\'s public templates', run: async (w) => {
    const direct = await (await fetch(`${w.mock.url}/v2/catalog/templates`, { headers: { authorization: `Bearer ${MCP_KEY}` } })).json() as { templates: { id: string }[] };
    const ids = (await ok(w, 'list-public-templates')).templates.map((t: { id: string }) => t.id);
    expect(ids).toEqual(direct.templates.map((t) => t.id));
    expect(ids.every((id: string) => PUBLIC_TEMPLATES.some((t) => t.record.id === id))).toBe(true);
  } },
  { tool: 'get-capacity', what: 'the CUDA matrix (public GraphQL, no key) agrees with REST v2 stock', run: async (w) => {
    const matrix = await ok(w, 'get-capacity', { gpuCount: 1, limit: 100, secureCloudOnly: true });
    expect(matrix.pagination.total).toBe(GPU_TYPES.length);
    const row = matrix.items.find((r: { id: string }) => r.id === 'NVIDIA GeForce RTX 3090');
    const [version, availability] = Object.entries(row.cudaVersions as Record<string, string>)[0]!;
    const rest = await ok(w, 'get-gpu-type', { id: row.id, include: ['AVAILABILITY'], product: ['POD'], cloud: 'SECURE' });
    expect(availability === 'AVAILABLE').toBe(rest.cudaVersions.find((c: { version: string }) => c.version === version).available);
    const probe = await ok(w, 'get-capacity', { cudaVersions: ['12.8'], gpuTypeIds: ['4090'] });
    expect(probe.probedCudaVersions).toEqual(['12.8']);
    expect(Object.keys(probe.items[0].cudaVersions)).toEqual(['12.8']);
  } },
  { tool: 'list-hub-repos', what: 'the Hub (public GraphQL, no key), with configs', run: async (w) => {
    expect((await ok(w, 'list-hub-repos', { limit: 100 })).pagination.total).toBe(HUB_LISTINGS.length);
    const vllm = await ok(w, 'list-hub-repos', { repoOwner: 'runpod-workers', searchTerm: 'vllm', includeConfig: true });
    expect(vllm.items[0].listedRelease.config.env[0].key).toBe('MODEL_NAME');
    expect((await ok(w, 'list-hub-repos', { type: 'POD' })).items.every((l: { type: string }) => l.type === 'POD')).toBe(true);
  } },
  { tool: 'list-public-endpoints', what: 'Public Endpoints (public GraphQL, no key)', run: async (w) => {
    const live = PUBLIC_ENDPOINT_CONFIGS.filter((c) => c['isLive']).length;
    expect((await ok(w, 'list-public-endpoints')).pagination.total).toBe(live);
    expect((await ok(w, 'list-public-endpoints', { includeOffline: true })).pagination.total).toBe(PUBLIC_ENDPOINT_CONFIGS.length);
    expect((await ok(w, 'list-public-endpoints', { modality: 'audio' })).items[0].endpointId).toBe('whisper-v3-large');
  } },
  { tool: 'get-ssh-keys', what: 'the account\'s SSH keys', run: async (w) => {
    expect((await ok(w, 'get-ssh-keys')).keys).toEqual(store(w).sshKeys);
  } },
  { tool: 'update-ssh-keys', what: 'replaced SSH keys', run: async (w) => {
    await ok(w, 'update-ssh-keys', { body: { keys: [SSH_KEY] } });
    expect(store(w).sshKeys).toEqual([SSH_KEY]);
  } },
  { tool: 'create-registry', what: 'a registry credential (the password never comes back)', run: async (w, ids) => {
    const body = await ok(w, 'create-registry', { body: { name: 'mcp-registry', username: 'mcp', password: 'mcp-wire-secret-pw-1' } });
    expect(JSON.stringify(body)).not.toContain('mcp-wire-secret-pw-1');
    expect(store(w).registryAuths.has(body.id)).toBe(true);
    ids['registry'] = body.id;
  } },
  { tool: 'create-template', what: 'a serverless template', run: async (w, ids) => {
    const body = await ok(w, 'create-template', { body: { name: 'mcp-template', image: 'mcp/worker:1', serverless: true } });
    expect(store(w).templates.get(body.id)?.imageName).toBe('mcp/worker:1');
    ids['template'] = body.id;
  } },
  { tool: 'create-network-volume', what: 'a network volume', run: async (w, ids) => {
    const body = await ok(w, 'create-network-volume', { body: { name: 'mcp-volume', size: 10, dataCenter: 'EU-RO-1' } });
    expect(store(w).networkVolumes.get(body.id)?.size).toBe(10);
    ids['volume'] = body.id;
  } },
  { tool: 'create-endpoint', what: 'a queue endpoint keeping one worker', run: async (w, ids) => {
    const body = await ok(w, 'create-endpoint', { body: { name: 'mcp-endpoint', type: 'QUEUE', image: 'mcp/worker:1', gpu: { pools: ['AMPERE_16'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 1, max: 2 } } });
    expect(store(w).endpoints.get(body.id)?.name).toBe('mcp-endpoint');
    ids['endpoint'] = body.id;
  } },
  { tool: 'deploy-hub-repo', what: 'a Hub release deployed as an endpoint; unknown repo and missing env refused, nothing stored', run: async (w, ids) => {
    const before = store(w).endpoints.size;
    await refused(w, 'deploy-hub-repo', { repo: 'nobody/nothing' }, /No Hub listing found/);
    await refused(w, 'deploy-hub-repo', { repo: 'runpod-workers/worker-infinity-embedding', gpuIds: 'AMPERE_16' }, /MODEL_NAMES/);
    await refused(w, 'deploy-hub-repo', { hubReleaseId: 'rel_axolotl_070' }, /POD listing/);
    expect(store(w).endpoints.size).toBe(before);
    const body = await ok(w, 'deploy-hub-repo', { repo: 'runpod-workers/worker-vllm', env: { MODEL_NAME: 'Qwen/Qwen3-0.6B' } });
    const endpoint = store(w).endpoints.get(body.endpoint.id)!;
    const template = store(w).templates.get(endpoint.templateId)!;
    expect(template.imageName).toBe('runpod/worker-v1-vllm:v2.4.0');
    expect(template['env']).toMatchObject({ MODEL_NAME: 'Qwen/Qwen3-0.6B', ENABLE_PREFIX_CACHING: '1' });
    expect(endpoint['hubReleaseId']).toBe('rel_vllm_240');
    ids['hubEndpoint'] = body.endpoint.id;
  } },
  { tool: 'create-pod', what: 'a GPU pod', run: async (w, ids) => {
    const body = await ok(w, 'create-pod', { body: { name: 'mcp-pod', image: 'mcp/dev:1', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 1 } } });
    expect(store(w).pods.get(body.id)?.name).toBe('mcp-pod');
    ids['pod'] = body.id;
  } },
  { tool: 'create-cluster', what: 'an instant cluster', run: async (w, ids) => {
    const body = await ok(w, 'create-cluster', { body: { name: 'mcp-cluster', type: 'TRAINING', image: 'mcp/train:1', compute: { gpuTypeId: 'NVIDIA H100 80GB HBM3', gpuCountPerPod: 8, podCount: 2 } } });
    expect(store(w).clusters.has(body.id)).toBe(true);
    ids['cluster'] = body.id;
  } },
  { tool: 'create-delegation', what: 'an ECR delegation', run: async (w, ids) => {
    const body = await ok(w, 'create-delegation', { body: { resource: 'arn:aws:ecr:us-east-2:123456789012:repository/mcp/app' } });
    expect(store(w).ecrDelegations.has(body.id)).toBe(true);
    ids['delegation'] = body.id;
  } },
];
