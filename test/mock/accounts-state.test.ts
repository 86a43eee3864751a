// --state keeps accounts: each account's resources come back in that account after a restart, and a
// state file written before accounts existed (fixtures/state-before-accounts.state, written by the mock
// of 2026-11-26 with a template, an endpoint, a pod and an SSH key) restores into the default account.
import { copyFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callJson as call, stateMocks } from './state-harness.js';

const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
const KEY_A = 'key-default';
const KEY_B = 'key-acme';
const BEFORE_ACCOUNTS = { template: '8d2r6fjha98cuy', endpoint: 'j1lii6ixpspkfz', pod: '34nvo2hnhpgbsl' };

const state = stateMocks('accounts-state-', { clock: 'virtual', apiKeys: [{ key: KEY_A, scopes: [...ALL] }, { key: KEY_B, scopes: [...ALL], account: 'acme' }] });
const start = state.start;
const ids = (list: { id: string }[]) => list.map((r) => r.id).sort();

describe('--state with accounts', () => {
  it('a state file written before accounts restores into the default account; another account starts empty', async () => {
    const file = state.path('old.state');
    copyFileSync(new URL('./fixtures/state-before-accounts.state', import.meta.url), file);
    const m = await start(file);
    expect(ids((await call('GET', `${m.restV1Url}/templates`, KEY_A)).body)).toEqual([BEFORE_ACCOUNTS.template]);
    expect((await call('GET', `${m.restV1Url}/endpoints/${BEFORE_ACCOUNTS.endpoint}`, KEY_A)).body.userId).toBe('user_mock');
    expect((await call('GET', `${m.restV1Url}/pods/${BEFORE_ACCOUNTS.pod}`, KEY_A)).status).toBe(200);
    expect((await call('GET', `${m.restV2Url}/account/ssh-keys`, KEY_A)).body.keys).toHaveLength(1);
    expect((await call('GET', `${m.restV1Url}/templates`, KEY_B)).body).toEqual([]);
    expect((await call('GET', `${m.restV1Url}/pods/${BEFORE_ACCOUNTS.pod}`, KEY_B)).status).toBe(404);
    expect((await call('GET', `${m.restV2Url}/account/ssh-keys`, KEY_B)).body.keys).toEqual([]);
  });

  it('each account\'s resources, names and SSH keys come back in that account after a restart', async () => {
    const file = state.path('accounts.state');
    let m = await start(file);
    const tplA = (await call('POST', `${m.restV1Url}/templates`, KEY_A, { name: 'base', imageName: 'repo/a:1', isServerless: true, volumeInGb: 0 })).body;
    const tplB = (await call('POST', `${m.restV1Url}/templates`, KEY_B, { name: 'base', imageName: 'repo/b:1', isServerless: true, volumeInGb: 0 })).body;
    const epB = (await call('POST', `${m.restV1Url}/endpoints`, KEY_B, { name: 'eb', templateId: tplB.id, workersMin: 0, workersMax: 1 })).body;
    await call('PUT', `${m.restV2Url}/account/ssh-keys`, KEY_B, { keys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAcmeAcmeAcmeAcmeAcmeAcmeAcmeAcmeAcmeAcmeAcme b@acme'] });
    await m.close();
    m = await start(file);
    expect(ids((await call('GET', `${m.restV1Url}/templates`, KEY_A)).body)).toEqual([tplA.id]);
    expect(ids((await call('GET', `${m.restV1Url}/templates`, KEY_B)).body)).toEqual([tplB.id]);
    expect((await call('GET', `${m.restV1Url}/endpoints/${epB.id}`, KEY_B)).body).toMatchObject({ userId: 'acme', templateId: tplB.id });
    expect((await call('GET', `${m.restV1Url}/endpoints/${epB.id}`, KEY_A)).status).toBe(404);
    expect((await call('GET', `${m.restV2Url}/account/ssh-keys`, KEY_B)).body.keys).toHaveLength(1);
    expect((await call('GET', `${m.restV2Url}/account/ssh-keys`, KEY_A)).body.keys).toEqual([]);
    // The restored endpoint still runs B's jobs (the engine finds it in B's account).
    expect((await call('POST', `${m.queueV2Url(epB.id)}/run`, KEY_B, { input: { mock: { durationMs: 0 } } })).status).toBe(200);
  });
});
