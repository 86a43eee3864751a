// The glue between consumer tests, pact files and verification: placeholders, URLs, state names,
// job-id matcher, deterministic pact files.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { JOB_ID_PATTERN } from '../../contract-tests/pact/consumer.js';
import { createPactWorkspace, normalisePact } from '../../contract-tests/pact/pact-files.js';
import { PACT_API_KEY, PACT_SURFACES, PACT_WRONG_API_KEY, pactFileName, pactFilePath, providerBaseUrl } from '../../src/pact/participants.js';
import { ProviderWorld } from '../../src/pact/provider-world.js';
import { NO_STATE, createStateHandlers } from '../../src/pact/state-handlers.js';
import { STATES, STATE_VALUES } from '../../src/pact/state-names.js';
import { resolvePactTarget } from '../../src/pact/target.js';
import { credentialFilter } from '../../src/pact/verify.js';

type PactFile = { interactions: { providerStates?: { name: string }[]; request: { path: string; generators?: Record<string, unknown> } }[] };
const pacts = PACT_SURFACES.map((surface) => JSON.parse(readFileSync(pactFilePath(surface), 'utf8')) as PactFile);

describe('job ids', () => {
  it.each(['60902e6c-4b2a-4a5c-9f3d-1a2b3c4d5e6f-u1', 'sync-79164ff4-5c27-4e8b-9f1a-2b1c5d6e7f80-u1', 'abc123-e1', 'x'])('the matcher accepts %s', (id) => {
    expect(new RegExp(JOB_ID_PATTERN).test(id)).toBe(true);
  });
  it.each(['', 'has space', 'a/b', 'x'.repeat(129)])('the matcher rejects %j', (id) => {
    expect(new RegExp(JOB_ID_PATTERN).test(id)).toBe(false);
  });
});

describe('provider states', () => {
  const handlers = createStateHandlers(new ProviderWorld({ name: 't', restUrl: 'http://127.0.0.1:9/v1', queueUrl: 'http://127.0.0.1:9/v2', graphqlUrl: 'http://127.0.0.1:9/graphql', apiKey: 'k' }));
  const used = new Set(pacts.flatMap((p) => p.interactions.flatMap((i) => (i.providerStates ?? []).map((s) => s.name))));

  it('every state a pact names has a handler, and every handler is used', () => {
    expect([...used].sort()).toEqual(Object.values(STATES).sort());
    expect(Object.keys(handlers).sort()).toEqual([NO_STATE, ...Object.values(STATES)].sort());
  });

  it('every ${value} an interaction injects is one its state provides', () => {
    for (const interaction of pacts.flatMap((p) => p.interactions)) {
      const provided = new Set((interaction.providerStates ?? []).flatMap((s) => STATE_VALUES[s.name as keyof typeof STATE_VALUES] ?? []));
      const expressions = JSON.stringify(interaction.request.generators ?? {}).match(/\$\{(\w+)\}/g) ?? [];
      for (const expression of expressions) expect(provided, `${interaction.request.path} needs ${expression}`).toContain(expression.slice(2, -1));
    }
  });
});

describe('credentials', () => {
  const run = (url: string, authorization?: string) => {
    const req = { url, headers: authorization ? { authorization } : {} } as IncomingMessage;
    let called = false;
    credentialFilter('real key')(req, {} as ServerResponse, () => (called = true));
    expect(called).toBe(true);
    return req;
  };

  it('the placeholder key becomes the target key; the wrong key stays wrong', () => {
    expect(run('/v1/endpoints', `Bearer ${PACT_API_KEY}`).headers.authorization).toBe('Bearer real key');
    expect(run('/v1/endpoints', `Bearer ${PACT_WRONG_API_KEY}`).headers.authorization).toBe(`Bearer ${PACT_WRONG_API_KEY}`);
    expect(run(`/graphql?api_key=${PACT_API_KEY}`).url).toBe('/graphql?api_key=real%20key');
    expect(run(`/graphql?api_key=${PACT_WRONG_API_KEY}`).url).toBe(`/graphql?api_key=${PACT_WRONG_API_KEY}`);
  });

  it('no pact carries anything but the placeholder keys', () => {
    for (const surface of PACT_SURFACES) {
      const text = readFileSync(pactFilePath(surface), 'utf8');
      const keys = new Set([...text.matchAll(/Bearer ([^"\\]+)|"api_key":\s*\[\s*"([^"]+)"/g)].map((m) => m[1] ?? m[2]));
      for (const key of keys) expect([PACT_API_KEY, PACT_WRONG_API_KEY]).toContain(key);
    }
  });
});

describe('provider base URLs', () => {
  it('drop the surface segment the pact paths start with', () => {
    expect(providerBaseUrl('restV1', 'https://rest.runpod.io/v1/')).toBe('https://rest.runpod.io');
    expect(providerBaseUrl('queueV2', 'http://127.0.0.1:4010/proxy/v2')).toBe('http://127.0.0.1:4010/proxy');
    expect(providerBaseUrl('graphql', 'https://api.runpod.io/graphql')).toBe('https://api.runpod.io');
    expect(() => providerBaseUrl('restV1', 'https://rest.runpod.io/v2')).toThrow(/must end in \/v1/);
  });

  it('REST v2: the origin its /v2 paths hang off (the mock serves it under /rest)', () => {
    expect(providerBaseUrl('restV2', 'https://api.runpod.io/v2')).toBe('https://api.runpod.io');
    expect(providerBaseUrl('restV2', 'http://127.0.0.1:4010/rest/v2')).toBe('http://127.0.0.1:4010/rest');
  });
});

describe('remote targets', () => {
  const flags = ['--rest-url', 'https://rest.example/v1', '--api-key', 'k'];
  it('need the URL of every provider verified', async () => {
    await expect(resolvePactTarget(flags, {}, ['restV1', 'restV2'])).rejects.toThrow(/needs --rest-v2-url \(compute-rest-v2\); pick providers with --provider/);
    const started = await resolvePactTarget([...flags, '--rest-v2-url', 'https://api.example/v2'], {}, ['restV1', 'restV2']);
    expect(started.target).toMatchObject({ restUrl: 'https://rest.example/v1', restV2Url: 'https://api.example/v2' });
    await started.stop();
  });
});

describe('pact files', () => {
  const sample = JSON.stringify({ interactions: [{ description: 'b' }, { description: 'a' }], metadata: {} });

  it('are normalised: interactions by description, stable text', () => {
    expect(normalisePact(sample)).toBe(normalisePact(normalisePact(sample)));
    expect((JSON.parse(normalisePact(sample)) as { interactions: { description: string }[] }).interactions.map((i) => i.description)).toEqual(['a', 'b']);
  });

  it('are moved into place only when changed; under CI a differing pact is reported stale, not overwritten', () => {
    const target = mkdtempSync(path.join(os.tmpdir(), 'pact-target-'));
    const write = (ci: boolean, content = sample) => {
      const workspace = createPactWorkspace('queueV2');
      writeFileSync(path.join(workspace.dir, pactFileName('queueV2')), content);
      return workspace.finish({ targetDir: target, ci });
    };
    expect(write(false)).toBe('written');
    expect(write(false)).toBe('unchanged');
    expect(write(true)).toBe('unchanged');
    const changed = JSON.stringify({ interactions: [{ description: 'c' }] });
    expect(write(true, changed)).toBe('stale');
    expect(readFileSync(path.join(target, pactFileName('queueV2')), 'utf8')).toBe(normalisePact(sample));
    expect(write(false, changed)).toBe('written');
  });
});
