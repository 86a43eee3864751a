// Preflight and root causes: before the rules, each configured surface is probed (reachable, key
// accepted, a job reaching a terminal status within --preflight-job-ms); a missing capability is
// reported once and every rule needing it is skipped with that one reason, instead of each waiting
// out its own timeout. The preflight itself counts toward the verdict.
import { createServer } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { runConformance, startEmbeddedTarget, type RunSummary, type TargetConfig } from '../../src/entries/conform.js';
import { conformanceChecks } from '../../contract-tests/index.js';
import { remoteTarget } from '../../src/conform/target.js';
import { startMock } from '../../src/mock/index.js';
import { startPrismTarget, type PrismTarget } from '../../scripts/targets/prism.js';

type Mock = Awaited<ReturnType<typeof startMock>>;
let mock: Mock | undefined;
let prism: PrismTarget | undefined;
afterEach(async () => {
  await mock?.close();
  await prism?.stop();
  mock = undefined;
  prism = undefined;
});

/** The reference mock as a foreign server: real clock, no control API, short delays. */
async function realClockMock(): Promise<Mock> {
  mock = await startMock({ port: 0, clock: 'real', control: false, jobDurationMs: 10, templateDeleteDelayMs: 100 });
  return mock;
}

function target(values: Record<string, string>): TargetConfig {
  const built = remoteTarget({ '--api-key': 'mock-key', ...values });
  if (typeof built !== 'object') throw new Error(`target not built: ${built}`);
  return built;
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const needsJobs = (id: string) => conformanceChecks.get(id)?.needs?.includes('jobs') ?? false;
const waited = (summary: RunSummary) => summary.results.filter((r) => /timed out after|did not finish within/.test(r.reason ?? '')).map((r) => `${r.id}: ${r.reason}`);

describe('preflight', () => {
  test('jobs that never finish (an endpoint without workers): one root cause, the rules waiting on jobs not run, the others run', async () => {
    const server = await realClockMock();
    const headers = { authorization: 'Bearer mock-key', 'content-type': 'application/json' };
    const template = await (await fetch(`${server.restV1Url}/templates`, { method: 'POST', headers, body: JSON.stringify({ name: 'idle-tpl', imageName: 'worker:1', isServerless: true }) })).json() as { id: string };
    const idle = await (await fetch(`${server.restV1Url}/endpoints`, { method: 'POST', headers, body: JSON.stringify({ name: 'idle-ep', templateId: template.id, workersMin: 0, workersMax: 0 }) })).json() as { id: string };
    const lines: string[] = [];
    const result = await runConformance({
      target: target({ '--rest-url': server.restV1Url, '--queue-url': `${server.url}/v2`, '--endpoint-id': idle.id }),
      reportsDir: null, progress: 'summary', write: (line) => lines.push(line),
      settings: { grep: '^QUEUE-(JOB|SYNC|STREAM)-', preflightJobMs: 500 },
    });
    const { summary } = result;
    const jobs = summary.preflight.find((p) => p.probe === 'jobs');
    expect(jobs?.ok).toBe(false);
    expect(jobs?.detail).toMatch(/^jobs never reach a terminal status within 500 ms \(job \S+ last seen IN_QUEUE;/);
    const selected = summary.results.filter((r) => r.skipKind !== 'filtered');
    const blocked = selected.filter((r) => r.skipKind === 'preflight');
    expect(blocked.filter((r) => !needsJobs(r.id)).map((r) => r.id)).toEqual([]);
    expect(selected.filter((r) => needsJobs(r.id) && r.outcome !== 'skip').map((r) => r.id)).toEqual([]);
    expect(blocked.length).toBeGreaterThan(5);
    expect(new Set(blocked.map((r) => r.reason))).toEqual(new Set([`not run: queue v2 preflight: ${jobs!.detail}`]));
    // The rules that need no finished job still run against the target and pass.
    const ran = selected.filter((r) => r.outcome !== 'skip');
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(waited(summary)).toEqual([]);
    expect(lines.join('\n')).toContain(`queue v2 preflight: ${jobs!.detail}: ${blocked.length} rules not run`);
    expect(result.exitCode).toBe(1);
  }, 60_000);

  test('an unreachable surface: its rules are not run, with the one cause; the reachable surface is checked', async () => {
    const server = await realClockMock();
    const port = await closedPort();
    const { summary } = await runConformance({
      target: target({ '--rest-url': server.restV1Url, '--queue-url': `http://127.0.0.1:${port}/v2` }),
      reportsDir: null, progress: false, settings: { grep: '^(QUEUE-JOB-00[13]|REST-CRUD-00[12])$' },
    });
    const probe = summary.preflight.find((p) => p.surface === 'queueV2')!;
    expect([probe.probe, probe.ok]).toEqual(['reachable', false]);
    expect(probe.detail).toBe(`--queue-url http://127.0.0.1:${port}/v2 is unreachable (ECONNREFUSED)`);
    const byId = Object.fromEntries(summary.results.map((r) => [r.id, r]));
    for (const id of ['QUEUE-JOB-001', 'QUEUE-JOB-003']) expect([byId[id]?.skipKind, byId[id]?.reason]).toEqual(['preflight', `not run: queue v2 preflight: ${probe.detail}`]);
    for (const id of ['REST-CRUD-001', 'REST-CRUD-002']) expect(byId[id]?.outcome, byId[id]?.reason).toBe('pass');
    expect(summary.verdict).toBe('fail');
  }, 60_000);

  test('a refused key: the surface\'s rules are not run, naming the 401', async () => {
    const server = await realClockMock();
    const { summary } = await runConformance({
      target: target({ '--rest-url': server.restV1Url, '--api-key': 'not-a-key-of-this-server' }),
      reportsDir: null, progress: false, settings: { grep: '^REST-CRUD-00[12]$' },
    });
    expect(summary.preflight.map((p) => [p.probe, p.ok, p.detail])).toEqual([
      ['reachable', true, 'GET /pods answered 401'],
      ['key', false, 'the API key is refused (GET /pods answered 401)'],
    ]);
    expect(summary.results.filter((r) => r.skipKind === 'preflight').map((r) => r.reason)).toEqual([
      'not run: REST v1 preflight: the API key is refused (GET /pods answered 401)',
      'not run: REST v1 preflight: the API key is refused (GET /pods answered 401)',
    ]);
  }, 60_000);

  test('a retired REST v1 (410 Gone): one preflight cause, its rules not run with it, the others judged as without it', async () => {
    const today = await startEmbeddedTarget([], { today: true });
    try {
      const lines: string[] = [];
      const result = await runConformance({
        target: { ...today, restUrl: today.embedded!.restV1Url }, reportsDir: null, progress: 'summary', write: (line) => lines.push(line),
        settings: { grep: '^(REST-CRUD-001|RESTV2-CROSS-003|HTTP-ALLOW-001|TEMPLATE-DELETE-001|QUEUE-JOB-001)$' },
      });
      const { summary } = result;
      const cause = 'REST v1 is retired here (410 Gone): drop --rest-url';
      expect(summary.preflight.filter((p) => !p.ok).map((p) => [p.surface, p.probe, p.detail])).toEqual([['restV1', 'retired', cause]]);
      const byId = Object.fromEntries(summary.results.map((r) => [r.id, r]));
      // REST v1's own rules and the ones comparing with it: the one cause, not a failure each.
      for (const id of ['REST-CRUD-001', 'RESTV2-CROSS-003']) expect([id, byId[id]?.skipKind, byId[id]?.reason]).toEqual([id, 'preflight', `not run: REST v1 preflight: ${cause}`]);
      // The rest runs as on a target without REST v1: checks over every surface, set-up and read-backs through REST v2.
      for (const id of ['HTTP-ALLOW-001', 'TEMPLATE-DELETE-001', 'QUEUE-JOB-001']) expect([id, byId[id]?.outcome], byId[id]?.reason).toEqual([id, 'pass']);
      const printed = lines.join('\n').split('\n');
      // Printed once as the preflight's finding, once as the cause of the rules not run (and among the largest).
      expect(printed.filter((line) => line.includes(cause)).map((line) => line.trim().replace(/: \d+ /, ': N '))).toEqual([
        `✗ REST v1 retired: ${cause}`, `REST v1 preflight: ${cause}: N rules not run`, `Largest skip causes: N REST v1 preflight: ${cause}`,
      ]);
      expect(result.exitCode).toBe(1);
    } finally {
      await today.embedded?.close();
    }
  }, 60_000);

  test('a stateless spec mock (Prism: REST v1 + queue v2): jobs are found untracked once, the full tier waits on none', async () => {
    prism = await startPrismTarget();
    const { summary } = await runConformance({ target: prism.target, reportsDir: null, progress: false, settings: { tier: 'full', requestTimeoutMs: 2_000 } });
    const jobs = summary.preflight.find((p) => p.probe === 'jobs')!;
    expect(jobs.ok).toBe(false);
    expect(jobs.detail).toMatch(/^jobs are not tracked: the status of job \S+ answered the record of job \S+$/);
    const blocked = summary.results.filter((r) => r.skipKind === 'preflight');
    expect(blocked.filter((r) => !needsJobs(r.id)).map((r) => r.id)).toEqual([]);
    expect(summary.results.filter((r) => needsJobs(r.id) && r.outcome !== 'skip').map((r) => r.id)).toEqual([]);
    expect(blocked.length).toBeGreaterThan(20);
    expect(new Set(blocked.map((r) => r.reason)).size).toBe(1);
    expect(waited(summary)).toEqual([]);
    // GraphQL and REST v2 are not served: their rules are skipped, not failed.
    expect(summary.surfaces.absent).toEqual(['graphql', 'restV2']);
    expect(summary.results.filter((r) => r.surface === 'graphql').every((r) => r.skipKind === 'not-configured')).toBe(true);
    expect(summary.verdict).toBe('fail');
  }, 180_000);
});
