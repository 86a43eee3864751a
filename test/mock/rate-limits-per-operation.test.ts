// QUEUE-RATE-001…011: every queue v2 operation admits exactly its x-rate-limit per 10 s window
// (figures read from the spec via generated/operations.ts), then answers 429 with Retry-After.
// One operation's whole window is sent for real (the counting under concurrent requests); for the
// others all but the window's last REAL_TAIL requests are counted through the control API
// (`POST /__control/rate-limits/consume`, the same counter), as the conformance check does, so
// the test proves each operation's figure without sending 20,000 requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockOperations } from '../../src/mock/spec-facts.js';
import { Harness } from './harness.js';

let h: Harness;
let ep: string;
let doneJob: string;
beforeAll(async () => {
  h = await Harness.start({ requestsPerWorkerPer10s: 0 });
});

/** A fresh endpoint per operation (limits are per endpoint), with one completed job. */
async function freshEndpoint(): Promise<void> {
  ep = await h.endpoint({ workersMax: 4 });
  doneJob = await h.run(ep, { mock: { durationMs: 0 } });
  await h.advance(0);
  await h.advance(10_000); // a fresh window for /run
}
afterAll(() => h.close());

const RULES: Record<string, string> = {
  runJobSync: 'QUEUE-RATE-001', runJob: 'QUEUE-RATE-002', getJobStatus: 'QUEUE-RATE-003', streamJob: 'QUEUE-RATE-004',
  cancelJob: 'QUEUE-RATE-005', purgeQueue: 'QUEUE-RATE-006', openaiProxy: 'QUEUE-RATE-007', listRequests: 'QUEUE-RATE-008',
  getJobStatusSync: 'QUEUE-RATE-009', retryJob: 'QUEUE-RATE-010', getHealth: 'QUEUE-RATE-011', openaiProxyGet: 'QUEUE-RATE-014',
};

function call(operationId: string) {
  switch (operationId) {
    case 'runJob': return h.queue(ep, 'POST', '/run', { input: {} });
    case 'runJobSync': return h.queue(ep, 'POST', '/runsync?wait=1000', { input: { mock: { durationMs: 0 } } });
    case 'getJobStatus': return h.queue(ep, 'GET', `/status/${doneJob}`);
    case 'getJobStatusSync': return h.queue(ep, 'GET', `/status-sync/${doneJob}?wait=1000`);
    case 'streamJob': return h.queue(ep, 'GET', `/stream/${doneJob}`);
    case 'cancelJob': return h.queue(ep, 'POST', `/cancel/${doneJob}`);
    case 'retryJob': return h.queue(ep, 'POST', `/retry/${doneJob}`);
    case 'purgeQueue': return h.queue(ep, 'POST', '/purge-queue');
    case 'getHealth': return h.queue(ep, 'GET', '/health');
    case 'listRequests': return h.queue(ep, 'GET', '/requests');
    case 'openaiProxy': return h.queue(ep, 'POST', '/openai/v1/chat/completions', { messages: [] });
    case 'openaiProxyGet': return h.queue(ep, 'GET', '/openai/v1/models');
    default: throw new Error(operationId);
  }
}

/** Requests of each window sent for real; the rest are counted through the control API. */
const REAL_TAIL = 50;
/** The operation whose whole window is sent for real. */
const FULL_FLOOD = 'getJobStatus';

async function consume(operationId: string, count: number): Promise<void> {
  if (count <= 0) return;
  const res = await h.control('POST', '/rate-limits/consume', { endpointId: ep, operationId, count });
  expect(res.status).toBe(200);
  expect((res.body as { used: number }).used).toBeGreaterThanOrEqual(count);
}

const limited = mockOperations.filter((op) => op.surface === 'queueV2' && op.rateLimit);

describe('per-operation rate limits', () => {
  it('covers every queue v2 operation with a rate limit', () => {
    expect(limited.map((op) => op.operationId).sort()).toEqual(Object.keys(RULES).sort());
  });

  it.each(limited.map((op) => [RULES[op.operationId]!, op.operationId, op.rateLimit!.requestsPer10s] as const))(
    '%s %s admits %i requests per 10 s, then 429',
    async (_rule, operationId, limit) => {
      await freshEndpoint();
      const counted = operationId === FULL_FLOOD ? 0 : Math.max(0, limit - REAL_TAIL);
      await consume(operationId, counted);
      let admitted = counted;
      const BATCH = 50;
      for (let sent = counted; sent < limit; sent += BATCH) {
        const batch = await Promise.all(Array.from({ length: Math.min(BATCH, limit - sent) }, () => call(operationId)));
        admitted += batch.filter((r) => r.status !== 429).length;
      }
      expect(admitted).toBe(limit);
      const over = await call(operationId);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    },
    60_000,
  );
});
