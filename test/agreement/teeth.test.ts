// The agreement phase has teeth: against a mock that breaks the contract in a way only generated
// requests reach, runAgreement reports it (the fault-free run is mock-agreement.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { heapAfterGc, runAgreement, type AgreementReport } from '../../src/agreement/index.js';
import { rules } from '../../generated/rules.js';
import { startMock, type FaultName, type RunningMock } from '../../src/mock/index.js';

const KEY = 'agreement-teeth-key-0123456789';
const SEED = 20_261_124;
let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function agreement(faults: FaultName[], operations: string[], runs: number): Promise<AgreementReport> {
  mock = await startMock({
    host: '127.0.0.1', port: 0, clock: 'real', rateLimits: false, templateDeleteDelayMs: 0, faults,
    apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }],
  });
  const target = { restUrl: mock.restV1Url, queueUrl: `${mock.url}/v2`, graphqlUrl: mock.graphqlUrl, apiKey: KEY };
  return runAgreement(target, { seed: SEED, operations, validRuns: runs, invalidRuns: runs, checkStorage: true });
}

const problems = (report: AgreementReport) => report.failures.map((f) => `${f.operationId}: ${f.problem}`).join('\n');

describe('the agreement phase catches what the fault-free mock does not do', () => {
  it('AGREE-VALID-001 body-less POSTs refusing {} (fault bodyless-rejects-empty-object)', async () => {
    const report = await agreement(['bodyless-rejects-empty-object'], ['purgeQueue', 'startPod', 'stopPod'], 8);
    expect(problems(report)).toMatch(/(purgeQueue|startPod|stopPod): .*400/);
  }, 30_000);

  it('AGREE-INVALID-001 worker counts above their maximum accepted (fault workers-unbounded)', async () => {
    const report = await agreement(['workers-unbounded'], ['createEndpoint', 'updateEndpoint', 'updateEndpointViaPost'], 40);
    expect(problems(report)).toMatch(/workers(Min|Max)/);
  }, 30_000);

  it('AGREE-ROBUST-001 a server that keeps something per request grows its heap past the bound', async () => {
    mock = await startMock({ host: '127.0.0.1', port: 0, clock: 'real', rateLimits: false, templateDeleteDelayMs: 0, apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }] });
    const leaked: number[][] = [];
    const touch = mock.core.touch.bind(mock.core);
    // Every write keeps ≈256 KiB that nothing ever frees: the per-request leak AGREE-ROBUST-001 measures.
    mock.core.touch = () => {
      leaked.push(new Array(32_768).fill(leaked.length));
      touch();
    };
    const target = { restUrl: mock.restV1Url, queueUrl: `${mock.url}/v2`, graphqlUrl: mock.graphqlUrl, apiKey: KEY };
    const before = await heapAfterGc();
    await runAgreement(target, { seed: SEED, validRuns: 2, invalidRuns: 2 });
    const after = await heapAfterGc();
    // The bound AGREE-ROBUST-001 applies, from its values in specs/rules.yaml.
    const values = rules.find((r) => r.id === 'AGREE-ROBUST-001')!.values as { heapGrowthMax: number; heapSlackBytes: number };
    expect(after).toBeGreaterThan(before * (1 + values.heapGrowthMax) + values.heapSlackBytes);
    expect(leaked.length).toBeGreaterThan(0);
    console.log(`leak probe: ${leaked.length} writes, heap after GC ${(before / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MB`);
  }, 60_000);
});
