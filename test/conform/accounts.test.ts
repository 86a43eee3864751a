// ISOLATION-* set-up: the second key of another account (--second-api-key), the preflight proving the
// two keys are two accounts, the skip without one, and a second key equal to the first refused at once.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { runConformCommand } from '../../src/cli/conform-command.js';
import { runConformance, type TargetConfig } from '../../src/entries/conform.js';
import { remoteTarget } from '../../src/conform/target.js';
import { startMock } from '../../src/mock/index.js';
import { reference } from '../../src/agreement/references.js';
import { loadOpenApiOperations } from '../../src/agreement/spec-model.js';

type Mock = Awaited<ReturnType<typeof startMock>>;
let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  vi.restoreAllMocks();
});

const ALL = ['read', 'write', 'jobs', 'graphql'] as const;

async function twoKeys(secondAccount: string | undefined): Promise<Mock> {
  mock = await startMock({
    port: 0, host: '127.0.0.1', clock: 'virtual', control: true,
    apiKeys: [{ key: 'key-of-account-a', scopes: ALL }, { key: 'key-of-account-b', scopes: ALL, ...(secondAccount ? { account: secondAccount } : {}) }],
  });
  return mock;
}

function target(m: Mock, second?: string): TargetConfig {
  const built = remoteTarget({
    '--rest-url': m.restV1Url, '--queue-url': `${m.url}/v2`, '--graphql-url': m.graphqlUrl, '--rest-v2-url': m.restV2Url,
    '--control-url': m.controlUrl!, '--api-key': 'key-of-account-a', ...(second ? { '--second-api-key': second } : {}),
  });
  if (typeof built !== 'object') throw new Error(`target not built: ${built}`);
  return built;
}

describe('a second account for the ISOLATION rules', () => {
  test('ISOLATION-NAMES-001 two accounts: the preflight proves them apart, the rule runs and passes', async () => {
    const m = await twoKeys('acct_b');
    const { summary } = await runConformance({ target: target(m, 'key-of-account-b'), reportsDir: null, progress: false, settings: { grep: '^ISOLATION-NAMES-001$' } });
    expect(summary.preflight.find((p) => p.probe === 'accounts')).toMatchObject({ surface: 'graphql', ok: true });
    expect(summary.results.find((r) => r.id === 'ISOLATION-NAMES-001')?.outcome).toBe('pass');
    expect(summary.verdict).toBe('pass');
  }, 60_000);

  test('two keys of one account: one root cause, every ISOLATION rule not run, the run fails', async () => {
    const m = await twoKeys(undefined);
    const { summary } = await runConformance({ target: target(m, 'key-of-account-b'), reportsDir: null, progress: false, settings: { grep: '^ISOLATION-' } });
    const probe = summary.preflight.find((p) => p.probe === 'accounts')!;
    expect(probe.ok).toBe(false);
    expect(probe.detail).toMatch(/^the two keys belong to one account \(GraphQL myself answers the same id/);
    const selected = summary.results.filter((r) => r.skipKind !== 'filtered');
    expect(selected.length).toBe(8);
    expect(new Set(selected.map((r) => `${r.skipKind} ${r.reason}`))).toEqual(new Set([`preflight not run: GraphQL preflight: ${probe.detail}`]));
    expect(summary.verdict).toBe('fail');
  }, 60_000);

  test('without --second-api-key the ISOLATION rules are skipped with the reason; nothing else changes', async () => {
    const m = await twoKeys('acct_b');
    const { summary } = await runConformance({ target: target(m), reportsDir: null, progress: false, settings: { grep: '^(ISOLATION-|REST-CRUD-001$)' } });
    const isolation = summary.results.filter((r) => r.id.startsWith('ISOLATION-'));
    expect(new Set(isolation.map((r) => `${r.outcome} ${r.skipKind} ${r.reason}`))).toEqual(new Set(['skip not-configured needs --second-api-key (a key of another account)']));
    expect(summary.preflight.some((p) => p.probe === 'accounts')).toBe(false);
    expect(summary.results.find((r) => r.id === 'REST-CRUD-001')?.outcome).toBe('pass');
  }, 60_000);

  // The run takes its operations from the tables: an {id} it cannot tie to a kind of object would be sent
  // as a random id, so B would never name A's object there. The account secrets are the newest such paths.
  test('ISOLATION-READ-001 / WRITE-001 every REST v2 path id names a kind of object A owns (account secrets too)', () => {
    const ops = loadOpenApiOperations('restV2').filter((op) => op.params.some((p) => p.in === 'path' && p.name === 'id'));
    const unnamed = ops.filter((op) => reference(op, 'path', 'id') === undefined).map((op) => op.operationId);
    expect(unnamed).toEqual([]);
    const secrets = ops.filter((op) => op.path.startsWith('/account/secrets/')).map((op) => [op.operationId, reference(op, 'path', 'id')?.kind]);
    expect(secrets.sort()).toEqual([['deleteSecret', 'v2secret'], ['getSecret', 'v2secret'], ['updateSecret', 'v2secret']]);
  });

  test('ISOLATION-READ/WRITE/LIST/ORACLE-001 with two accounts pass over every operation of the tables, the secrets among them', async () => {
    const m = await twoKeys('acct_b');
    const { summary } = await runConformance({ target: target(m, 'key-of-account-b'), reportsDir: null, progress: false, settings: { grep: '^ISOLATION-(READ|WRITE|LIST|ORACLE)-001$' } });
    const ran = summary.results.filter((r) => r.skipKind !== 'filtered');
    expect(ran.map((r) => [r.id, r.outcome])).toEqual([['ISOLATION-READ-001', 'pass'], ['ISOLATION-WRITE-001', 'pass'], ['ISOLATION-LIST-001', 'pass'], ['ISOLATION-ORACLE-001', 'pass']]);
  }, 60_000);

  test('--second-api-key equal to --api-key: one line, exit 2, before anything starts', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    const code = await runConformCommand(['--rest-url', 'http://127.0.0.1:9/v1', '--api-key', 'same-key-1234', '--second-api-key', 'same-key-1234']);
    expect(code).toBe(2);
    expect(errors).toEqual(['--second-api-key must be a key of another account, not the --api-key itself']);
  });
});
