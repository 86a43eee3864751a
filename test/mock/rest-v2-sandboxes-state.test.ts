// --state keeps sandboxes like every stored record: after a restart a sandbox is back in its account with
// the same facts, and its state follows the restored clock (a deadline passed while stopped is not lost).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';

const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
const KEY_B = 'key-acme';
let dir: string;
let mock: RunningMock | undefined;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'))));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const start = async (stateFile: string) =>
  (mock = await startMock({ stateFile, clock: 'virtual', apiKeys: [{ key: KEY_B, scopes: [...ALL], account: 'acme' }] }));

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${mock!.restV2Url}${path}`, { method, headers: { authorization: `Bearer ${KEY_B}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

it('RESTV2-SANDBOX-005 a sandbox and its last activity survive a restart; its idle deadline still applies', async () => {
  const file = join(dir, 'sandboxes.state');
  await start(file);
  const created = (await call('POST', '/sandboxes', { imageName: 'python:3.12-slim', idleTimeoutSeconds: 120, labels: { keep: 'yes' } })).body;
  mock!.clock.advance(20_000);
  expect((await call('POST', `/sandboxes/${created.id}/exec`, { command: ['true'] })).status).toBe(200);
  const before = (await call('GET', `/sandboxes/${created.id}`)).body;
  await mock!.close();
  await start(file);
  expect((await call('GET', `/sandboxes/${created.id}`)).body).toEqual(before);
  expect((await call('GET', '/sandboxes?labels=keep=yes')).body.sandboxes.map((s: { id: string }) => s.id)).toEqual([created.id]);
  mock!.clock.advance(120_000);
  expect((await call('GET', `/sandboxes/${created.id}`)).body).toMatchObject({ state: 'TERMINATED', terminationReason: 'IDLE_TIMEOUT', terminatedAt: before.idleExpiresAt });
});
