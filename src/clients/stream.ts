/**
 * `/stream/{jobId}` as an async iterator. The service only offers polling and each read drains the
 * chunks it hands out, so: yield every chunk once, back off between empty reads (the official JS SDK
 * polls in a hot loop), stop on any terminal status, and surface a job failure as JobFailedError —
 * generator handlers do not put the error in the stream, so it is read from `/status`.
 */
import { JobFailedError, NotFoundError } from './errors.js';
import { PollPacer, WaitBudget, isTerminalStatus, type PollContext, type PollOptions } from './polling.js';

export interface StreamRead<Chunk> {
  status: string;
  stream?: Chunk[] | null;
  error?: unknown;
}

export interface StreamSources<Chunk, StatusRecord extends { status: string; error?: unknown }> {
  readStream: (signal: AbortSignal | undefined) => Promise<StreamRead<Chunk>>;
  /** Read once when the stream ends in a failure status, for the job's `error`. */
  readStatus: (signal: AbortSignal | undefined) => Promise<StatusRecord>;
}

export async function* iterateJobStream<Chunk, StatusRecord extends { status: string; error?: unknown }>(
  sources: StreamSources<Chunk, StatusRecord>,
  context: PollContext,
  options: PollOptions = {},
): AsyncGenerator<Chunk, void, undefined> {
  const budget = new WaitBudget(options, context);
  const pacer = new PollPacer(options.pollIntervalMs, options.maxPollIntervalMs);
  let lastStatus: string | undefined;
  budget.check(lastStatus);
  for (;;) {
    let read: StreamRead<Chunk>;
    try {
      read = await sources.readStream(options.signal);
    } catch (error) {
      if (error instanceof NotFoundError) throw budget.expired(error, lastStatus);
      throw error;
    }
    if (read.status !== lastStatus) options.onStatus?.({ id: context.jobId, status: read.status });
    const chunks = read.stream ?? [];
    for (const chunk of chunks) yield chunk;
    if (isTerminalStatus(read.status)) {
      if (read.status === 'COMPLETED') return;
      throw await failure(sources, read, context, options.signal);
    }
    const progressed = chunks.length > 0 || read.status !== lastStatus;
    lastStatus = read.status;
    await budget.sleep(pacer.next(progressed), lastStatus);
  }
}

async function failure<Chunk, StatusRecord extends { status: string; error?: unknown }>(
  sources: StreamSources<Chunk, StatusRecord>,
  read: StreamRead<Chunk>,
  context: PollContext,
  signal: AbortSignal | undefined,
): Promise<JobFailedError> {
  let jobError = read.error;
  if (jobError === undefined) {
    // Best effort: the stream answer rarely carries the error; a vanished status just leaves it unknown.
    jobError = await sources.readStatus(signal).then(
      (record) => record.error,
      () => undefined,
    );
  }
  return new JobFailedError({ operationId: context.operationId, jobId: context.jobId, jobStatus: read.status, jobError });
}
