// Job-completion webhook, checked with a receiver the suite starts on 127.0.0.1: WEBHOOK-*.
import { defineCheck } from '../../src/conform/registry.js';
import { startReceiver, type Receiver } from '../../src/conform/receiver.js';
import { expect, expectEqual, short, type Ctx } from '../../src/conform/context.js';
import { validateWebhook } from '../../src/validation/index.js';

const SETTLE_MS = 3_000;

async function receiver(ctx: Ctx, answers: number[]): Promise<Receiver> {
  const r = await startReceiver(answers);
  ctx.cleanup(() => r.close());
  return r;
}

/** Runs a job with the receiver as webhook and lets it finish; returns the job id. */
async function jobWithWebhook(ctx: Ctx, r: Receiver, mock: Record<string, unknown>, extra: Record<string, unknown> = {}, input: Record<string, unknown> = {}) {
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, mock, { webhook: r.url, ...extra }, input);
  const record = await ctx.finish(endpointId, id, Number(mock['durationMs'] ?? 0));
  return { endpointId, id, record };
}

function checkPayload(body: unknown, what: string): void {
  const issues = validateWebhook('jobCompleted', body);
  expect(issues.length === 0, `${what}: webhook payload not matching the spec: ${issues.slice(0, 3).map((i) => `${i.path} ${i.message}`).join('; ')}`);
}

defineCheck('WEBHOOK-001', async (ctx) => {
  const r = await receiver(ctx, [200]);
  await jobWithWebhook(ctx, r, { durationMs: 100, output: 'hooked' });
  const calls = await r.waitForCalls(1, SETTLE_MS);
  expectEqual(calls.length, 1, 'webhook calls');
  expectEqual(calls[0]!.method, 'POST', 'webhook method');
  expect(typeof calls[0]!.body === 'object', 'webhook body is not JSON');
}, { shares: ['clock'], needs: ['jobs'] });

defineCheck('WEBHOOK-002', async (ctx) => {
  const r = await receiver(ctx, [200]);
  const s3Config = { accessId: 'cc-a', accessSecret: ctx.secret('s3 accessSecret'), bucketName: 'b', endpointUrl: 'https://s3.example.test' };
  const input = { prompt: 'payload', nonce: ctx.name('n') };
  const { id, record } = await jobWithWebhook(ctx, r, { durationMs: 100, output: { v: 1 } }, { s3Config }, input);
  const [call] = await r.waitForCalls(1, SETTLE_MS);
  expect(call, 'no webhook call arrived');
  checkPayload(call.body, 'COMPLETED job');
  const body = call.body as Record<string, unknown>;
  expectEqual([body['id'], body['status'], body['output']], [id, 'COMPLETED', record.output], 'webhook id/status/output vs getJobStatus');
  expectEqual(body['input'], { ...input, mock: { durationMs: 100, output: { v: 1 } } }, 'webhook input');
  expectEqual(body['webhook'], r.url, 'webhook field');
  for (const [value, label] of ctx.http.secrets.entries()) expect(!call.rawBody.includes(value), `webhook body contains the ${label}`);
}, { shares: ['clock'], needs: ['jobs'] });

defineCheck('WEBHOOK-003', async (ctx) => {
  const r = await receiver(ctx, [200]);
  const { id } = await jobWithWebhook(ctx, r, { durationMs: 100, error: 'bad input' });
  const [call] = await r.waitForCalls(1, SETTLE_MS);
  expect(call, 'no webhook call for a FAILED job');
  checkPayload(call.body, 'FAILED job');
  const body = call.body as Record<string, unknown>;
  expectEqual([body['id'], body['status']], [id, 'FAILED'], 'webhook id/status');
  expect(body['error'] !== undefined, `FAILED webhook body lacks error: ${short(body)}`);
}, { shares: ['clock'], needs: ['jobs'] });

defineCheck('WEBHOOK-004', async (ctx) => {
  const r = await receiver(ctx, [200]);
  await jobWithWebhook(ctx, r, { durationMs: 100 });
  await r.waitForCalls(1, SETTLE_MS);
  await ctx.pass(60_000); // any retry would be due by now
  await r.waitForCalls(2, 200);
  expectEqual(r.calls.length, 1, 'webhook calls to a receiver answering 200');
}, { shares: ['clock'], needs: ['jobs'], realWaitMs: 60_000 });

defineCheck('WEBHOOK-005', async (ctx) => {
  const retries = ctx.value<number>('webhookRetries');
  const interval = ctx.value<number>('webhookRetryIntervalMs');
  // Failing receiver: exactly 1 + retries attempts, interval apart.
  const failing = await receiver(ctx, [500]);
  await jobWithWebhook(ctx, failing, { durationMs: 100 });
  await failing.waitForCalls(1, SETTLE_MS);
  const times: number[] = [];
  const counts: number[] = [failing.calls.length];
  for (let n = 1; n <= retries; n++) {
    await ctx.pass(interval - 1_000);
    counts.push(failing.calls.length);
    expectEqual(failing.calls.length, n, `attempts ${n * interval - 1000} ms after the first (no early retry)`);
    await ctx.pass(1_000);
    await failing.waitForCalls(n + 1, ctx.controlled ? SETTLE_MS : 5_000);
    expectEqual(failing.calls.length, n + 1, `attempts ${n * interval} ms after the first`);
    times.push(failing.calls[n]!.receivedAt - failing.calls[n - 1]!.receivedAt);
  }
  await ctx.pass(interval * 3);
  await failing.waitForCalls(retries + 2, 200);
  expectEqual(failing.calls.length, 1 + retries, 'attempts to a receiver that always fails');
  // Flaky receiver: 500 then 200 — deliveries stop after the first 200.
  const flaky = await receiver(ctx, [500, 200]);
  await jobWithWebhook(ctx, flaky, { durationMs: 100 });
  await flaky.waitForCalls(1, SETTLE_MS);
  await ctx.pass(interval);
  await flaky.waitForCalls(2, SETTLE_MS);
  await ctx.pass(interval * 3);
  await flaky.waitForCalls(3, 200);
  expectEqual(flaky.calls.length, 2, 'attempts to a receiver answering 500 then 200');
  if (!ctx.controlled) {
    for (const gap of times) expect(Math.abs(gap - interval) <= 2_000, `retry gap ${gap} ms, expected ${interval} ± 2000 ms`);
  }
}, { shares: ['clock'], needs: ['jobs'], realWaitMs: 70_000 });
