// REST v2 pods in the mock: CRUD over the shared store, cross-field rules, templates, mounts, one state
// with REST v1, and the /action state machine on the mock clock (RESTV2-POD-*, RESTV2-ACTION-*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_CENTERS, seededLevel } from '../../src/mock/rest-v2/catalog-data.js';
import { GPU, startV2, v2Pod, type V2Mock } from './rest-v2-pod-fixtures.js';

let mock: V2Mock;
beforeAll(async () => {
  mock = await startV2();
});
afterAll(() => mock.close());

const podIds = async (query = ''): Promise<string[]> => ((await mock.v2('GET', `/pods${query}`)).body.pods as { id: string }[]).map((p) => p.id);

describe('REST v2 pods', () => {
  it('RESTV2-POD-001 create → 201, get, list wrapped, delete → 204, then 404', async () => {
    const created = await v2Pod(mock, { name: 'round-trip', ports: ['8888/http'] });
    expect(created).toMatchObject({ name: 'round-trip', image: 'img:1', gpu: GPU, cloud: 'SECURE', template: null, status: 'PROVISIONING', actions: ['stop', 'terminate'], mounts: {}, registry: null, locked: false });
    expect(created.cpu).toBeUndefined();
    const got = await mock.v2('GET', `/pods/${created.id}`);
    expect(got.body).toEqual(created);
    expect(await podIds()).toContain(created.id);
    expect((await mock.v2('DELETE', `/pods/${created.id}`)).status).toBe(204);
    const gone = await mock.v2('GET', `/pods/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('RESTV2-POD-002 cross-field rules → 400, nothing stored', async () => {
    const before = await podIds();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'n', image: 'i:1' }, '/body: exactly one of gpu or cpu'],
      [{ name: 'n', image: 'i:1', gpu: GPU, cpu: { id: 'cpu3c', vcpuCount: 2 } }, '/body: exactly one of gpu or cpu'],
      [{ name: 'n', image: 'i:1', gpu: GPU, mounts: { persistent: { size: 20, path: '/w' }, network: [{ volumeId: 'v', path: '/n' }] } }, '/body/mounts:'],
      [{ name: 'n', image: 'i:1', cpu: { id: 'cpu3c', vcpuCount: 2 }, mounts: { persistent: { size: 20, path: '/w' } } }, '/body/mounts/persistent:'],
    ];
    for (const [body, error] of cases) {
      const res = await mock.v2('POST', '/pods', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.join(' ')).toContain(error);
    }
    expect(await podIds()).toEqual(before);
  });

  it('RESTV2-POD-003 mounts and cloud are stored as sent; a network volume places the pod', async () => {
    const persistent = await v2Pod(mock, { mounts: { persistent: { size: 40, path: '/data' } }, cloud: 'COMMUNITY' });
    expect(persistent).toMatchObject({ mounts: { persistent: { size: 40, path: '/data' } }, cloud: 'COMMUNITY' });
    const volume = (await mock.h.rest('POST', '/networkvolumes', { name: 'vol', size: 10, dataCenterId: 'EU-RO-1' })).body;
    const networked = await v2Pod(mock, { mounts: { network: [{ volumeId: volume.id, path: '/runpod-volume' }] } });
    expect(networked).toMatchObject({ mounts: { network: [{ volumeId: volume.id, path: '/runpod-volume' }] }, dataCenterId: 'EU-RO-1' });
    const excluded = await mock.v2('POST', '/pods', { name: 'n', image: 'i:1', gpu: GPU, dataCenterIds: ['US-TX-3'], mounts: { network: [{ volumeId: volume.id, path: '/v' }] } });
    expect(excluded.status).toBe(400);
    const cpu = await v2Pod(mock, { gpu: undefined, cpu: { id: 'cpu5c', vcpuCount: 4 } });
    expect(cpu).toMatchObject({ cpu: { id: 'cpu5c', vcpuCount: 4, memory: 8 }, mounts: {}, cudaVersion: null });
  });

  it('RESTV2-POD-004 unknown references → 404 naming the v2 path; serverless template → 422', async () => {
    const before = await podIds();
    const cases: [Record<string, unknown>, string][] = [
      [{ templateId: 'nope' }, '/body/templateId'],
      [{ mounts: { network: [{ volumeId: 'nope', path: '/v' }] } }, '/body/mounts/network/0/volumeId'],
      [{ registry: 'nope' }, '/body/registry'],
    ];
    for (const [extra, path] of cases) {
      const res = await mock.v2('POST', '/pods', { name: 'n', image: 'i:1', gpu: GPU, ...extra });
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0]).toMatch(new RegExp(`^${path}: `));
    }
    const serverless = await mock.v2('POST', '/templates', { name: 'sls-tpl', image: 'w:1', serverless: true });
    const refused = await mock.v2('POST', '/pods', { name: 'n', gpu: GPU, templateId: serverless.body.id });
    expect(refused.status).toBe(422);
    expect(await podIds()).toEqual(before);
  });

  it('RESTV2-POD-005 a template is a one-time source of settings; body wins, env merges', async () => {
    const tpl = (await mock.v2('POST', '/templates', { name: 'pod-tpl', image: 'tpl:1', args: 'python serve.py', disk: 30, ports: ['8888/http'], env: { A: 'tpl', B: 'tpl' } })).body;
    const pod = await v2Pod(mock, { image: undefined, templateId: tpl.id, env: { B: 'body', C: 'body' }, disk: 60 });
    expect(pod).toMatchObject({ image: 'tpl:1', args: 'python serve.py', disk: 60, ports: ['8888/http'], env: { A: 'tpl', B: 'body', C: 'body' }, template: tpl.id });
    // The pod names its template (RESTV2-CROSS-004) but holds a copy: later template edits do not reach it.
    await mock.v2('PATCH', `/templates/${tpl.id}`, { image: 'tpl:2' });
    expect((await mock.v2('GET', `/pods/${pod.id}`)).body.image).toBe('tpl:1');
  });

  it('RESTV2-POD-006 PATCH changes only what is sent; mount kind and volume are fixed', async () => {
    const pod = await v2Pod(mock, { env: { KEEP: '1' }, mounts: { persistent: { size: 20, path: '/w' } } });
    const patched = await mock.v2('PATCH', `/pods/${pod.id}`, { name: 'renamed', mounts: { persistent: { size: 30, path: '/x' } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'renamed', image: 'img:1', env: { KEEP: '1' }, mounts: { persistent: { size: 30, path: '/x' } } });
    expect((await mock.v2('PATCH', `/pods/${pod.id}`, { mounts: {} })).body.mounts).toEqual({ persistent: { size: 30, path: '/x' } });
    expect((await mock.v2('PATCH', `/pods/${pod.id}`, { mounts: { network: [] } })).status).toBe(400);
    expect((await mock.v2('PATCH', `/pods/${pod.id}`, { mounts: { network: [{ volumeId: 'v', path: '/v' }] } })).status).toBe(400);
    const volume = (await mock.h.rest('POST', '/networkvolumes', { name: 'vol2', size: 10, dataCenterId: 'EU-RO-1' })).body;
    const networked = await v2Pod(mock, { mounts: { network: [{ volumeId: volume.id, path: '/a' }] } });
    expect((await mock.v2('PATCH', `/pods/${networked.id}`, { mounts: { network: [{ volumeId: 'other', path: '/a' }] } })).status).toBe(400);
    expect((await mock.v2('PATCH', `/pods/${networked.id}`, { mounts: { network: [{ volumeId: volume.id, path: '/b' }] } })).body.mounts).toEqual({ network: [{ volumeId: volume.id, path: '/b' }] });
    expect((await mock.v2('PATCH', `/pods/${pod.id}`, { registry: 'nope' })).status).toBe(404);
  });

  it('RESTV2-POD-007 one state with REST v1: same id, the migration map renames', async () => {
    const v1 = await mock.h.rest('POST', '/pods', { name: 'from-v1', imageName: 'v1:1', gpuTypeIds: ['NVIDIA A40'], gpuCount: 2, containerDiskInGb: 25, dockerStartCmd: ['python', 'a b.py'], cloudType: 'COMMUNITY', volumeInGb: 15, volumeMountPath: '/vol' });
    expect(v1.status).toBe(201);
    const read = (await mock.v2('GET', `/pods/${v1.body.id}`)).body;
    expect(read).toMatchObject({ id: v1.body.id, name: 'from-v1', image: 'v1:1', gpu: { id: 'NVIDIA A40', count: 2 }, disk: 25, args: "python 'a b.py'", cloud: 'COMMUNITY', mounts: { persistent: { size: 15, path: '/vol' } } });
    const v2 = await v2Pod(mock, { name: 'from-v2', image: 'v2:1', disk: 33, args: 'run --fast', mounts: { persistent: { size: 12, path: '/p' } } });
    const back = (await mock.h.rest('GET', `/pods/${v2.id}`)).body;
    expect(back).toMatchObject({ id: v2.id, name: 'from-v2', image: 'v2:1', containerDiskInGb: 33, dockerStartCmd: ['run', '--fast'], volumeInGb: 12, volumeMountPath: '/p', desiredStatus: 'RUNNING' });
    // v2-only fields stay beside the record, out of REST v1 answers.
    expect(back).not.toHaveProperty('cloudType');
    expect(back).not.toHaveProperty('createdThrough');
    mock.advance(5_000);
    expect((await mock.v2('POST', `/pods/${v2.id}/action`, { action: 'terminate' })).status).toBe(204);
    expect((await mock.h.rest('GET', `/pods/${v2.id}`)).status).toBe(404);
  });
});

describe('REST v2 pod placement', () => {
  it('RESTV2-POD-008 compute the catalog cannot place → 400 naming the field; CUDA and data centre as placed', async () => {
    const before = await podIds();
    const noStock = DATA_CENTERS.find((d) => seededLevel('NVIDIA H200', d.id) === 'NONE')!.id;
    const cases: [Record<string, unknown>, string][] = [
      [{ gpu: { id: 'NVIDIA GeForce GTX 970' } }, '/body/gpu/id'],
      [{ gpu: { id: 'NVIDIA A40' }, cloud: 'COMMUNITY' }, '/body/gpu/id'],
      [{ gpu: { id: 'NVIDIA GeForce RTX 4090', count: 5 }, cloud: 'COMMUNITY' }, '/body/gpu/count'],
      [{ gpu: { id: 'NVIDIA GeForce RTX 4090', allowedCudaVersions: ['11.8'] } }, '/body/gpu/allowedCudaVersions'],
      [{ gpu: { id: 'AMD Instinct MI300X OAM', minCudaVersion: '12.0' } }, '/body/gpu/allowedCudaVersions'],
      [{ gpu: { id: 'NVIDIA H200' }, dataCenterIds: [noStock] }, '/body/dataCenterIds'],
      [{ gpu: GPU, dataCenterIds: ['XX-NOWHERE-1'] }, '/body/dataCenterIds'],
      [{ cpu: { id: 'cpu9z', vcpuCount: 2 } }, '/body/cpu/id'],
      [{ cpu: { id: 'cpu3c', vcpuCount: 64 } }, '/body/cpu/vcpuCount'],
    ];
    for (const [compute, path] of cases) {
      const res = await mock.v2('POST', '/pods', { name: 'n', image: 'i:1', ...compute });
      expect(res.status, JSON.stringify(compute)).toBe(400);
      expect(res.body.errors[0]).toMatch(new RegExp(`^${path}: `));
    }
    await mock.h.control('POST', '/gpu-availability', { unavailable: ['NVIDIA L4'] });
    expect((await mock.v2('POST', '/pods', { name: 'n', image: 'i:1', gpu: { id: 'NVIDIA L4' } })).status).toBe(400);
    await mock.h.control('POST', '/gpu-availability', { unavailable: [] });
    expect(await podIds()).toEqual(before);
    expect(await v2Pod(mock, { gpu: { id: 'NVIDIA GeForce RTX 4090', allowedCudaVersions: ['12.4', '12.6'] } })).toMatchObject({ cudaVersion: '12.6', dataCenterId: 'EU-RO-1' });
    expect((await v2Pod(mock, { gpu: { id: 'NVIDIA GeForce RTX 4090', minCudaVersion: '12.9' }, dataCenterIds: ['US-KS-2'] }))).toMatchObject({ cudaVersion: '13.0', dataCenterId: 'US-KS-2' });
  });
});

describe('REST v2 pod actions', () => {
  it('RESTV2-ACTION-001 PROVISIONING 2 s, STARTING 3 s, then RUNNING; actions follow the status', async () => {
    const pod = await v2Pod(mock);
    const status = async () => (await mock.v2('GET', `/pods/${pod.id}`)).body;
    expect(await status()).toMatchObject({ status: 'PROVISIONING', actions: ['stop', 'terminate'], runtime: null });
    mock.advance(2_000);
    expect(await status()).toMatchObject({ status: 'STARTING', actions: ['stop', 'terminate'] });
    mock.advance(2_999);
    expect((await status()).status).toBe('STARTING');
    mock.advance(1);
    const running = await status();
    expect(running).toMatchObject({ status: 'RUNNING', actions: ['stop', 'restart', 'terminate'], runtime: { uptime: 0 } });
    expect(running.ssh.proxy).toMatchObject({ host: 'ssh.runpod.io', port: 22 });
    // REST v1 keeps its desired state throughout.
    expect((await mock.h.rest('GET', `/pods/${pod.id}`)).body.desiredStatus).toBe('RUNNING');
  });

  it('RESTV2-ACTION-002 stop, start, restart → 200 with the pod; others → 409; terminate → 204', async () => {
    const pod = await v2Pod(mock);
    const act = (action: string) => mock.v2('POST', `/pods/${pod.id}/action`, { action });
    const early = await act('restart');
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain('PROVISIONING');
    mock.advance(5_000);
    const stopped = await act('stop');
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ id: pod.id, status: 'EXITED', actions: ['start', 'terminate'], cost: 0, runtime: null });
    for (const refused of ['stop', 'restart']) expect((await act(refused)).status).toBe(409);
    const started = await act('start');
    expect(started.body).toMatchObject({ status: 'STARTING', actions: ['stop', 'terminate'] });
    mock.advance(3_000);
    const restarted = await act('restart');
    expect(restarted.status).toBe(200);
    expect(restarted.body.status).toBe('STARTING');
    expect((await act('start')).status).toBe(409);
    expect((await act('terminate')).status).toBe(204);
    expect((await mock.v2('GET', `/pods/${pod.id}`)).status).toBe(404);
    expect((await act('start')).status).toBe(404);
  });

  it('RESTV2-ACTION-003 reset is no action → 422 naming /body/action; the pod is unchanged', async () => {
    const pod = await v2Pod(mock);
    mock.advance(5_000);
    const before = (await mock.v2('GET', `/pods/${pod.id}`)).body;
    const res = await mock.v2('POST', `/pods/${pod.id}/action`, { action: 'reset' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/^\/body\/action: /);
    expect((await mock.v2('GET', `/pods/${pod.id}`)).body).toEqual(before);
  });

  it('fault rest-v2-reset-accepted: reset → 200 with the pod (the fault the suite must catch)', async () => {
    const faulty = await startV2({ faults: ['rest-v2-reset-accepted'] });
    try {
      const pod = await v2Pod(faulty);
      const res = await faulty.v2('POST', `/pods/${pod.id}/action`, { action: 'reset' });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(pod.id);
      expect((await faulty.v2('POST', `/pods/${pod.id}/action`, { action: 'explode' })).status).toBe(422);
    } finally {
      await faulty.close();
    }
  });

  it('RESTV2-ACTION-004 a locked pod cannot be stopped, restarted or terminated (409) until unlocked', async () => {
    const pod = await v2Pod(mock);
    mock.advance(5_000);
    const locked = await mock.v2('PATCH', `/pods/${pod.id}`, { locked: true });
    expect(locked.body).toMatchObject({ locked: true, actions: [] });
    for (const action of ['stop', 'restart', 'terminate']) {
      const res = await mock.v2('POST', `/pods/${pod.id}/action`, { action });
      expect(res.status, action).toBe(409);
      expect(res.body.detail).toContain('locked');
    }
    expect((await mock.v2('DELETE', `/pods/${pod.id}`)).status).toBe(409);
    expect((await mock.v2('GET', `/pods/${pod.id}`)).body.status).toBe('RUNNING');
    expect((await mock.v2('PATCH', `/pods/${pod.id}`, { locked: false })).body.actions).toEqual(['stop', 'restart', 'terminate']);
    expect((await mock.v2('DELETE', `/pods/${pod.id}`)).status).toBe(204);
  });
});
