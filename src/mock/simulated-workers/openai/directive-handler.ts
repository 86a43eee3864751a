// A stub rule's directive run as a handler (for /openai/*): chunks spread evenly over durationMs on the mock's
// clock, then the output, or the error thrown.
import type { MockDirective } from '../../jobs/simulate.js';
import type { WorkerContext, WorkerHandler, WorkerJob } from '../types.js';

export function directiveHandler(directive: MockDirective): WorkerHandler {
  if (directive.stream) {
    const chunks = directive.stream;
    return async function* (_job: WorkerJob, context: WorkerContext) {
      const started = context.now();
      for (let k = 1; k <= chunks.length; k++) {
        // Chunk k is due at ceil(k × duration / n), as /stream hands out a stub's chunks (simulate.ts availableChunks).
        const due = started + Math.ceil((k * directive.durationMs) / chunks.length);
        if (due > context.now()) await context.sleep(due - context.now());
        yield chunks[k - 1];
      }
      if (directive.error !== undefined) throw new Error(typeof directive.error === 'string' ? directive.error : JSON.stringify(directive.error));
    };
  }
  return async (job: WorkerJob, context: WorkerContext) => {
    if (directive.durationMs > 0) await context.sleep(directive.durationMs);
    if (directive.error !== undefined) throw new Error(typeof directive.error === 'string' ? directive.error : JSON.stringify(directive.error));
    return 'output' in directive ? directive.output : { echo: job.input };
  };
}
