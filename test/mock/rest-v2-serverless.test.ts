// REST v2 serverless endpoints over the shared store and job engine: CRUD with the migration map's
// renames, one state with REST v1 and queue v2, workers and releases. Rules RESTV2-ENDPOINT-*,
// RESTV2-WORKERS-*, RESTV2-RELEASE-*.
import { afterEach, describe, expect, it } from 'vitest';
import { V2Harness } from './rest-v2-resource-harness.js';

let t: V2Harness | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const start = async () => (t = await V2Harness.start());

describe('RESTV2-ENDPOINT-001 endpoint round trip with the v2 defaults', () => {
  it('creates (201) from image + gpu, reads, lists wrapped, patches, deletes (204, then 404)', async () => {
    const h = await start();
    const created = await h.endpoint({ workers: undefined, env: { MODEL: 'x' } });
    expect(created).toMatchObject({
      type: 'QUEUE', image: 'repo/worker:1', env: { MODEL: 'x' }, workers: { min: 0, max: 3, idleTimeout: 10 },
      scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, timeout: 300_000, flashboot: 'OFF', networkVolumes: [], dataCenterIds: [],
      gpu: { pools: ['ADA_24'], count: 1, allowedCudaVersions: [], minCudaVersion: null },
    });
    expect((await h.v2('GET', `/serverless/${created.id}`)).body).toEqual(created);
    const listed = await h.v2('GET', '/serverless');
    expect(listed.body.endpoints.map((e: { id: string }) => e.id)).toEqual([created.id]);
    const patched = await h.v2('PATCH', `/serverless/${created.id}`, { workers: { max: 5 }, flashboot: 'PRIORITY_FLASHBOOT', scaling: { type: 'QUEUE_DELAY', queueDelay: 0.5 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...created, workers: { min: 0, max: 5, idleTimeout: 10 }, flashboot: 'PRIORITY_FLASHBOOT', scaling: { type: 'QUEUE_DELAY', queueDelay: 0.5 } });
    expect((await h.v2('DELETE', `/serverless/${created.id}`)).status).toBe(204);
    expect((await h.v2('GET', `/serverless/${created.id}`)).status).toBe(404);
  });

  it('creates from a templateId alone, taking the container settings from the template', async () => {
    const h = await start();
    const tpl = await h.v2('POST', '/templates', { name: 'base', image: 'repo/base:2', disk: 12, env: { A: '1' }, serverless: true });
    const ep = await h.endpoint({ image: undefined, gpu: undefined, templateId: tpl.body.id });
    expect([ep.image, ep.disk, ep.env, ep.gpu.pools]).toEqual(['repo/base:2', 12, { A: '1' }, ['ADA_24']]);
    const cpuTpl = await h.v2('POST', '/templates', { name: 'cpu', image: 'repo/cpu:1', category: 'CPU', serverless: true });
    const cpuEp = await h.endpoint({ image: undefined, gpu: undefined, templateId: cpuTpl.body.id });
    expect([cpuEp.gpu, cpuEp.cpu]).toEqual([undefined, [{ id: 'cpu3c', vcpuCount: 2, memory: 4 }]]);
    const v1 = await h.rest('GET', `/endpoints/${ep.id}`);
    expect(v1.body.templateId).toBe(tpl.body.id);
  });
});

describe('RESTV2-ENDPOINT-002 refusals of create and update', () => {
  it('both gpu and cpu, or neither without templateId → 400; workers.min above max → 400; unknown pool → 422; nothing stored', async () => {
    const h = await start();
    const base = { name: 'e', type: 'QUEUE', image: 'x:1', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } };
    expect((await h.v2('POST', '/serverless', base)).status).toBe(400);
    expect((await h.v2('POST', '/serverless', { ...base, gpu: { pools: ['ADA_24'] }, cpu: [{ id: 'cpu3c', vcpuCount: 2 }] })).status).toBe(400);
    const workers = await h.v2('POST', '/serverless', { ...base, gpu: { pools: ['ADA_24'] }, workers: { min: 4, max: 2 } });
    expect(workers.status).toBe(400);
    expect(workers.body.errors).toEqual([expect.stringContaining('/body/workers/min')]);
    const pool = await h.v2('POST', '/serverless', { ...base, gpu: { pools: ['NO_SUCH_POOL'] } });
    expect(pool.status).toBe(422);
    expect(pool.body.errors).toEqual([expect.stringContaining('/body/gpu/pools/0')]);
    expect((await h.v2('POST', '/serverless', { ...base, gpu: { pools: ['ADA_24'], excludedTypes: ['NVIDIA GeForce RTX 4090'] } })).status).toBe(400);
    expect((await h.v2('POST', '/serverless', { ...base, gpu: { pools: ['ADA_24'], allowedCudaVersions: ['12.8'], minCudaVersion: '12.4' } })).status).toBe(400);
    expect((await h.v2('POST', '/serverless', { ...base, gpu: { pools: ['ADA_24'] }, networkVolumes: ['nope'] })).status).toBe(404);
    expect((await h.v2('POST', '/serverless', { ...base, image: undefined, templateId: 'nope', gpu: { pools: ['ADA_24'] } })).status).toBe(404);
    expect((await h.v2('GET', '/serverless')).body.endpoints).toEqual([]);
    expect((await h.v2('GET', '/templates')).body.templates).toEqual([]);
  });

  it('update: gpu on a CPU endpoint, cpu on a GPU endpoint → 400; max below min → 400; the endpoint is unchanged', async () => {
    const h = await start();
    const gpuEp = await h.endpoint({ workers: { min: 2, max: 3 } });
    const cpuEp = await h.endpoint({ gpu: undefined, cpu: [{ id: 'cpu3c', vcpuCount: 4 }] });
    expect(cpuEp.cpu).toEqual([{ id: 'cpu3c', vcpuCount: 4, memory: 8 }]);
    expect((await h.v2('PATCH', `/serverless/${gpuEp.id}`, { cpu: [{ id: 'cpu3c', vcpuCount: 2 }] })).status).toBe(400);
    expect((await h.v2('PATCH', `/serverless/${cpuEp.id}`, { gpu: { count: 2 } })).status).toBe(400);
    expect((await h.v2('PATCH', `/serverless/${gpuEp.id}`, { workers: { max: 1 } })).status).toBe(400);
    expect((await h.v2('GET', `/serverless/${gpuEp.id}`)).body).toEqual(gpuEp);
  });
});

describe('RESTV2-ENDPOINT-003 one state with REST v1 and queue v2', () => {
  it('an endpoint created through REST v2 runs jobs on queue v2 and is REST v1\'s endpoint with the migration map\'s names', async () => {
    const h = await start();
    const ep = await h.endpoint({ workers: { min: 0, max: 1, idleTimeout: 7 }, timeout: 60_000, flashboot: 'FLASHBOOT' });
    const v1 = await h.rest('GET', `/endpoints/${ep.id}`);
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ id: ep.id, workersMin: 0, workersMax: 1, idleTimeout: 7, executionTimeoutMs: 60_000, scalerType: 'QUEUE_DELAY', scalerValue: 4 });
    expect(v1.body.gpuTypeIds).toEqual(['NVIDIA GeForce RTX 4090']);
    const jobId = await h.h.run(ep.id, { mock: { durationMs: 100 } });
    await h.advance(1_000);
    expect((await h.h.status(ep.id, jobId)).body.status).toBe('COMPLETED');
  });

  it('an endpoint created through REST v1 reads through REST v2 with the same id; a v2 update reads back in v1', async () => {
    const h = await start();
    const templateId = await h.h.template({ imageName: 'repo/v1:1' });
    const v1 = await h.rest('POST', '/endpoints', { name: 'v1ep', templateId, workersMin: 1, workersMax: 2, scalerType: 'REQUEST_COUNT', scalerValue: 3, gpuTypeIds: ['NVIDIA RTX A5000', 'NVIDIA L4'] });
    const v2 = await h.v2('GET', `/serverless/${v1.body.id}`);
    expect(v2.body).toMatchObject({
      id: v1.body.id, name: 'v1ep', image: 'repo/v1:1', workers: { min: 1, max: 2, idleTimeout: 5 }, scaling: { type: 'REQUEST_COUNT', requestCount: 3 },
      gpu: { pools: ['AMPERE_24'], excludedTypes: ['NVIDIA GeForce RTX 3090'], count: 1 }, timeout: 600_000, flashboot: 'OFF',
    });
    await h.v2('PATCH', `/serverless/${v1.body.id}`, { workers: { min: 0 }, networkVolumes: [] });
    expect((await h.rest('GET', `/endpoints/${v1.body.id}`)).body).toMatchObject({ workersMin: 0, workersMax: 2 });
  });

  it('deleting through REST v2 removes the jobs and the template REST v2 made for it; REST v1 lists that template only on request', async () => {
    const h = await start();
    const ep = await h.endpoint();
    const v1 = await h.rest('GET', `/endpoints/${ep.id}`);
    const bound = v1.body.templateId as string;
    expect((await h.rest('GET', '/templates')).body.map((x: { id: string }) => x.id)).not.toContain(bound);
    expect((await h.rest('GET', '/templates?includeEndpointBoundTemplates=true')).body.map((x: { id: string }) => x.id)).toContain(bound);
    await h.h.run(ep.id, { mock: { durationMs: 60_000 } });
    expect((await h.v2('DELETE', `/serverless/${ep.id}`)).status).toBe(204);
    expect((await h.rest('GET', `/templates/${bound}`)).status).toBe(404);
    expect((await h.h.queue(ep.id, 'GET', '/health')).status).toBe(404);
  });
});

describe('RESTV2-WORKERS-001 workers and their summary come from the job engine', () => {
  it('lists min workers idle, a busy one RUNNING, and counts unplaceable ones as throttled', async () => {
    const h = await start();
    const ep = await h.endpoint({ workers: { min: 1, max: 2 } });
    await h.advance(0);
    let workers = await h.v2('GET', `/serverless/${ep.id}/workers`);
    expect(workers.body.summary).toEqual({ running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0, total: 1 });
    expect(workers.body.workers[0]).toMatchObject({ status: 'IDLE', isStale: false, version: 1, gpuCount: 1, image: 'repo/worker:1', gpuTypeId: 'NVIDIA GeForce RTX 4090' });
    await h.h.run(ep.id, { mock: { durationMs: 10_000 } });
    await h.advance(2_000);
    workers = await h.v2('GET', `/serverless/${ep.id}/workers`);
    expect(workers.body.summary).toMatchObject({ running: 1, total: 1 });
    expect(workers.body.workers[0]).toMatchObject({ status: 'RUNNING', uptimeSeconds: 2 });
    await h.h.control('POST', '/gpu-availability', { unavailable: ['NVIDIA GeForce RTX 4090'] });
    await h.h.run(ep.id, { mock: { durationMs: 10 } });
    await h.advance(0);
    workers = await h.v2('GET', `/serverless/${ep.id}/workers`);
    expect(workers.body.summary).toMatchObject({ running: 1, throttled: 1, total: 2 });
    expect((await h.v2('GET', '/serverless/none/workers')).status).toBe(404);
  });
});

describe('RESTV2-RELEASE-001 a release per change of what the workers run', () => {
  it('image and env changes make releases with their diff; workers and scaling do not; stale workers roll over', async () => {
    const h = await start();
    const ep = await h.endpoint({ workers: { min: 1, max: 1 } });
    await h.advance(0);
    await h.v2('PATCH', `/serverless/${ep.id}`, { workers: { idleTimeout: 30 }, scaling: { type: 'QUEUE_DELAY', queueDelay: 2 }, name: 'renamed' });
    let releases = await h.v2('GET', `/serverless/${ep.id}/releases`);
    expect(releases.body.releases.map((r: { version: number }) => r.version)).toEqual([1]);
    await h.h.run(ep.id, { mock: { durationMs: 5_000 } });
    await h.advance(1_000);
    await h.advance(0);
    await h.v2('PATCH', `/serverless/${ep.id}`, { image: 'repo/worker:2', env: { K: 'v' } });
    releases = await h.v2('GET', `/serverless/${ep.id}/releases`);
    expect(releases.body.endpointVersion).toBe(2);
    expect(releases.body.releases[0]).toMatchObject({ version: 2, source: 'MANUAL', workerCount: 0 });
    expect(releases.body.releases[0].diff).toEqual([
      { field: 'image', old: 'repo/worker:1', new: 'repo/worker:2' },
      { field: 'env', old: {}, new: { K: 'v' } },
    ]);
    // The busy worker keeps release 1 until its job ends.
    expect(releases.body.rollout).toEqual({ inProgress: true, workersOnLatest: 0, workersTotal: 1, percentOnLatest: 0 });
    const stale = await h.v2('GET', `/serverless/${ep.id}/workers`);
    expect(stale.body.workers[0]).toMatchObject({ isStale: true, version: 1, image: 'repo/worker:1' });
    await h.advance(5_000);
    releases = await h.v2('GET', `/serverless/${ep.id}/releases`);
    expect(releases.body.rollout).toEqual({ inProgress: false, workersOnLatest: 1, workersTotal: 1, percentOnLatest: 100 });
    expect(releases.body.releases[0].workerCount).toBe(1);
  });

  it('a REST v1 update of the endpoint\'s template is a release too; at most 20 are kept', async () => {
    const h = await start();
    const templateId = await h.h.template({ imageName: 'repo/a:0' });
    const ep = await h.endpoint({ image: undefined, templateId });
    for (let i = 1; i <= 22; i++) await h.rest('PATCH', `/templates/${templateId}`, { imageName: `repo/a:${i}` });
    const releases = await h.v2('GET', `/serverless/${ep.id}/releases`);
    expect(releases.body.endpointVersion).toBe(23);
    expect(releases.body.releases).toHaveLength(20);
    expect(releases.body.releases[0].diff).toEqual([{ field: 'image', old: 'repo/a:21', new: 'repo/a:22' }]);
  });
});
