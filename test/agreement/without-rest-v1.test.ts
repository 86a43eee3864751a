// The agreement phase against the service as it is today (issue 35): REST v1 retired (410 Gone), REST v2,
// queue v2 and GraphQL given. The fixtures come from REST v2, the operations fuzzed are those of the given
// surfaces, and nothing reaches REST v1 (a fixture made through it would fail the setup with 410).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgreement, type AgreementTarget } from '../../src/agreement/index.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';

const KEY = 'agreement-today-key-0123456789';
let mock: RunningMock;
let target: AgreementTarget;

beforeAll(async () => {
  mock = await startMock({
    host: '127.0.0.1', port: 0, clock: 'virtual', control: true, rateLimits: false, retireRestV1: true,
    apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }],
  });
  target = { restV2Url: mock.restV2Url, queueUrl: `${mock.url}/v2`, graphqlUrl: mock.graphqlUrl, apiKey: KEY, controlUrl: mock.controlUrl! };
});
afterAll(() => mock.close());

describe('agreement without REST v1', () => {
  it('GraphQL and queue v2 operations run on fixtures made through REST v2; nothing stored is left', async () => {
    // Operations naming the fixtures: a template (read, changed, deleted by name), the queue endpoints and their jobs.
    const operations = ['podTemplate', 'saveTemplate', 'graphql:deleteTemplate', 'runJob', 'getJobStatus', 'retryJob', 'restV2:getTemplate'];
    const report = await runAgreement(target, { seed: 35, operations, validRuns: 2, invalidRuns: 2, checkStorage: true, rateLimitHeaders: false });
    expect(report.failures.map((f) => `${f.phase} ${f.operationId}: ${f.problem}`)).toEqual([]);
    expect(report.operations).toBe(operations.length);
    expect(report.requests.valid).toBe(2 * operations.length);
    expect(report.statuses['410'] ?? 0).toBe(0);
    expect(report.leftOver).toEqual([]);
  }, 30_000);

  it('REST v1 operations are not fuzzed when REST v1 is not given', async () => {
    const report = await runAgreement(target, { seed: 35, operations: ['restV1:listTemplates', 'restV1:createPod'], validRuns: 1, invalidRuns: 1, rateLimitHeaders: false });
    expect([report.operations, report.requests.total, report.failures]).toEqual([0, 0, []]);
  }, 30_000);
});
