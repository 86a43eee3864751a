// The conformance handler as a worker process runs it (`compute-contract worker --handler conformance`): the
// `input.mock` protocol of docs/mock.md, decided by the same code the mock's simulated worker uses (simulate.ts).
import type { Job } from '../types.js';
import { outcomeOf, readDirective } from '../jobs/simulate.js';
import type { WorkerHandler } from '../simulated-workers/types.js';

/** A job without `input.mock.durationMs` takes this long (the mock's default job duration). */
const DEFAULT_DURATION_MS = 50;
/** Attempts remembered per job id (failTimes); the oldest are forgotten past this many. */
const MAX_REMEMBERED_JOBS = 10_000;

/**
 * Attempts are counted per job id in this process: a retried job that lands on another worker process counts
 * from 1 again there (failTimes is exact with one worker, as the suite's endpoints have).
 */
export function conformanceHandler(exit: (code: number) => never = (code) => process.exit(code)): WorkerHandler {
  const attempts = new Map<string, number>();
  return (job, context) => {
    const attempt = (attempts.get(job.id) ?? 0) + 1;
    attempts.delete(job.id);
    attempts.set(job.id, attempt);
    if (attempts.size > MAX_REMEMBERED_JOBS) attempts.delete(attempts.keys().next().value!);
    const directive = readDirective(job.input, DEFAULT_DURATION_MS);
    if (typeof directive === 'string') throw new Error(directive);
    // A crash is the process's: it exits mid-job, and the queue ends the job as a crashed worker's.
    if (directive.crash) return context.sleep(directive.durationMs).then(() => exit(70));
    const record = job as unknown as Job;
    if (directive.stream && !('output' in directive) && directive.error === undefined && directive.failTimes === undefined) {
      const chunks = directive.stream;
      const step = chunks.length > 0 ? directive.durationMs / chunks.length : 0;
      return (async function* () {
        for (const chunk of chunks) {
          await context.sleep(step);
          yield chunk;
        }
      })();
    }
    const settle = () => {
      const outcome = outcomeOf(record, directive, attempt, process.env as Record<string, string>);
      if (outcome.status === 'FAILED') return { error: outcome.error };
      return outcome.output;
    };
    // A no-op job answers at once: a zero sleep would still wait for a timer turn (≥ 1 ms on the real clock).
    return directive.durationMs > 0 ? context.sleep(directive.durationMs).then(settle) : settle();
  };
}
