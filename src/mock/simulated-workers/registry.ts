// Which simulated worker runs an endpoint's jobs: the worker given for the endpoint's name (startMock option
// or --worker; stubs set through the control API take precedence), else the public endpoint's model stand-in,
// else the built-in its template's image names, else the default echo worker. A job's own `input.mock` always wins (the engine checks it first).
import type { Clock } from '../clock.js';
import type { MockDirective } from '../jobs/simulate.js';
import type { Job } from '../types.js';
import { builtinOfImage } from './builtins.js';
import { runHandler, type HandlerRun } from './handler-run.js';
import type { LoadedWorker } from './load.js';
import { stubDirective } from './stubs.js';
import type { StubRule, WorkerHandler } from './types.js';

export type WorkerPlan =
  | { kind: 'directive'; directive: MockDirective }
  | { kind: 'handler'; handler: WorkerHandler }
  /** The endpoint's workers are processes speaking the worker protocol: the job waits for one to take it. */
  | { kind: 'external' };

/** `--worker '*=…'`: the worker of every endpoint that has none of its own (named, public, built-in image). */
export const ANY_ENDPOINT = '*';

export interface EndpointFacts {
  name: string;
  imageName?: unknown;
  /** The worker the endpoint brings itself: a public endpoint's model stand-in (public-endpoints.ts). */
  handler?: WorkerHandler;
}

export interface WorkerView {
  name: string;
  kind: 'handler' | 'stubs' | 'process';
  source: string;
  rules?: number;
}

export class WorkerRegistry {
  private readonly fromControl = new Map<string, LoadedWorker>();
  /** Handler runs not yet settled (jobs and /openai requests): the control API steps the virtual clock for them. */
  private live = 0;

  constructor(
    private readonly fromOptions: ReadonlyMap<string, LoadedWorker>,
    private readonly clock: Clock,
    private readonly endpointFacts: (endpointId: string) => EndpointFacts | undefined,
    private readonly defaultDurationMs: () => number,
  ) {}

  get liveRuns(): number {
    return this.live;
  }

  /** The worker given for an endpoint name (control stubs first), or its template image's built-in. */
  workerOf(endpointId: string): LoadedWorker | undefined {
    const facts = this.endpointFacts(endpointId);
    if (!facts) return undefined;
    const named = this.fromControl.get(facts.name) ?? this.fromOptions.get(facts.name);
    if (named) return named;
    if (facts.handler) return { kind: 'handler', handler: facts.handler, source: `public:${facts.name}` };
    const any = this.fromControl.get(ANY_ENDPOINT) ?? this.fromOptions.get(ANY_ENDPOINT);
    if (any) return any;
    const builtin = builtinOfImage(facts.imageName);
    return builtin && { kind: 'handler', handler: builtin.handler, source: `builtin:${builtin.name}` };
  }

  /** How the endpoint's worker runs this job; undefined = the default echo worker. */
  planOf(job: Job): WorkerPlan | undefined {
    const worker = this.workerOf(job.endpointId);
    if (!worker) return undefined;
    if (worker.kind === 'handler') return { kind: 'handler', handler: worker.handler };
    if (worker.kind === 'process') return { kind: 'external' };
    const directive = stubDirective(worker.rules, job.input, this.defaultDurationMs());
    return { kind: 'directive', directive: directive ?? { durationMs: this.defaultDurationMs(), error: 'no stub rule matches the input (and no default rule is given)' } };
  }

  /** Runs a handler, counted as live until it settles. */
  run(handler: WorkerHandler, job: { id: string; input: Record<string, unknown> }, endpointId: string): HandlerRun {
    const run = runHandler(handler, job, endpointId, this.clock);
    this.live++;
    void run.done.finally(() => this.live--);
    return run;
  }

  setStubs(name: string, rules: StubRule[]): void {
    this.fromControl.set(name, { kind: 'stubs', rules, source: `control:${name}` });
  }

  removeStubs(name: string): boolean {
    return this.fromControl.delete(name);
  }

  /** Control stubs are forgotten (reset); workers given at start stay. */
  reset(): void {
    this.fromControl.clear();
  }

  /** The process command of the endpoint's workers, when they are processes. */
  processOf(endpointId: string): string | undefined {
    const worker = this.workerOf(endpointId);
    return worker?.kind === 'process' ? worker.command : undefined;
  }

  list(): WorkerView[] {
    const names = new Set([...this.fromOptions.keys(), ...this.fromControl.keys()]);
    return [...names].sort().map((name) => {
      const worker = (this.fromControl.get(name) ?? this.fromOptions.get(name))!;
      return { name, kind: worker.kind, source: worker.source, ...(worker.kind === 'stubs' ? { rules: worker.rules.length } : {}) };
    });
  }

  get size(): number {
    return this.fromControl.size + this.fromOptions.size;
  }
}
