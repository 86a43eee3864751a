// One state, one rule set (issue 20): what a pod or template is does not depend on the surface that
// created it. RESTV2-CROSS-004 (template reference), RESTV2-CROSS-005 (no undocumented defaults),
// RESTV2-CROSS-006 (stored figures, not constants).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startV2, type V2Mock } from './rest-v2-pod-fixtures.js';

let mock: V2Mock;
beforeEach(async () => {
  mock = await startV2();
});
afterEach(() => mock.close());

const GPU = { id: 'NVIDIA GeForce RTX 4090', count: 1 };

describe('RESTV2-CROSS-004 the template a pod was made from, whichever surface made it', () => {
  it('a REST v2 pod keeps its template (v2 template, v1 templateId) and blocks its deletion through both surfaces', async () => {
    const template = (await mock.v2('POST', '/templates', { name: 'from-v2', image: 'x:1' })).body;
    const pod = await mock.v2('POST', '/pods', { name: 'p', templateId: template.id, gpu: GPU });
    expect(pod.body.template).toBe(template.id);
    expect((await mock.v2('GET', `/pods/${pod.body.id}`)).body.template).toBe(template.id);
    expect((await mock.h.rest('GET', `/pods/${pod.body.id}`)).body.templateId).toBe(template.id);
    expect((await mock.v2('DELETE', `/templates/${template.id}`)).status).toBe(400);
    expect((await mock.h.rest('DELETE', `/templates/${template.id}`)).status).toBe(400);
    // Gone with the pod, after the documented delay since its last use.
    expect((await mock.v2('DELETE', `/pods/${pod.body.id}`)).status).toBe(204);
    mock.advance(120_000);
    expect((await mock.v2('DELETE', `/templates/${template.id}`)).status).toBe(204);
  });

  it('updatePod with another templateId moves the reference: the new template is guarded, the old one released', async () => {
    const first = (await mock.v2('POST', '/templates', { name: 'first', image: 'x:1' })).body;
    const second = (await mock.v2('POST', '/templates', { name: 'second', image: 'y:1' })).body;
    const pod = (await mock.v2('POST', '/pods', { name: 'p', templateId: first.id, gpu: GPU })).body;
    const updated = await mock.v2('PATCH', `/pods/${pod.id}`, { templateId: second.id });
    expect(updated.body).toMatchObject({ template: second.id, image: 'y:1' });
    expect((await mock.v2('DELETE', `/templates/${second.id}`)).status).toBe(400);
    mock.advance(120_000);
    expect((await mock.v2('DELETE', `/templates/${first.id}`)).status).toBe(204);
  });

  it('a pod made from a public catalog template names it too (REST v2 template, REST v1 templateId)', async () => {
    const pod = (await mock.v2('POST', '/pods', { name: 'p', templateId: 'verified-ollama', gpu: GPU })).body;
    expect(pod.template).toBe('verified-ollama');
    expect((await mock.h.rest('GET', `/pods/${pod.id}`)).body.templateId).toBe('verified-ollama');
  });
});

describe('RESTV2-CROSS-005 no default a surface does not document', () => {
  it('a REST v2 template made without mounts has no volume, through REST v2 and REST v1', async () => {
    const template = (await mock.v2('POST', '/templates', { name: 'no-volume', image: 'x:1' })).body;
    expect(template.mounts).toEqual({});
    expect((await mock.h.rest('GET', `/templates/${template.id}`)).body.volumeInGb).toBe(0);
    const pod = (await mock.v2('POST', '/pods', { name: 'p', templateId: template.id, gpu: GPU })).body;
    expect(pod.mounts).toEqual({});
  });

  it('REST v1 keeps its own documented default (20 GB) for templates it creates', async () => {
    const v1 = (await mock.h.rest('POST', '/templates', { name: 'v1-default', imageName: 'x:1' })).body;
    expect((await mock.v2('GET', `/templates/${v1.id}`)).body.mounts).toEqual({ persistent: { size: 20, path: '/workspace' } });
  });
});

describe('RESTV2-CROSS-006 every surface renders the stored figures', () => {
  it('a REST v2 CPU pod: REST v1 memoryInGb = REST v2 cpu.memory, with its cpuFlavorId and vcpuCount', async () => {
    for (const [id, vcpuCount, memory] of [['cpu3c', 2, 4], ['cpu3g', 4, 16], ['cpu3m', 2, 16]] as const) {
      const pod = (await mock.v2('POST', '/pods', { name: 'cpu', image: 'x:1', cpu: { id, vcpuCount } })).body;
      expect(pod.cpu).toEqual({ id, vcpuCount, memory });
      expect((await mock.h.rest('GET', `/pods/${pod.id}`)).body).toMatchObject({ memoryInGb: memory, cpuFlavorId: id, vcpuCount });
    }
  });

  it('REST v1 pods: a GPU pod\'s memory follows its GPUs and minRAMPerGPU; a CPU pod shows its flavour', async () => {
    const two = (await mock.h.rest('POST', '/pods', { name: 'g2', imageName: 'x:1', gpuCount: 2 })).body;
    const asked = (await mock.h.rest('POST', '/pods', { name: 'g1', imageName: 'x:1', gpuCount: 1, minRAMPerGPU: 64 })).body;
    expect([two.memoryInGb, asked.memoryInGb]).toEqual([62, 64]);
    const cpu = (await mock.h.rest('POST', '/pods', { name: 'c', imageName: 'x:1', computeType: 'CPU', cpuFlavorIds: ['cpu3g'], vcpuCount: 4 })).body;
    expect(cpu).toMatchObject({ cpuFlavorId: 'cpu3g', memoryInGb: 16, vcpuCount: 4 });
    expect((await mock.v2('GET', `/pods/${cpu.id}`)).body.cpu).toEqual({ id: 'cpu3g', vcpuCount: 4, memory: 16 });
  });
});

describe('REST v1 listPods filters on the stored template and CPU flavour', () => {
  it('templateId and cpuFlavorId select REST v2 pods too; includeTemplate shows a catalog template', async () => {
    const template = (await mock.v2('POST', '/templates', { name: 'filter', image: 'x:1' })).body;
    const fromTemplate = (await mock.v2('POST', '/pods', { name: 't', templateId: template.id, gpu: GPU })).body;
    const cpu = (await mock.v2('POST', '/pods', { name: 'c', image: 'x:1', cpu: { id: 'cpu5c', vcpuCount: 2 } })).body;
    const catalog = (await mock.v2('POST', '/pods', { name: 'o', templateId: 'verified-ollama', gpu: GPU })).body;
    const ids = async (query: string) => ((await mock.h.rest('GET', `/pods?${query}`)).body as { id: string }[]).map((p) => p.id);
    expect(await ids(`templateId=${template.id}`)).toEqual([fromTemplate.id]);
    expect(await ids('cpuFlavorId=cpu5c')).toEqual([cpu.id]);
    expect(await ids('templateId=verified-ollama')).toEqual([catalog.id]);
    expect((await mock.h.rest('GET', `/pods/${catalog.id}?includeTemplate=true`)).body.template).toMatchObject({ id: 'verified-ollama', imageName: 'ollama/ollama:latest' });
  });
});

describe('createPod gpu.minRamPerGpu / minVcpuCountPerGpu (sent by runpod-python)', () => {
  it('are accepted and stored: the pod RAM is GPUs × max(31, minRamPerGpu) on every surface', async () => {
    const pod = await mock.v2('POST', '/pods', { name: 'm', image: 'x:1', gpu: { ...GPU, count: 2, minRamPerGpu: 64, minVcpuCountPerGpu: 4 } });
    expect(pod.status).toBe(201);
    expect((await mock.h.rest('GET', `/pods/${pod.body.id}`)).body.memoryInGb).toBe(128);
    expect((await mock.v2('POST', '/pods', { name: 'm', image: 'x:1', gpu: { ...GPU, minRamPerGpu: 2000 } })).status).toBe(422);
  });

  it('report the totals the pod got in gpu.vcpuCount and gpu.memory (API reference 081392fe), the figures REST v1 shows', async () => {
    const pod = await mock.v2('POST', '/pods', { name: 'm', image: 'x:1', gpu: { ...GPU, count: 2, minRamPerGpu: 64, minVcpuCountPerGpu: 12 } });
    expect(pod.body.gpu).toMatchObject({ count: 2, vcpuCount: 24, memory: 128 });
    expect((await mock.v2('GET', `/pods/${pod.body.id}`)).body.gpu).toMatchObject({ vcpuCount: 24, memory: 128 });
    expect((await mock.h.rest('GET', `/pods/${pod.body.id}`)).body).toMatchObject({ vcpuCount: 24, memoryInGb: 128 });
    const plain = await mock.v2('POST', '/pods', { name: 'p', image: 'x:1', gpu: { ...GPU } });
    expect(plain.body.gpu).toMatchObject({ count: 1, vcpuCount: 8, memory: 31 });
  });

  it('are at least 1: 0 is refused (422) as the reference states minimum 1', async () => {
    for (const gpu of [{ ...GPU, minRamPerGpu: 0 }, { ...GPU, minVcpuCountPerGpu: 0 }]) {
      expect((await mock.v2('POST', '/pods', { name: 'z', image: 'x:1', gpu })).status).toBe(422);
    }
  });
});
