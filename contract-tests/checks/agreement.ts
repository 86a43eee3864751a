// The property-based agreement phase as conformance rules against any target (src/agreement):
// AGREE-VALID-001 (spec-valid requests → documented 2xx or an allow-listed refusal),
// AGREE-INVALID-001 (single-point violations → 400 naming the path, nothing stored) and
// AGREE-ROBUST-001 (no 5xx, no dropped connection; embedded mock: heap back after GC), over the surfaces
// the target gives (REST v1, queue v2, GraphQL, REST v2; the service today: all but REST v1), with the
// fixtures made through REST v1 when given, else REST v2. The three rules judge ONE run (both phases, storage observed), started
// by whichever of them comes first: one fixture setup and one pass over the operations instead of three.
// Run size: --fuzz-runs (requests per operation and phase); the seed is the run's --seed.
import { checkAllowList, heapAfterGc, runAgreement, type AgreementOptions, type AgreementReport } from '../../src/agreement/index.js';
import { loadCatalogue } from '../../src/contract/catalogue.js';
import type { Ctx } from '../../src/conform/context.js';
import { CheckFailure } from '../../src/conform/http.js';
import { defineCheck, type CheckDefinition } from '../../src/conform/registry.js';

const DEFAULT_FUZZ_RUNS = 2;
// The valid and robustness phases send spec-valid /runsync requests, held up to their generated
// `wait` (≤ 5 min) unless the job finishes: they need jobs that finish ('jobs', proved by the
// preflight). Their transport bypasses the suite's Http, so this is declared by hand.
const TIMEOUT_MS = 120_000;
/**
 * Queue v2 and job progress always (the run submits jobs); every configured surface is fuzzed. The
 * fixtures are made through REST ('rest': REST v1 when given and working, else REST v2).
 */
const AGREE: Omit<CheckDefinition, 'id' | 'run'> = { needs: ['rest', 'queueV2', 'jobs'], everyConfiguredSurface: true, timeoutMs: TIMEOUT_MS };

interface SharedRun {
  report: AgreementReport;
  /** Heap after GC before the run (embedded mock only). */
  heapBefore: number;
}

/** One run per target of the conformance run (a --prove run per fault has its own target). */
const runs = new WeakMap<object, Promise<SharedRun>>();

function sharedRun(ctx: Ctx): Promise<SharedRun> {
  let pending = runs.get(ctx.target);
  if (!pending) {
    pending = (async () => {
      const heapBefore = ctx.target.embedded ? await heapAfterGc() : 0;
      const n = fuzzRuns(ctx);
      return { heapBefore, report: await run(ctx, { validRuns: n, invalidRuns: n, checkStorage: true }) };
    })();
    runs.set(ctx.target, pending);
  }
  return pending;
}

async function run(ctx: Ctx, sizes: Pick<AgreementOptions, 'validRuns' | 'invalidRuns' | 'checkStorage'>): Promise<AgreementReport> {
  const t = ctx.target;
  // REST v1 only when given and working (a retired one answers 410: REST v2 stands in); neither: skipped.
  const v1 = ctx.restSurface() === 'restV1';
  const report = await runAgreement(
    {
      queueUrl: ctx.baseUrl('queueV2'), apiKey: t.apiKey, ...(t.controlUrl ? { controlUrl: t.controlUrl } : {}), ...(t.controlToken ? { controlToken: t.controlToken } : {}),
      ...(v1 ? { restUrl: ctx.baseUrl('restV1') } : {}),
      ...(t.graphqlUrl !== undefined ? { graphqlUrl: ctx.baseUrl('graphql') } : {}),
      ...(t.restV2Url !== undefined ? { restV2Url: ctx.baseUrl('restV2') } : {}),
    },
    {
      seed: ctx.settings.seed,
      workerImage: t.workerImage,
      onSecret: (value) => ctx.http.secrets.add(value, 'agreement fixture secret'),
      deadlineMs: TIMEOUT_MS - 20_000,
      ...sizes,
    },
  );
  // Templates used by the run's endpoints stay undeletable for the documented delay: the suite deletes them later.
  for (const left of report.leftOver) {
    if (left.startsWith('template ')) await ctx.deleteTemplateEventually(left.slice('template '.length));
    else throw new CheckFailure(`the agreement run could not delete ${left}`);
  }
  return report;
}

function fuzzRuns(ctx: Ctx): number {
  return ctx.settings.fuzzRuns ?? DEFAULT_FUZZ_RUNS;
}

/** Failures of one phase (transport failures and 5xx belong to AGREE-ROBUST-001 as well). */
function failIfAny(report: AgreementReport, phase: 'valid' | 'invalid', what: string): void {
  const failures = report.failures.filter((f) => f.phase === phase);
  if (failures.length === 0) return;
  const first = failures.slice(0, 3).map((f) => `${f.surface} ${f.operationId}: ${f.problem} — ${f.request} (operation seed ${f.seed}, case ${f.index})`);
  throw new CheckFailure(`${failures.length} ${what} (seed ${report.seed}): ${first.join(' | ')}`);
}

function summary(report: AgreementReport, phase: 'valid' | 'invalid'): string {
  const allowed = Object.entries(report.allowed).map(([rule, n]) => `${rule}×${n}`).join(', ');
  return `${report.requests[phase]} generated ${phase} requests over ${report.operations} operations (seed ${report.seed})${allowed ? `; refusals allowed by ${allowed}` : ''}`;
}

defineCheck('AGREE-VALID-001', async (ctx) => {
  const problems = checkAllowList(loadCatalogue());
  if (problems.length) throw new CheckFailure(`agreement allow-list: ${problems.join('; ')}`);
  const { report } = await sharedRun(ctx);
  failIfAny(report, 'valid', 'spec-valid request(s) answered outside the spec');
  return summary(report, 'valid');
}, AGREE);

defineCheck('AGREE-INVALID-001', async (ctx) => {
  const { report } = await sharedRun(ctx);
  failIfAny(report, 'invalid', 'single-point violation(s) not refused as the spec says');
  return summary(report, 'invalid');
}, AGREE);

defineCheck('AGREE-ROBUST-001', async (ctx) => {
  const embedded = ctx.target.embedded !== undefined;
  const { report, heapBefore: before } = await sharedRun(ctx);
  const broken = { serverErrors: report.serverErrors, dropped: report.dropped, timeouts: report.timeouts };
  if (report.serverErrors + report.dropped + report.timeouts > 0) {
    const first = report.failures.filter((f) => /^(answered 5|connection dropped|no answer)/.test(f.problem)).slice(0, 3);
    throw new CheckFailure(`${JSON.stringify(broken)} (seed ${report.seed}): ${first.map((f) => `${f.operationId}: ${f.problem} — ${f.request}`).join(' | ')}`);
  }
  const note = `${report.requests.total} generated requests, no 5xx, no dropped connection, no timeout (seed ${report.seed})`;
  if (!embedded) return `${note}; heap not observable on a remote target`;
  const after = await heapAfterGc();
  const limit = before * (1 + ctx.value<number>('heapGrowthMax')) + ctx.value<number>('heapSlackBytes');
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  if (after > limit) throw new CheckFailure(`heap after GC grew from ${mb(before)} to ${mb(after)} MB over ${report.requests.total} requests (limit ${mb(limit)} MB)`);
  return `${note}; heap after GC ${mb(before)} → ${mb(after)} MB`;
}, AGREE);
