// RESTV2-POD-009: a pod's global networking (API reference v2, CreatePodRequest / UpdatePodRequest
// globalNetworking): an NVIDIA GPU and a data centre that supports it, and a change waits for a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV2, type V2Mock } from './rest-v2-pod-fixtures.js';

let mock: V2Mock;
beforeAll(async () => {
  mock = await startV2();
});
afterAll(() => mock.close());

const GPU = { id: 'NVIDIA GeForce RTX 4090', count: 1 };
const pod = (body: Record<string, unknown>) => mock.v2('POST', '/pods', { name: 'gn', image: 'x:1', ...body });
const errorsOf = (answer: { body: { errors?: string[] } }) => answer.body.errors ?? [];

describe('RESTV2-POD-009 globalNetworking', () => {
  it('is refused (400 naming /body/globalNetworking) for a CPU pod, an AMD GPU and data centres without it', async () => {
    for (const body of [
      { cpu: { id: 'cpu3c', vcpuCount: 2 }, globalNetworking: true },
      { gpu: { id: 'AMD Instinct MI300X OAM', count: 1 }, globalNetworking: true },
      { gpu: GPU, dataCenterIds: ['US-IL-1', 'EUR-IS-2'], globalNetworking: true },
    ]) {
      const answer = await pod(body);
      expect(answer.status).toBe(400);
      expect(errorsOf(answer)[0]).toMatch(/^\/body\/globalNetworking: /);
    }
  });

  it('places the pod in a data centre that supports it, skipping preferred ones that do not', async () => {
    const created = await pod({ gpu: GPU, dataCenterIds: ['US-IL-1', 'US-KS-2'], globalNetworking: true });
    expect(created.status).toBe(201);
    expect(created.body.dataCenterId).toBe('US-KS-2');
    expect(created.body.globalNetworking).toEqual({ enabled: true, ip: expect.any(String), internalDns: `${created.body.id}.runpod.internal` });
  });

  it('changes on the next restart, not live; turning it on where the data centre lacks it → 400', async () => {
    const created = (await pod({ gpu: GPU, globalNetworking: true })).body;
    const patched = await mock.v2('PATCH', `/pods/${created.id}`, { globalNetworking: false });
    expect(patched.status).toBe(200);
    expect(patched.body.globalNetworking.enabled).toBe(true);
    mock.advance(60_000);
    const restarted = await mock.v2('POST', `/pods/${created.id}/action`, { action: 'restart' });
    expect(restarted.body.globalNetworking).toEqual({ enabled: false });

    const plain = (await pod({ gpu: GPU, dataCenterIds: ['US-IL-1'] })).body;
    expect(plain.dataCenterId).toBe('US-IL-1');
    const refused = await mock.v2('PATCH', `/pods/${plain.id}`, { globalNetworking: true });
    expect(refused.status).toBe(400);
    expect(errorsOf(refused)[0]).toMatch(/^\/body\/globalNetworking: data centre US-IL-1/);
  });
});
