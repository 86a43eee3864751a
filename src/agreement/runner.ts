// The agreement phase: for every operation of every surface, seeded spec-valid requests and
// single-point violations are sent to a target and judged. Collects every failure (operation,
// request, seed) instead of stopping at the first, and counts what must never happen.
import fc from 'fast-check';
import { Fixtures } from './fixtures.js';
import { loadGraphqlOperations } from './graphql-model.js';
import { judgeInvalid, judgeValid } from './judge.js';
import { NameBook } from './names.js';
import { namesUnknownReference } from './references.js';
import { invalidSeedArbitrary, pickViolation, validCaseArbitrary, type GenerationContext, type InvalidCase, type RequestCase } from './requests.js';
import { describeRequest, secretValues } from './describe.js';
import { DistinctSamples } from './distinct-samples.js';
import { schemaArbitrary } from './schema-arbitrary.js';
import { loadOpenApiOperations, type OperationModel } from './spec-model.js';
import type { Schema } from './schema.js';
import { Transport, type AgreementTarget, type Outcome } from './transport.js';
import { REQUEST_CONDITIONS, type RefusalCondition } from './allow-list.js';
import { REST_V2_CONDITIONS } from './allow-list-rest-v2.js';

export type Phase = 'valid' | 'invalid';

export interface AgreementOptions {
  seed: number;
  /** Generated requests per operation and phase (or totals, spread over the operations). */
  validRuns?: number;
  invalidRuns?: number;
  validTotal?: number;
  invalidTotal?: number;
  /** Observe before/after every refused write that nothing was stored (2 extra reads each). */
  checkStorage?: boolean;
  /** Only these operationIds (reproduction). */
  operations?: readonly string[];
  /** Stop generating after this much wall time (ms); the report says so. */
  deadlineMs?: number;
  workerImage?: string;
  webhookUrl?: string;
  /** REST v2 answers must carry RateLimit headers (default true; false for a mock started without quotas). */
  rateLimitHeaders?: boolean;
  /** Registers a secret value the run sends (conformance: its SecretBook). */
  onSecret?: (value: string) => void;
  log?: (line: string) => void;
}

export interface AgreementFailure {
  phase: Phase;
  surface: string;
  operationId: string;
  request: string;
  problem: string;
  seed: number;
  index: number;
}

export interface AgreementReport {
  seed: number;
  requests: { valid: number; invalid: number; total: number };
  /** Every HTTP call, including setup, observation and cleanup. */
  httpCalls: number;
  statuses: Record<string, number>;
  serverErrors: number;
  dropped: number;
  timeouts: number;
  rateLimitedRetries: number;
  allowed: Record<string, number>;
  failures: AgreementFailure[];
  operations: number;
  /** Operations without any input: no invalid request exists for them. */
  withoutInputs: string[];
  /** Generated invalid requests whose base had no input to break (e.g. every optional parameter left out). */
  noViolation: number;
  leftOver: string[];
  stoppedEarly: boolean;
  wallMs: number;
  /** The five slowest operation phases [name, ms]. */
  slowest: [string, number][];
}

export function allOperations(): OperationModel[] {
  return [...loadOpenApiOperations('restV1'), ...loadOpenApiOperations('queueV2'), ...loadGraphqlOperations(), ...loadOpenApiOperations('restV2')];
}

const RESERVED_KEYS = ['mock'];
const DEFAULT_WORKER_IMAGE = 'compute-contract/conformance-worker:1';

export async function runAgreement(target: AgreementTarget, options: AgreementOptions): Promise<AgreementReport> {
  const started = Date.now();
  const transport = new Transport(target);
  const secrets: string[] = [];
  const addSecret = (value: string) => {
    secrets.push(value);
    options.onSecret?.(value);
  };
  const fixtures = new Fixtures(transport, { workerImage: options.workerImage ?? DEFAULT_WORKER_IMAGE, secret: addSecret });
  // The operations of the surfaces the target gives (REST v1 retired: REST v2, queue v2, GraphQL); an operation
  // filter may name `restV2:createPod` (ids repeat across surfaces).
  const ops = allOperations().filter((op) => surfaceGiven(target, op.surface)
    && (!options.operations || options.operations.includes(op.operationId) || options.operations.includes(`${op.surface}:${op.operationId}`)));
  const report: AgreementReport = {
    seed: options.seed, requests: { valid: 0, invalid: 0, total: 0 }, httpCalls: 0, statuses: {}, serverErrors: 0, dropped: 0,
    timeouts: 0, rateLimitedRetries: 0, allowed: {}, failures: [], operations: ops.length,
    withoutInputs: ops.filter((op) => op.params.length === 0 && !op.body).map((op) => op.operationId), noViolation: 0, leftOver: [], stoppedEarly: false, wallMs: 0, slowest: [],
  };
  const ctx = generationContext(fixtures, options.webhookUrl);
  const names = new NameBook();
  const deadline = started + (options.deadlineMs ?? Infinity);
  // An operation's arbitrary of valid requests serves both phases (building one costs more than a few draws).
  const validArbitraries = new Map<OperationModel, fc.Arbitrary<RequestCase>>();
  const validOf = (op: OperationModel) => {
    let arbitrary = validArbitraries.get(op);
    if (!arbitrary) validArbitraries.set(op, (arbitrary = validCaseArbitrary(op, ctx)));
    return arbitrary;
  };
  try {
    await fixtures.setup();
    for (const phase of ['valid', 'invalid'] as const) {
      const fuzzable = phase === 'valid' ? ops : ops.filter((op) => op.params.length > 0 || op.body);
      for (const [i, op] of fuzzable.entries()) {
        const runs = runsFor(options, phase, i, fuzzable.length);
        if (runs === 0) continue;
        const seed = operationSeed(options.seed, op, phase);
        // Invalid: spare draws, since a base may have nothing to break or name an unknown id (see runOne).
        const cases = phase === 'valid'
          ? fc.sample(validOf(op), { seed, numRuns: runs }).map((base) => ({ base, choice: -1 }))
          : draws(invalidSeedArbitrary(op, ctx, validOf(op)), seed, runs + SPARE_FIRST, 2 * runs + 4);
        const opStarted = Date.now();
        let sent = 0;
        // Asked for the next draw only while more are to be sent (a spare draw not needed is not made).
        const drawn = cases[Symbol.iterator]();
        for (let index = 0; sent < runs; index++) {
          const next = drawn.next();
          if (next.done) break;
          const generated = next.value;
          if (Date.now() > deadline) {
            report.stoppedEarly = true;
            break;
          }
          if (await runOne(phase, generated.base, generated.choice, index, seed)) sent++;
        }
        const key = `${phase} ${op.operationId}`;
        report.slowest.push([key, Date.now() - opStarted]);
        report.slowest = report.slowest.sort((a, b) => b[1] - a[1]).slice(0, 5);
      }
    }
  } finally {
    report.leftOver = await fixtures.cleanup().catch((e: Error) => [`cleanup failed: ${e.message}`]);
    report.httpCalls = transport.requests;
    report.rateLimitedRetries = transport.rateLimited;
    report.wallMs = Date.now() - started;
  }
  return report;

  /** Sends one generated request and judges it; false when an invalid draw had nothing to break. */
  async function runOne(phase: Phase, generated: RequestCase, choice: number, index: number, seed: number): Promise<boolean> {
    // A single-point violation needs a base the server would accept: no unknown ids in it.
    if (phase === 'invalid' && namesUnknownReference(generated.op, generated.path, generated.body)) return false;
    const resolved = await fixtures.resolve(generated);
    const c = phase === 'valid' ? resolved : pickViolation(resolved, choice, ctx);
    if (!c) {
      report.noViolation++;
      return false;
    }
    const sent = [...secrets, ...secretValues(c)];
    const endpointId = fixtures.endpointFor(c, phase);
    const observe = phase === 'invalid' && options.checkStorage ? () => fixtures.observe(c) : undefined;
    const before = await observe?.();
    const outcome = await transport.send(c, endpointId);
    count(outcome);
    report.requests[phase]++;
    report.requests.total++;
    const conditions = conditionsOf(generated);
    if (names.isTaken(c)) conditions.add('name-taken');
    const judging = { rateLimitHeaders: options.rateLimitHeaders !== false };
    let verdict = phase === 'valid'
      ? judgeValid(c, outcome, conditions, sent, undefined, judging)
      : judgeInvalid(c as InvalidCase, outcome, sent, judging);
    if (verdict.ok && observe && before !== undefined) {
      const after = await observe();
      if (after !== before) verdict = { ok: false, problem: `refused request changed stored state (${(c as InvalidCase).violation.pointer})` };
    }
    if (outcome.kind === 'answer') {
      fixtures.record(c, outcome.answer);
      names.record(c, outcome.answer);
    }
    if (verdict.ok && verdict.allowedBy) report.allowed[verdict.allowedBy] = (report.allowed[verdict.allowedBy] ?? 0) + 1;
    if (!verdict.ok) {
      const failure: AgreementFailure = {
        phase, surface: c.op.surface, operationId: c.op.operationId, request: describeRequest(c, endpointId, sent), problem: verdict.problem, seed, index,
      };
      report.failures.push(failure);
      options.log?.(`FAIL ${phase} ${c.op.operationId}: ${failure.problem}\n     ${failure.request} (seed ${seed}, case ${index})`);
    }
    return true;
  }

  function count(outcome: Outcome): void {
    if (outcome.kind === 'dropped') report.dropped++;
    else if (outcome.kind === 'timeout') report.timeouts++;
    else if (outcome.kind === 'answer') {
      const key = String(outcome.answer.status);
      report.statuses[key] = (report.statuses[key] ?? 0) + 1;
      if (outcome.answer.status >= 500) report.serverErrors++;
    }
  }
}

/** Spare invalid draws made with the first batch; most operations need no more (see `draws`). */
const SPARE_FIRST = 2;

/**
 * The draws of fc.sample(arbitrary, { seed, numRuns: total }) in order, the first `first` of them made alone
 * and the rest only when asked for: fast-check's draws are prefix-stable (draw i depends on the seed and i
 * alone), so the values are those of the one sample of `total`, and the spare draws an operation does not
 * use (a base naming an unknown id, or with nothing to break) are not generated.
 */
function* draws<T>(arbitrary: fc.Arbitrary<T>, seed: number, first: number, total: number): Generator<T> {
  const head = fc.sample(arbitrary, { seed, numRuns: Math.min(first, total) });
  yield* head;
  if (head.length < total) yield* fc.sample(arbitrary, { seed, numRuns: total }).slice(head.length);
}

/** Whether the target gives the surface an operation belongs to. */
export function surfaceGiven(target: AgreementTarget, surface: OperationModel['surface']): boolean {
  if (surface === 'restV1') return target.restUrl !== undefined;
  if (surface === 'restV2') return target.restV2Url !== undefined;
  if (surface === 'graphql') return target.graphqlUrl !== undefined;
  return true;
}

function conditionsOf(c: RequestCase): Set<RefusalCondition> {
  const conditions = new Set<RefusalCondition>();
  if (namesUnknownReference(c.op, c.path, c.body)) conditions.add('unknown-reference');
  if (c.path['jobId'] !== undefined) conditions.add('job-state');
  const body = c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Record<string, unknown>) : undefined;
  for (const [name, test] of Object.entries(REQUEST_CONDITIONS)) if (test(body)) conditions.add(name as RefusalCondition);
  if (c.op.surface === 'restV2') for (const [name, test] of Object.entries(REST_V2_CONDITIONS)) if (test(c.query, body)) conditions.add(name as RefusalCondition);
  if (c.op.graphql?.nullableVariables.some((v) => body?.[v] === undefined || body[v] === null)) conditions.add('null-variable');
  return conditions;
}

function runsFor(o: AgreementOptions, phase: Phase, index: number, count: number): number {
  const total = phase === 'valid' ? o.validTotal : o.invalidTotal;
  if (total === undefined) return (phase === 'valid' ? o.validRuns : o.invalidRuns) ?? 10;
  return Math.floor(total / count) + (index < total % count ? 1 : 0);
}

/** One seed per operation and phase, so a failure reproduces with --seed and the operation alone. */
export function operationSeed(seed: number, op: OperationModel, phase: Phase): number {
  let h = seed | 0;
  for (const ch of `${op.surface}:${op.operationId}:${phase}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

/**
 * Distinct valid samples per schema, kept for the process: they depend on the schema alone (a fixed seed, no
 * run-specific override; a schema object belongs to one document, hence one resolver), so every run and every
 * operation shares them instead of drawing them anew (a maxItems of hundreds draws hundreds of values).
 */
const SAMPLES = new WeakMap<Schema, DistinctSamples>();

function generationContext(fixtures: Fixtures, webhookUrl: string | undefined): GenerationContext {
  let n = 0;
  const samples = SAMPLES;
  return {
    reservedKeys: RESERVED_KEYS,
    ...(webhookUrl ? { webhookUrl } : {}),
    unique: (value, maxLength) => {
      const suffix = `-${fixtures.tag}${(++n).toString(36)}`;
      const room = Math.max(0, (maxLength ?? Infinity) - suffix.length);
      return `${[...value].slice(0, room).join('')}${suffix}`;
    },
    sample: (schema, op, index) => {
      let drawn = samples.get(schema);
      if (!drawn) {
        drawn = new DistinctSamples(schemaArbitrary(schema, { resolve: op.resolve, reservedKeys: RESERVED_KEYS }));
        samples.set(schema, drawn);
      }
      return drawn.at(index);
    },
  };
}
