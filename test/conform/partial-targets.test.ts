// Partial targets: any subset of --rest-url, --queue-url, --graphql-url, --rest-v2-url. The rules of an
// absent surface are skipped naming the flag that would add it, never run; the coverage counts only
// the configured surfaces. Runs use the embedded mock with URLs removed, so every check's declared
// needs are verified against what it really calls (an undeclared call fails as a suite defect).
import { afterEach, describe, expect, test } from 'vitest';
import { runConformance, startEmbeddedTarget, type RunSummary, type TargetConfig } from '../../src/entries/conform.js';
import { readOptions, remoteTarget } from '../../src/conform/target.js';
import { NO_ENDPOINT_NOR_MANAGEMENT } from '../../src/conform/needs.js';

let running: TargetConfig | undefined;
afterEach(async () => {
  await running?.embedded?.close();
  running = undefined;
});

type Field = 'restUrl' | 'queueUrl' | 'graphqlUrl' | 'restV2Url';

/** The embedded mock reachable only through `keep` (the other base URLs are left out of the target). */
async function embeddedWith(keep: Field[], extra: Partial<TargetConfig> = {}): Promise<TargetConfig> {
  running = await startEmbeddedTarget();
  const target: TargetConfig = { ...running, ...extra };
  for (const field of ['restUrl', 'queueUrl', 'graphqlUrl', 'restV2Url'] as const) if (!keep.includes(field)) delete target[field];
  return target;
}

const FLAG_OF_SURFACE: Record<string, string> = { 'rest-v1': '--rest-url', 'queue-v2': '--queue-url', graphql: '--graphql-url', 'rest-v2': '--rest-v2-url' };

async function run(target: TargetConfig): Promise<RunSummary> {
  const { summary } = await runConformance({ target, reportsDir: null, progress: false, settings: { tier: 'full' } });
  return summary;
}

/** Common expectations: nothing failed, absent surfaces never ran, coverage counts the configured ones only. */
function expectPartial(summary: RunSummary, present: string[]): void {
  expect(summary.results.filter((r) => r.outcome === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  for (const r of summary.results) {
    if (r.surface !== 'all' && !present.includes(r.surface)) {
      expect([r.id, r.outcome, r.skipKind], r.reason).toEqual([r.id, 'skip', 'not-configured']);
      expect(r.reason).toContain(`needs ${FLAG_OF_SURFACE[r.surface]}`);
      expect(r.calls, `${r.id} made calls`).toBe(0);
    }
  }
  // Coverage counts every rule of a configured surface and of `all`; a skipped one is not covered.
  const inScope = summary.results.filter((r) => r.surface === 'all' || present.includes(r.surface));
  expect(summary.totals.inScope).toBe(inScope.length);
  expect(summary.totals.checked).toBe(inScope.filter((r) => r.outcome !== 'skip').length);
  // Against the embedded mock (clock control, in-process access) a rule of a configured surface is
  // skipped only for a surface it needs besides its own.
  for (const r of inScope.filter((x) => x.outcome === 'skip')) expect([r.id, r.skipKind], r.reason).toEqual([r.id, 'not-configured']);
}

describe('partial targets', () => {
  test('flags: any subset of the four surface URLs builds a target; a bad URL or a missing key is refused', () => {
    const restOnly = remoteTarget({ '--rest-url': 'http://127.0.0.1:1/v1/', '--api-key': 'k' });
    expect(restOnly).toMatchObject({ name: 'http://127.0.0.1:1/v1', restUrl: 'http://127.0.0.1:1/v1' });
    expect((restOnly as TargetConfig).queueUrl).toBeUndefined();
    const { values } = readOptions([], { CONFORM_REST_V2_URL: 'http://127.0.0.1:1/rest/v2', CONFORM_API_KEY: 'k' });
    expect(remoteTarget(values)).toMatchObject({ restV2Url: 'http://127.0.0.1:1/rest/v2' });
    expect(remoteTarget({ '--graphql-url': 'http://127.0.0.1:1/graphql?x=1', '--api-key': 'k' })).toMatchObject({ graphqlUrl: 'http://127.0.0.1:1/graphql?x=1' });
    expect(remoteTarget({ '--queue-url': 'ftp://127.0.0.1/v2', '--api-key': 'k' })).toMatch(/--queue-url must be an http\(s\) URL/);
    expect(remoteTarget({ '--queue-url': 'http://127.0.0.1:1/v2' })).toMatch(/--api-key .* is required/);
    expect(remoteTarget({ '--api-key': 'k' })).toBeUndefined();
  });

  test('REST v1 only: REST v1 rules run and pass; queue, GraphQL and REST v2 rules are skipped naming their flag', async () => {
    const summary = await run(await embeddedWith(['restUrl']));
    expectPartial(summary, ['rest-v1']);
    expect(summary.surfaces).toEqual({ configured: ['restV1'], absent: ['queueV2', 'graphql', 'restV2'] });
    // ISOLATION-NAMES-001 runs on REST v1 alone: the accounts probe proves the second key is another account.
    expect(summary.preflight.map((p) => `${p.surface} ${p.probe} ${p.ok}`)).toEqual(['restV1 reachable true', 'restV1 key true', 'restV1 accounts true']);
    const restRules = summary.results.filter((r) => r.surface === 'rest-v1');
    expect(restRules.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(restRules.length / 2);
    // A REST v1 rule whose check also submits jobs needs the queue too.
    expect(summary.results.find((r) => r.id === 'REST-BOUNDS-001')?.reason).toBe('needs --queue-url (queue v2 is not configured)');
  }, 120_000);

  test('queue v2 only with --endpoint-id: the checks content with a given endpoint run; the ones creating endpoints need a management surface', async () => {
    running = await startEmbeddedTarget();
    const auth = { authorization: `Bearer ${running.apiKey}`, 'content-type': 'application/json' };
    const template = await (await fetch(`${running.restUrl}/templates`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'given-tpl', imageName: running.workerImage, isServerless: true }) })).json() as { id: string };
    const endpoint = await (await fetch(`${running.restUrl}/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'given-ep', templateId: template.id, workersMax: 1 }) })).json() as { id: string };
    const target: TargetConfig = { ...running, endpointId: endpoint.id };
    for (const field of ['restUrl', 'graphqlUrl', 'restV2Url'] as const) delete target[field];
    const summary = await run(target);
    expectPartial(summary, ['queue-v2']);
    const passed = summary.results.filter((r) => r.outcome === 'pass').map((r) => r.id);
    expect(passed).toEqual(expect.arrayContaining(['AUTH-004', 'QUEUE-SYNC-001', 'QUEUE-STREAM-001', 'VERSION-003']));
    // The two-account world of ISOLATION-* names its own needs (docs/accounts.md).
    const queueSkips = summary.results.filter((r) => r.surface === 'queue-v2' && r.outcome === 'skip' && !r.id.startsWith('ISOLATION-'));
    expect(queueSkips.length).toBeGreaterThan(0);
    // QUEUE-LB-* and LB-* create their load-balancing endpoint through REST v2 (its `type`), so they name that surface.
    for (const r of queueSkips) expect(r.reason, r.id).toBe(/^(QUEUE-)?LB-/.test(r.id) ? 'needs --rest-v2-url (REST v2 is not configured)' : 'needs a management surface to set up what it checks (--rest-v2-url, --rest-url or --graphql-url)');
    expect(summary.preflight.find((p) => p.probe === 'jobs')?.ok).toBe(true);
  }, 120_000);

  test('queue v2 only without --endpoint-id: nothing can be submitted, every queue rule names both ways out', async () => {
    const summary = await run(await embeddedWith(['queueUrl']));
    expectPartial(summary, ['queue-v2']);
    const queueRules = summary.results.filter((r) => r.surface === 'queue-v2');
    // One root cause for the rules content with any endpoint and for those creating their own alike.
    expect(queueRules.filter((r) => r.reason === NO_ENDPOINT_NOR_MANAGEMENT).map((r) => r.id)).toEqual(expect.arrayContaining(['AUTH-004', 'QUEUE-SYNC-001', 'QUEUE-TTL-001']));
    expect(NO_ENDPOINT_NOR_MANAGEMENT).toMatch(/--rest-v2-url, --rest-url or --graphql-url .*--endpoint-id/);
    // QUEUE-LB-* and LB-* name REST v2 (their endpoint type is REST v2's); ISOLATION-JOB-001 its two-account world.
    for (const r of queueRules.filter((q) => !q.id.startsWith('ISOLATION-'))) expect([r.outcome, r.reason], r.id).toEqual(['skip', /^(QUEUE-)?LB-/.test(r.id) ? expect.stringMatching(/^needs --rest-v2-url/) : NO_ENDPOINT_NOR_MANAGEMENT]);
    expect(summary.preflight.filter((p) => !p.ok)).toEqual([]);
  }, 120_000);

  test('REST v2 only: REST v2 rules run and pass; the ones comparing with REST v1 are skipped naming --rest-url', async () => {
    const summary = await run(await embeddedWith(['restV2Url']));
    expectPartial(summary, ['rest-v2']);
    const v2 = summary.results.filter((r) => r.surface === 'rest-v2');
    expect(v2.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(v2.length / 2);
    for (const r of v2.filter((x) => x.outcome === 'skip')) expect(r.reason, r.id).toMatch(/^needs --(rest-url|queue-url|graphql-url)/);
  }, 120_000);

  test('GraphQL only: GraphQL rules run and pass; the ones reading back through REST v1 (or v2) are skipped naming its flag', async () => {
    const summary = await run(await embeddedWith(['graphqlUrl']));
    expectPartial(summary, ['graphql']);
    const graphqlRules = summary.results.filter((r) => r.surface === 'graphql');
    expect(graphqlRules.some((r) => r.outcome === 'pass')).toBe(true);
    for (const r of graphqlRules.filter((g) => g.outcome === 'skip')) expect(r.reason, r.id).toMatch(/^needs --rest(-v2)?-url/);
    // Rules of surface `all` run when every surface their check uses is configured, else name the missing ones.
    const everySurface = summary.results.filter((r) => r.surface === 'all');
    expect(everySurface.some((r) => r.outcome === 'pass')).toBe(true);
    for (const r of everySurface.filter((a) => a.outcome === 'skip')) expect(r.reason, r.id).toMatch(/^needs --(rest-url|queue-url|rest-v2-url)/);
    // The agreement phase covers all four surfaces (issue 21).
    expect(summary.results.find((r) => r.id === 'AGREE-VALID-001')?.reason).toBe('needs --queue-url (queue v2 is not configured) and a REST management surface (--rest-v2-url or --rest-url)');
  }, 120_000);
});
