// Boundary and negative inputs from the spec constraints (min−1, min, max, max+1, wrong type),
// plus fast-check samples beyond the bounds with a fixed seed and shrinking: QUEUE-TTL-001/002,
// QUEUE-EXEC-001/002. A refused submission must leave no job behind.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { defineCheck } from '../../src/conform/registry.js';
import { CheckFailure } from '../../src/conform/http.js';
import { expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { packageFile } from '../../src/contract/package-files.js';

type Field = 'ttl' | 'executionTimeout';

/** The documented range of a JobPolicy field, for the valid samples (the rule pins one bound). */
function specRange(field: Field): { min: number; max: number } {
  const doc = JSON.parse(readFileSync(packageFile('generated/queue-v2/openapi.json'), 'utf8'));
  const prop = doc.components.schemas.JobPolicy.properties[field] as { minimum: number; maximum: number };
  return { min: prop.minimum, max: prop.maximum };
}

async function boundaryCheck(ctx: Ctx, field: Field, bound: { min?: number; max?: number }): Promise<string> {
  // No worker: accepted /run jobs stay queued and can be counted; /runsync gets its own endpoint.
  const endpointId = await ctx.endpoint({ workersMax: 0 });
  const syncEndpoint = await ctx.endpoint({ workersMax: 1 });
  let accepted = 0;
  let syncAccepted = 0;
  const submit = async (value: unknown, op: 'runJob' | 'runJobSync') => {
    const body = { input: { mock: { durationMs: 0 } }, policy: { [field]: value } };
    return op === 'runJob'
      ? ctx.queue(endpointId, op, { body })
      : ctx.queue(syncEndpoint, op, { body, query: { wait: 5000 } });
  };
  const expectOutcome = async (value: unknown, valid: boolean) => {
    for (const op of ['runJob', 'runJobSync'] as const) {
      const answer = await submit(value, op);
      expectStatus(answer, valid ? 200 : 400, `${op} policy.${field}=${JSON.stringify(value)}`);
      if (valid && op === 'runJob') accepted++;
      if (valid && op === 'runJobSync') syncAccepted++;
    }
  };
  const fixed: [unknown, boolean][] = [];
  if (bound.min !== undefined) fixed.push([bound.min - 1, false], [bound.min, true]);
  if (bound.max !== undefined) fixed.push([bound.max, true], [bound.max + 1, false]);
  fixed.push([String(bound.min ?? bound.max), false], [(bound.min ?? bound.max!) + 0.5, false], [null, false]);
  for (const [value, valid] of fixed) await expectOutcome(value, valid);

  // Generated values beyond the bound: every one must be refused; a counterexample is shrunk.
  const outside = bound.min !== undefined ? fc.integer({ min: -(2 ** 31), max: bound.min - 1 }) : fc.integer({ min: bound.max! + 1, max: 2 ** 42 });
  const range = specRange(field);
  const inside = fc.integer({ min: bound.min ?? range.min, max: bound.max ?? range.max });
  const run = async (arb: fc.Arbitrary<number>, valid: boolean) => {
    try {
      await fc.assert(fc.asyncProperty(arb, async (v) => {
        const answer = await submit(v, 'runJob');
        if (answer.status !== (valid ? 200 : 400)) throw new Error(`policy.${field}=${v} → ${answer.status}`);
        if (valid) accepted++;
      }), { seed: ctx.settings.seed, numRuns: 6, endOnFailure: false });
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
      throw new CheckFailure(`fast-check (seed ${ctx.settings.seed}): ${message}`);
    }
  };
  await run(outside, false);
  await run(inside, true);
  const health = await ctx.queue(endpointId, 'getHealth');
  expectEqual(health.body.jobs.inQueue, accepted, 'queued jobs = accepted submissions (refused ones left no job)');
  await ctx.pass(0);
  const syncHealth = (await ctx.queue(syncEndpoint, 'getHealth')).body.jobs;
  expectEqual(syncHealth.completed + syncHealth.inQueue + syncHealth.inProgress, syncAccepted, 'runsync jobs = accepted submissions');
  return `boundaries ${fixed.map(([v]) => JSON.stringify(v)).join(', ')} + 12 generated (seed ${ctx.settings.seed})`;
}

defineCheck('QUEUE-TTL-001', (ctx) => boundaryCheck(ctx, 'ttl', { min: ctx.value<number>('ttlMinMs') }), { needs: ['jobs'] });
defineCheck('QUEUE-TTL-002', (ctx) => boundaryCheck(ctx, 'ttl', { max: ctx.value<number>('ttlMaxMs') }), { needs: ['jobs'] });
defineCheck('QUEUE-EXEC-001', (ctx) => boundaryCheck(ctx, 'executionTimeout', { min: ctx.value<number>('executionTimeoutMinMs') }), { needs: ['jobs'] });
defineCheck('QUEUE-EXEC-002', (ctx) => boundaryCheck(ctx, 'executionTimeout', { max: ctx.value<number>('executionTimeoutMaxMs') }), { needs: ['jobs'] });
