// REST v2 sandboxes in the mock: create (defaults, clamping, template xor image), lifecycle on the virtual
// clock (CREATING → RUNNING, idle timeout, max lifetime, explicit terminate), list filters, and one
// account's sandbox absent for another (RESTV2-SANDBOX-001..006). Every answer is checked against the spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V2Harness } from './rest-v2-resource-harness.js';

const OTHER = 'other-account-key';
const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
let m: V2Harness;
beforeAll(async () => {
  m = await V2Harness.start({ apiKeys: [{ key: 'test-key', scopes: [...ALL] }, { key: OTHER, scopes: [...ALL], account: 'acme' }] });
});
afterAll(() => m.close());

async function sandbox(body: Record<string, unknown> = {}): Promise<any> {
  const res = await m.v2('POST', '/sandboxes', { imageName: 'python:3.12-slim', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const get = async (id: string) => (await m.v2('GET', `/sandboxes/${id}`)).body;
const ids = async (query: string) => ((await m.v2('GET', `/sandboxes?${query}`)).body.sandboxes as { id: string }[]).map((s) => s.id);
const seconds = (iso: string) => Date.parse(iso) / 1000;

describe('REST v2 sandboxes (mock)', () => {
  it('RESTV2-SANDBOX-001 a new sandbox is CREATING with the defaults, RUNNING with compute 5 s later', async () => {
    const s = await sandbox();
    expect(s).toMatchObject({ state: 'CREATING', idleTimeoutSeconds: 600, maxLifetimeSeconds: 3600, templateId: null, cpuFlavorId: 'cpu3c', terminationReason: null, terminatedAt: null });
    expect(s.name).toBe(`sandbox-${s.id}`);
    expect(s.compute).toBeUndefined();
    expect(seconds(s.idleExpiresAt) - seconds(s.lastActivityAt)).toBe(600);
    expect(seconds(s.expiresAt) - seconds(s.createdAt)).toBe(3600);
    await m.advance(5_000);
    const running = await get(s.id);
    expect(running.state).toBe('RUNNING');
    // The page's example: 2 vCPUs of cpu3c, 4 GB, 10 GB disk, 0.026 USD an hour.
    expect(running.compute).toEqual({ vcpuCount: 2, memoryInGb: 4, containerDiskInGb: 10, costPerHr: 0.026 });
    expect(running.updatedAt).toBe(new Date(Date.parse(s.createdAt) + 5_000).toISOString());
  });

  it('RESTV2-SANDBOX-002 both or neither source, or an unknown field → 400; unknown template or flavor → 422; from a template: its image, imageName null', async () => {
    const template = (await m.v2('POST', '/templates', { name: 'sbx-template', image: 'repo/tpl:1', env: { FROM: 'template' } })).body;
    const before = (await m.v2('GET', '/sandboxes')).body.sandboxes.length;
    for (const body of [{ imageName: 'a:1', templateId: template.id }, {}, { imageName: 'a:1', bogus: 1 }, { imageName: 'a:1', idleTimeoutSeconds: 0 }]) {
      const res = await m.v2('POST', '/sandboxes', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await m.v2('POST', '/sandboxes', { templateId: 'nope' })).status).toBe(422);
    expect((await m.v2('POST', '/sandboxes', { imageName: 'a:1', cpuFlavorId: 'cpu9z' })).status).toBe(422);
    expect((await m.v2('POST', '/sandboxes', { imageName: 'a:1', vcpuCount: 64 })).body.errors).toEqual(['/body/vcpuCount: flavor cpu3c offers 2 to 32 vCPUs']);
    expect((await m.v2('POST', '/sandboxes', { imageName: 'a:1', dataCenterId: 'XX-NOPE-1' })).status).toBe(422);
    expect((await m.v2('GET', '/sandboxes')).body.sandboxes.length).toBe(before);
    const fromTemplate = await sandbox({ imageName: undefined, templateId: template.id, env: { OWN: '1' } });
    expect([fromTemplate.templateId, fromTemplate.imageName]).toEqual([template.id, null]);
  });

  it('RESTV2-SANDBOX-003 timeouts above 7200 / 86400 are clamped, not refused', async () => {
    const s = await sandbox({ idleTimeoutSeconds: 2_147_483_647, maxLifetimeSeconds: 86_401 });
    expect([s.idleTimeoutSeconds, s.maxLifetimeSeconds]).toEqual([7_200, 86_400]);
    expect((await m.v2('POST', '/sandboxes', { imageName: 'a:1', idleTimeoutSeconds: 2_147_483_648 })).status).toBe(400);
  });

  it('RESTV2-SANDBOX-004 terminate is final and safe to retry; the record stays readable; lists leave it out', async () => {
    const s = await sandbox({ labels: { t: '004' } });
    expect((await m.v2('DELETE', `/sandboxes/${s.id}`)).status).toBe(204);
    const ended = await get(s.id);
    expect(ended).toMatchObject({ state: 'TERMINATED', terminationReason: 'USER_REQUESTED' });
    expect(ended.compute).toBeUndefined();
    await m.advance(1_000);
    expect((await m.v2('DELETE', `/sandboxes/${s.id}`)).status).toBe(204);
    expect(await get(s.id)).toEqual(ended);
    expect(await ids('labels=t=004')).toEqual([]);
    expect(await ids('labels=t=004&state=TERMINATED')).toEqual([s.id]);
    expect((await m.v2('DELETE', '/sandboxes/nope')).status).toBe(404);
  });

  it('RESTV2-SANDBOX-005 idle timeout and max lifetime terminate at their deadline with their reason', async () => {
    const idle = await sandbox({ idleTimeoutSeconds: 60, labels: { t: '005' } });
    const short = await sandbox({ maxLifetimeSeconds: 30, labels: { t: '005' } });
    await m.advance(59_999);
    expect((await get(idle.id)).state).toBe('RUNNING');
    expect((await get(short.id)).state).toBe('TERMINATED');
    expect((await get(short.id)).terminatedAt).toBe(short.expiresAt);
    await m.advance(1);
    expect(await get(idle.id)).toMatchObject({ state: 'TERMINATED', terminationReason: 'IDLE_TIMEOUT', terminatedAt: idle.idleExpiresAt });
    expect((await get(short.id)).terminationReason).toBe('MAX_LIFETIME');
  });

  it('RESTV2-SANDBOX-006 state and labels filters; every label must match; a malformed filter → 400', async () => {
    const a = await sandbox({ labels: { t: '006', env: 'staging' } });
    const b = await sandbox({ labels: { t: '006', env: 'prod' } });
    expect((await ids('labels=t=006')).sort()).toEqual([a.id, b.id].sort());
    expect(await ids('labels=t=006&labels=env=staging')).toEqual([a.id]);
    expect(await ids('labels=t%3D006&labels=env%3Dprod')).toEqual([b.id]);
    expect(await ids('labels=t=006&state=RUNNING')).toEqual([]);
    expect((await ids('labels=t=006&state=CREATING')).sort()).toEqual([a.id, b.id].sort());
    expect((await m.v2('GET', '/sandboxes?labels=noequals')).status).toBe(400);
    expect((await m.v2('GET', '/sandboxes?state=PAUSED')).status).toBe(400);
  });

  it('issue 27: another account\'s sandbox answers exactly as one that never existed', async () => {
    const s = await sandbox();
    const url = (path: string) => `${m.h.mock.restV2Url}${path}`;
    for (const [method, path, body] of [['GET', ''], ['DELETE', ''], ['POST', '/exec', { command: ['true'] }], ['GET', '/logs']] as const) {
      const theirs = await m.h.request(method, url(`/sandboxes/${s.id}${path}`), { key: OTHER, body });
      const none = await m.h.request(method, url(`/sandboxes/zz${s.id.slice(2)}${path}`), { key: OTHER, body });
      expect(theirs.status, `${method} ${path}`).toBe(404);
      expect(theirs.body.detail.replace(s.id, 'X')).toBe(none.body.detail.replace(`zz${s.id.slice(2)}`, 'X'));
    }
    expect((await m.h.request('GET', url('/sandboxes'), { key: OTHER })).body.sandboxes).toEqual([]);
    expect((await get(s.id)).state).not.toBe('TERMINATED');
  });
});
