// --state keeps sandboxes like every stored record: after a restart a sandbox is back in its account with
// the same facts, and its state follows the restored clock (a deadline passed while stopped is not lost).
import { expect, it } from 'vitest';
import { callJson, stateMocks } from './state-harness.js';

const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
const KEY_B = 'key-acme';
const state = stateMocks('sandbox-state-', { clock: 'virtual', apiKeys: [{ key: KEY_B, scopes: [...ALL], account: 'acme' }] });
const start = state.start;
const call = (method: string, path: string, body?: unknown) => callJson(method, `${state.mock.restV2Url}${path}`, KEY_B, body);

it('RESTV2-SANDBOX-005 a sandbox and its last activity survive a restart; its idle deadline still applies', async () => {
  const file = state.path('sandboxes.state');
  await start(file);
  const created = (await call('POST', '/sandboxes', { imageName: 'python:3.12-slim', idleTimeoutSeconds: 120, labels: { keep: 'yes' } })).body;
  state.mock.clock.advance(20_000);
  expect((await call('POST', `/sandboxes/${created.id}/exec`, { command: ['true'] })).status).toBe(200);
  const before = (await call('GET', `/sandboxes/${created.id}`)).body;
  await state.mock.close();
  await start(file);
  expect((await call('GET', `/sandboxes/${created.id}`)).body).toEqual(before);
  expect((await call('GET', '/sandboxes?labels=keep=yes')).body.sandboxes.map((s: { id: string }) => s.id)).toEqual([created.id]);
  state.mock.clock.advance(120_000);
  expect((await call('GET', `/sandboxes/${created.id}`)).body).toMatchObject({ state: 'TERMINATED', terminationReason: 'IDLE_TIMEOUT', terminatedAt: before.idleExpiresAt });
});
