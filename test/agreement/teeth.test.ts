// The agreement phase has teeth: against a mock that breaks the contract in a way only generated
// requests reach, runAgreement reports it (the fault-free run is mock-agreement.test.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

async function agreement(faults: FaultName[], operations: string[], runs: number, clock: 'real' | 'virtual' = 'real'): Promise<AgreementReport> {
  mock = await startMock({
    host: '127.0.0.1', port: 0, clock, control: clock === 'virtual', rateLimits: false, templateDeleteDelayMs: 0, faults,
    apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }],
  });
  const target = {
    restUrl: mock.restV1Url, restV2Url: mock.restV2Url, queueUrl: `${mock.url}/v2`, graphqlUrl: mock.graphqlUrl, apiKey: KEY,
    ...(mock.controlUrl ? { controlUrl: mock.controlUrl } : {}),
  };
  return runAgreement(target, { seed: SEED, operations, validRuns: runs, invalidRuns: runs, checkStorage: true, rateLimitHeaders: false });
}

const problems = (report: AgreementReport) => report.failures.map((f) => `${f.operationId}: ${f.problem}`).join('\n');

describe('the agreement phase catches what the fault-free mock does not do', () => {
  it('AGREE-VALID-001 body-less POSTs refusing {} (fault bodyless-rejects-empty-object)', async () => {
    const report = await agreement(['bodyless-rejects-empty-object'], ['purgeQueue', 'startPod', 'stopPod'], 8);
    expect(problems(report)).toMatch(/(purgeQueue|startPod|stopPod): .*400/);
  }, 30_000);

  it('AGREE-INVALID-001 worker counts above their maximum accepted (fault workers-unbounded)', async () => {
    const report = await agreement(['workers-unbounded'], ['restV1:createEndpoint', 'restV1:updateEndpoint', 'restV1:updateEndpointViaPost'], 40);
    expect(problems(report)).toMatch(/workers(Min|Max)/);
  }, 30_000);

  it('AGREE-VALID-001 REST v2 catalogue lists refused in the comma form the spec declares (fault rest-v2-comma-list-refused)', async () => {
    const report = await agreement(['rest-v2-comma-list-refused'], ['restV2:listGpuTypes', 'restV2:listDataCenters'], 8);
    expect(problems(report)).toMatch(/(listGpuTypes|listDataCenters): spec-valid request refused with 400 .*\/query\/\w+\/\d/);
  }, 30_000);

  it('AGREE-VALID-001 a REST v2 refusal no rule documents (fault rest-v2-undocumented-refusal)', async () => {
    const report = await agreement(['rest-v2-undocumented-refusal'], ['restV2:createTemplate', 'restV2:updateTemplate'], 8);
    expect(problems(report)).toMatch(/(createTemplate|updateTemplate): spec-valid request refused with 422 and no allow-listed rule/);
  }, 30_000);

  it('AGREE-VALID-001 a REST v2 answer field outside its schema (fault rest-v2-port-private-null)', async () => {
    const report = await agreement(['rest-v2-port-private-null'], ['restV2:getPod', 'restV2:listPods'], 4, 'virtual');
    expect(problems(report)).toMatch(/(getPod|listPods): answer 200 not matching the spec: .*runtime\/ports\/\d+\/private/);
  }, 30_000);

  it('AGREE-INVALID-001 a refused REST v1 template create that stores a template all the same', async () => {
    mock = await startMock({ host: '127.0.0.1', port: 0, clock: 'real', rateLimits: false, templateDeleteDelayMs: 0, apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }] });
    const upstream = mock.url;
    let stored = 0;
    // In front of the mock: passes everything through, but after each 400 to POST /v1/templates creates a template.
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void (async () => {
        const headers: Record<string, string> = { authorization: req.headers.authorization ?? '' };
        if (req.headers['content-type']) headers['content-type'] = req.headers['content-type'];
        const answer = await fetch(`${upstream}${req.url}`, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
        const body = Buffer.from(await answer.arrayBuffer());
        if (answer.status === 400 && req.method === 'POST' && req.url === '/v1/templates') {
          const made = await fetch(`${upstream}/v1/templates`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `kept-anyway-${++stored}`, imageName: 'img:1' }) });
          expect(made.status).toBe(200);
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(body);
      })());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      expect(mock.restV1Url).toBe(`${upstream}/v1`);
      const report = await runAgreement({ restUrl: `${url}/v1`, queueUrl: `${url}/v2`, apiKey: KEY }, { seed: SEED, operations: ['restV1:createTemplate'], validRuns: 1, invalidRuns: 4, checkStorage: true, rateLimitHeaders: false });
      expect(stored).toBeGreaterThan(0);
      // Each refused create that stored one is reported (the observation after one refusal is the one before the next).
      expect(report.failures.filter((f) => f.phase === 'invalid' && f.operationId === 'createTemplate').map((f) => f.problem))
        .toEqual(Array.from({ length: stored }, () => expect.stringMatching(/^refused request changed stored state/)));
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
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
