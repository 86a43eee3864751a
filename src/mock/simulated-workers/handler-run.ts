// One run of a handler function under RunPod's contract. Whatever the handler does (throws, rejects, returns
// something unserialisable or too large, never returns), the outcome is the job's, never the mock's.
import type { Clock, TimerHandle } from '../clock.js';
import { MAX_CHUNK_BYTES, MAX_OUTPUT_BYTES, MAX_STREAM_CHUNKS, type WorkerHandler } from './types.js';
import { cloneJsonInTurns, needsTurns, parseJsonInTurns, writeJsonInTurns } from '../json-in-turns.js';
import { nextTurn } from '../turns.js';

/** Stream chunks taken from a handler per event-loop turn (a generator that never waits would hold the loop). */
const CHUNKS_PER_TURN = 64;

/** `outputText`: a large output's JSON, already written out in slices (the --state journal reuses it). */
export type RunOutcome = { status: 'COMPLETED'; output: unknown; outputText?: string } | { status: 'FAILED'; error: string };

export interface HandlerRun {
  /** Chunks yielded so far (a generator handler). */
  readonly chunks: unknown[];
  /** Settles once the handler is done (never rejects). */
  readonly done: Promise<RunOutcome>;
  /** Called after each chunk is yielded (the /openai stream writes it out at once). */
  onChunk?: (chunk: unknown) => void;
  /** Cuts the run (time budget, cancel): its signal aborts and its pending sleeps reject. */
  abort(reason: string): void;
}

export function runHandler(handler: WorkerHandler, job: { id: string; input: Record<string, unknown> }, endpointId: string, clock: Clock): HandlerRun {
  const controller = new AbortController();
  const sleeps = new Set<{ timer: TimerHandle; reject: (e: Error) => void }>();
  const context = {
    endpointId,
    now: () => clock.now(),
    signal: controller.signal,
    sleep(ms: number): Promise<void> {
      if (controller.signal.aborted) return Promise.reject(new Error(String(controller.signal.reason)));
      const wait = Number.isFinite(ms) && ms > 0 ? ms : 0;
      return new Promise<void>((resolve, reject) => {
        const entry = { timer: clock.after(wait, () => (sleeps.delete(entry), resolve())), reject };
        sleeps.add(entry);
      });
    },
  };
  const run: HandlerRun = {
    chunks: [],
    done: undefined as unknown as Promise<RunOutcome>,
    abort(reason) {
      if (controller.signal.aborted) return;
      controller.abort(reason);
      for (const entry of sleeps) {
        clock.cancel(entry.timer);
        entry.reject(new Error(reason));
      }
      sleeps.clear();
    },
  };
  // A large input (up to /runsync's 20 MB) is copied a slice per turn (json-in-turns.ts).
  (run as { done: Promise<RunOutcome> }).done = needsTurns(job.input)
    ? cloneJsonInTurns(job.input, run).then((input) => execute(handler, { id: job.id, input }, context, run))
    : execute(handler, { id: job.id, input: structuredClone(job.input) }, context, run);
  return run;
}

async function execute(handler: WorkerHandler, job: { id: string; input: Record<string, unknown> }, context: Parameters<WorkerHandler>[1], run: HandlerRun): Promise<RunOutcome> {
  try {
    const result = handler(job, context);
    if (isAsyncIterable(result)) {
      for await (const chunk of result) {
        if (context.signal.aborted) return { status: 'FAILED', error: String(context.signal.reason) };
        const problem = chunkProblem(chunk, run.chunks.length);
        if (problem) return { status: 'FAILED', error: problem };
        run.chunks.push(chunk);
        run.onChunk?.(chunk);
        if (run.chunks.length % CHUNKS_PER_TURN === 0) await nextTurn(run);
      }
      return await settle(run.chunks, run);
    }
    return await settle(await result, run);
  } catch (error) {
    return { status: 'FAILED', error: messageOf(error) };
  }
}

/** The returned value as the job's output; runpod-python turns a returned `{error}` into a failed job. */
function settle(output: unknown, run: object): RunOutcome | Promise<RunOutcome> {
  if (typeof output === 'object' && output !== null && !Array.isArray(output) && Object.hasOwn(output, 'error')) {
    const error = (output as { error: unknown }).error;
    return { status: 'FAILED', error: typeof error === 'string' ? error : safeJson(error) ?? String(error) };
  }
  if (needsTurns(output)) return settleLarge(output, run);
  const size = jsonBytes(output);
  if (size === undefined) return { status: 'FAILED', error: 'handler output is not JSON-serialisable' };
  if (size > MAX_OUTPUT_BYTES) return { status: 'FAILED', error: `handler output of ${size} bytes exceeds the result limit of ${MAX_OUTPUT_BYTES} bytes` };
  return { status: 'COMPLETED', output: output === undefined ? null : JSON.parse(safeJson(output) ?? 'null') };
}

/** settle() for an output too large for one turn: measured and copied a slice per turn. */
async function settleLarge(output: unknown, run: object): Promise<RunOutcome> {
  const pieces: string[] = [];
  let size = 0;
  try {
    await writeJsonInTurns(output, (text) => {
      size += Buffer.byteLength(text);
      if (size <= MAX_OUTPUT_BYTES) pieces.push(text);
    }, run);
  } catch {
    return { status: 'FAILED', error: 'handler output is not JSON-serialisable' };
  }
  if (size > MAX_OUTPUT_BYTES) return { status: 'FAILED', error: `handler output of ${size} bytes exceeds the result limit of ${MAX_OUTPUT_BYTES} bytes` };
  const outputText = pieces.join('');
  return { status: 'COMPLETED', output: await parseJsonInTurns(outputText, run), outputText };
}

function chunkProblem(chunk: unknown, already: number): string | undefined {
  if (already >= MAX_STREAM_CHUNKS) return `handler streamed more than ${MAX_STREAM_CHUNKS} chunks`;
  const size = jsonBytes(chunk);
  if (size === undefined) return `stream chunk ${already + 1} is not JSON-serialisable`;
  if (size > MAX_CHUNK_BYTES) return `stream chunk ${already + 1} of ${size} bytes exceeds the chunk limit of ${MAX_CHUNK_BYTES} bytes`;
  return undefined;
}

function jsonBytes(value: unknown): number | undefined {
  const text = value === undefined ? 'null' : safeJson(value);
  return text === undefined ? undefined : Buffer.byteLength(text);
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return safeJson(error) ?? String(error);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}
