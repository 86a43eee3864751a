// `/openai/*` as RunPod's vLLM workers serve it: the request goes to the endpoint's worker as the job input
// `{openai_route, openai_input}` (the vLLM worker's contract), and its answer is framed as OpenAI's API
// (frame.ts). The worker is the endpoint's simulated worker, the LLM built-in by default.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type MockCore, type Reply, type RequestContext } from '../../core.js';
import { DEFAULT_EXECUTION_TIMEOUT_MS } from '../../jobs/engine.js';
import { BUILTIN_WORKERS } from '../builtins.js';
import { workerEnvOf } from '../env.js';
import type { HandlerRun, RunOutcome } from '../handler-run.js';
import { publicEndpointOfKey } from '../public-endpoints.js';
import { stubDirective } from '../stubs.js';
import type { WorkerHandler } from '../types.js';
import { directiveHandler } from './directive-handler.js';
import { OpenAiFrame, pieces, textOf, type OpenAiRoute } from './frame.js';

const ROUTES: Record<string, OpenAiRoute> = { 'v1/chat/completions': 'chat', 'v1/completions': 'completions' };
/** The model a worker serves when its environment names none (vLLM worker: MODEL_NAME, OPENAI_SERVED_MODEL_NAME_OVERRIDE). */
export const DEFAULT_SERVED_MODEL = 'mock-model';

/** POST /openai/{openaiPath}. */
export function answerOpenAiPost(core: MockCore, ctx: RequestContext): Reply | Promise<Reply> {
  const path = (ctx.params['openaiPath'] ?? '').replace(/^\/+|\/+$/g, '');
  const route = ROUTES[path];
  const request = (ctx.body ?? {}) as Record<string, unknown>;
  const endpointId = ctx.params['endpointId']!;
  const handler = handlerOf(core, endpointId);
  const run = core.workers.run(handler, { id: `openai-${randomUUID()}`, input: { openai_route: `/${path}`, openai_input: request } }, endpointId);
  const outcome = within(core, endpointId, run);
  const frame = route && new OpenAiFrame(route, request, Math.floor(core.clock.now() / 1000), {
    noDone: core.options.faults.has('openai-stream-no-done'),
    usageZeroed: core.options.faults.has('openai-usage-zeroed'),
  });
  if (frame && request['stream'] === true) return { status: 200, stream: (res) => streamAnswer(run, outcome, frame, res) };
  return outcome.then((result) => wholeAnswer(result, frame, path));
}

/** GET /openai/{openaiPath}: `v1/models` lists the model the endpoint's workers serve. */
export function answerOpenAiGet(core: MockCore, ctx: RequestContext): Reply {
  const path = (ctx.params['openaiPath'] ?? '').replace(/^\/+|\/+$/g, '');
  // Other GET routes of a vLLM server (health, version…) are answered with an echo by the simulated worker.
  if (path !== 'v1/models') return { status: 200, body: { object: 'mock', route: `/${path}` } };
  const endpointId = ctx.params['endpointId']!;
  const store = core.accounts.storeOf('endpoints', endpointId);
  const env = store ? workerEnvOf(store, endpointId) : {};
  const id = publicEndpointOfKey(endpointId)?.modelName || env['OPENAI_SERVED_MODEL_NAME_OVERRIDE'] || env['MODEL_NAME'] || DEFAULT_SERVED_MODEL;
  const created = Math.floor(core.clock.now() / 1000);
  return { status: 200, body: { object: 'list', data: [{ id, object: 'model', created, owned_by: 'vllm', root: id, parent: null }] } };
}

/** The ErrorBody plus OpenAI's `error` object, which OpenAI clients read the message from. */
function workerError(status: number, message: string): Reply {
  const type = status === 404 ? 'NotFoundError' : 'InternalServerError';
  return { status, body: { message, error: { message, type, code: status } } };
}

function handlerOf(core: MockCore, endpointId: string): WorkerHandler {
  const worker = core.workers.workerOf(endpointId);
  if (!worker) return BUILTIN_WORKERS['llm']!;
  if (worker.kind === 'handler') return worker.handler;
  // A worker process speaks the queue protocol only; /openai/* of its endpoint is the built-in stand-in (docs/workers.md).
  if (worker.kind === 'process') return BUILTIN_WORKERS['llm']!;
  const rules = worker.rules;
  return (job, context) => {
    const directive = stubDirective(rules, job.input, core.options.jobDurationMs);
    if (!directive) throw new Error('no stub rule matches the input (and no default rule is given)');
    return directiveHandler(directive)(job, context);
  };
}

/** The run's outcome, or a failure once the endpoint's execution timeout passes (the run is then cut). */
function within(core: MockCore, endpointId: string, run: HandlerRun): Promise<RunOutcome> {
  const budget = core.accounts.storeOf('endpoints', endpointId)?.endpoints.peek(endpointId)?.['executionTimeoutMs'];
  const ms = typeof budget === 'number' ? budget : DEFAULT_EXECUTION_TIMEOUT_MS;
  return new Promise((resolve) => {
    const timer = core.clock.after(ms, () => {
      run.abort(`executionTimeout of ${ms} ms exceeded`);
      resolve({ status: 'FAILED', error: `executionTimeout of ${ms} ms exceeded` });
    });
    void run.done.then((outcome) => {
      core.clock.cancel(timer);
      resolve(outcome);
    });
  });
}

function wholeAnswer(outcome: RunOutcome, frame: OpenAiFrame | undefined, path: string): Reply {
  if (outcome.status === 'FAILED') return workerError(500, `the worker failed: ${outcome.error}`);
  const output = outcome.output;
  const text = textOf(output) ?? (Array.isArray(output) && output.every((c) => typeof c === 'string') ? output.join('') : undefined);
  if (text !== undefined) return frame ? { status: 200, body: frame.completion(text) } : workerError(404, `the worker's OpenAI-compatible server has no route POST /${path}`);
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) return { status: 200, body: output };
  return workerError(500, 'the worker answered neither a text nor an OpenAI-shaped object');
}

/** Writes each chunk as the worker yields it; a text answer is streamed word by word at the end. */
async function streamAnswer(run: HandlerRun, outcome: Promise<RunOutcome>, frame: OpenAiFrame, res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  // The head goes out at once: a client sees the stream open before the worker's first chunk.
  res.flushHeaders();
  res.once('close', () => run.abort('the client closed the stream'));
  let streamed = 0;
  const write = (chunk: unknown) => {
    streamed++;
    res.write(typeof chunk === 'string' ? frame.delta(chunk) : frame.raw(chunk));
  };
  for (const chunk of run.chunks) write(chunk);
  run.onChunk = write;
  const result = await outcome;
  run.onChunk = undefined;
  if (result.status === 'FAILED') {
    res.end(frame.error(result.error));
    return;
  }
  const text = streamed === 0 ? textOf(result.output) : undefined;
  if (text !== undefined) for (const piece of pieces(text)) res.write(frame.delta(piece));
  else if (streamed === 0 && typeof result.output === 'object' && result.output !== null) res.write(frame.raw(result.output));
  res.end(frame.end());
}
