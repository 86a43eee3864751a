// The control API stays with its owner: loopback peers only, or (with --control-token) only requests
// carrying the token; anyone else gets the plain 404 of a mock without a control API. A peer that is not
// loopback is real where this runs as root (two network namespaces joined by a veth pair, the mock in one,
// the client in the other); elsewhere the access rule is checked with injected peer addresses only.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../src/cli/mock-command.js';
import { controlAccess, isLoopbackAddress, openControlRisk } from '../../src/mock/control-access.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { resolveOptions } from '../../src/mock/options.js';
import { bundleChild, removeBundle, runToExit, startChild, type ChildMock } from './state-child.js';

const TOKEN = 'team-mock-control-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('CONTROL-ACCESS: the access rule, with injected peer addresses', () => {
  const loopbackOnly = controlAccess(undefined);
  const withToken = controlAccess(TOKEN);

  it('answers loopback peers only when no token is set', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(loopbackOnly({ remoteAddress: address, authorization: undefined }), address).toBe(true);
    }
    for (const address of ['10.213.0.2', '192.168.1.5', '0.0.0.0', '::ffff:10.0.0.1', 'fe80::1', '::', undefined]) {
      expect(loopbackOnly({ remoteAddress: address, authorization: undefined }), String(address)).toBe(false);
    }
  });

  it('with a token answers only requests carrying it, loopback or not', () => {
    expect(withToken({ remoteAddress: '10.213.0.2', authorization: `Bearer ${TOKEN}` })).toBe(true);
    expect(withToken({ remoteAddress: '127.0.0.1', authorization: `bearer ${TOKEN}` })).toBe(true);
    expect(withToken({ remoteAddress: '127.0.0.1', authorization: undefined })).toBe(false);
    expect(withToken({ remoteAddress: '10.213.0.2', authorization: `Bearer ${TOKEN}x` })).toBe(false);
    expect(withToken({ remoteAddress: '10.213.0.2', authorization: `Bearer ${TOKEN.slice(0, -1)}` })).toBe(false);
    expect(withToken({ remoteAddress: '10.213.0.2', authorization: TOKEN })).toBe(false);
    expect(withToken({ remoteAddress: '10.213.0.2', authorization: [`Bearer ${TOKEN}`] })).toBe(false);
  });

  it('tells loopback addresses from others', () => {
    expect(isLoopbackAddress('[::1]')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::ffff:7f00:1')).toBe(false);
  });
});

describe('CONTROL-ACCESS: starting a shared mock', () => {
  it('refuses --control on a non-loopback --host without a token, naming the risk', () => {
    expect(() => resolveOptions({ host: '0.0.0.0', control: true })).toThrow(openControlRisk('0.0.0.0'));
    expect(() => resolveOptions({ host: '0.0.0.0', control: true, controlToken: TOKEN })).not.toThrow();
    expect(() => resolveOptions({ host: 'localhost', control: true })).not.toThrow();
    expect(() => resolveOptions({ host: '0.0.0.0', control: false })).not.toThrow();
    expect(() => resolveOptions({ control: true, controlToken: 'short-secret' })).toThrow(/16-512 characters/);
    expect(() => resolveOptions({ control: true, controlToken: 'short-secret' })).not.toThrow(/short-secret/);
  });

  it('takes the token from COMPUTE_CONTRACT_CONTROL_TOKEN, the flag winning', () => {
    expect(parseMockArgs(['--control'], { COMPUTE_CONTRACT_CONTROL_TOKEN: TOKEN })).toMatchObject({ controlToken: TOKEN });
    expect(parseMockArgs(['--control', '--control-token', `${TOKEN}2`], { COMPUTE_CONTRACT_CONTROL_TOKEN: TOKEN })).toMatchObject({ controlToken: `${TOKEN}2` });
  });

  it('exits 2 with one line, never starting, and never prints the token', async () => {
    const refused = await runToExit(join(tmpdir(), `never-${process.pid}.db`), { args: ['--host', '0.0.0.0', '--control'] });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([`compute-contract mock: ${openControlRisk('0.0.0.0')}`]);
  });
});

describe('CONTROL-ACCESS: over HTTP on loopback', () => {
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('with a token: without it (or with another) the answer is the 404 of a mock without control API', async () => {
    mock = await startMock({ control: true, controlToken: TOKEN });
    const plain = await startMock({});
    try {
      const none = await fetch(`${plain.url}/__control/state`);
      const expected = { status: none.status, body: await none.text() };
      expect(expected.status).toBe(404);
      for (const headers of [{}, bearer(`${TOKEN}-other`), { 'x-control-token': TOKEN }] as Record<string, string>[]) {
        const answer = await fetch(`${mock.url}/__control/state`, { headers });
        expect({ status: answer.status, body: await answer.text() }).toEqual(expected);
      }
      const reset = await fetch(`${mock.url}/__control/reset`, { method: 'POST', body: '{}' });
      expect(reset.status).toBe(404);
      const allowed = await fetch(`${mock.url}/__control/state`, { headers: bearer(TOKEN) });
      expect(allowed.status).toBe(200);
    } finally {
      await plain.close();
    }
  });

  it('without a token: a loopback peer is answered', async () => {
    mock = await startMock({ control: true });
    expect((await fetch(`${mock.url}/__control/state`)).status).toBe(200);
  });
});

/** Two fresh network namespaces joined by a veth pair: a second host, without touching this one's network. */
function makeNamespaces(tag: string): { server: string; client: string; serverAddress: string } | undefined {
  if (process.getuid?.() !== 0 || spawnSync('ip', ['netns', 'list']).status !== 0) return undefined;
  const server = `cc-srv-${tag}`;
  const client = `cc-cli-${tag}`;
  const octet = 1 + (process.pid % 250);
  const run = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  try {
    run('netns', 'add', server);
    run('netns', 'add', client);
    run('link', 'add', 'ccs0', 'netns', server, 'type', 'veth', 'peer', 'name', 'ccc0', 'netns', client);
    run('-n', server, 'addr', 'add', `10.213.${octet}.1/30`, 'dev', 'ccs0');
    run('-n', client, 'addr', 'add', `10.213.${octet}.2/30`, 'dev', 'ccc0');
    for (const [ns, dev] of [[server, 'ccs0'], [client, 'ccc0'], [server, 'lo']] as const) run('-n', ns, 'link', 'set', dev, 'up');
    return { server, client, serverAddress: `10.213.${octet}.1` };
  } catch {
    removeNamespaces(server, client);
    return undefined;
  }
}

function removeNamespaces(...names: string[]): void {
  for (const name of names) spawnSync('ip', ['netns', 'del', name], { stdio: 'ignore' });
}

/** GETs and POSTs from inside the client namespace: [status, body] per request. */
function fromOtherHost(namespace: string, requests: { method: string; url: string; headers?: Record<string, string> }[]): [number, string][] {
  const script = `const out = []; for (const r of ${JSON.stringify(requests)}) { const a = await fetch(r.url, { method: r.method, headers: r.headers, body: r.method === 'POST' ? '{}' : undefined }); out.push([a.status, await a.text()]); } console.log(JSON.stringify(out));`;
  const text = execFileSync('ip', ['netns', 'exec', namespace, process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  return JSON.parse(text) as [number, string][];
}

describe('CONTROL-ACCESS: from another host', () => {
  const tag = `${process.pid}`;
  let namespaces: ReturnType<typeof makeNamespaces>;
  let child: ChildMock | undefined;
  let dir = '';
  beforeAll(async () => {
    namespaces = makeNamespaces(tag);
    dir = mkdtempSync(join(tmpdir(), 'control-peers-'));
    await bundleChild();
  });
  afterAll(async () => {
    await child?.kill();
    if (namespaces) removeNamespaces(namespaces.server, namespaces.client);
    rmSync(dir, { recursive: true, force: true });
    removeBundle();
  });

  it('answers nothing without its token to a peer in another network namespace (predicate only where namespaces cannot be made)', async () => {
    if (!namespaces) {
      // Not root here: the peer of another host, as the request handler would see it.
      expect(controlAccess(TOKEN)({ remoteAddress: '10.213.0.2', authorization: undefined })).toBe(false);
      expect(controlAccess(TOKEN)({ remoteAddress: '10.213.0.2', authorization: `Bearer ${TOKEN}` })).toBe(true);
      return;
    }
    child = await startChild(join(dir, 'shared.db'), {
      netns: namespaces.server,
      args: ['--host', namespaces.serverAddress, '--control', '--control-token', TOKEN],
    });
    const base = child.restV1.slice(0, -'/v1'.length);
    expect(base).toBe(`http://${namespaces.serverAddress}:${new URL(base).port}`);
    const answers = fromOtherHost(namespaces.client, [
      { method: 'GET', url: `${base}/__control/state` },
      { method: 'POST', url: `${base}/__control/reset` },
      { method: 'GET', url: `${base}/__control/state`, headers: bearer(`${TOKEN}-guess`) },
      { method: 'GET', url: `${base}/__control/no-such-route` },
      { method: 'GET', url: `${base}/__control/state`, headers: bearer(TOKEN) },
      { method: 'GET', url: `${base}/v1/templates`, headers: bearer('mock-key') },
    ]);
    const [state, reset, guessed, absent, allowed, publicSurface] = answers;
    for (const refused of [state, reset, guessed]) {
      expect(refused![0]).toBe(404);
      expect(JSON.parse(refused![1]).message).toMatch(/^no route for (GET|POST) \/__control\//);
    }
    expect(absent![0]).toBe(404);
    expect(allowed![0]).toBe(200);
    expect(publicSurface![0]).toBe(200);
    expect(child.stderr()).not.toContain(TOKEN);
  });
});
