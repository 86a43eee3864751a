/**
 * Waiting for a queue v2 job: poll `/status` with growing intervals until a terminal status, turning a
 * 404 on a job we already knew into `JobExpiredError` (ttl or result retention ran out: unrecoverable).
 * Transport-level retries (429/5xx) happen below, in the retry fetch; this loop only paces polls.
 */
import { JobExpiredError, NotFoundError, RequestAbortedError, TimeoutError } from './errors.js';
import { defaultSleep, type Sleep } from './retry-fetch.js';

/** Statuses after which a job never changes again (all four, unlike runpod-python's FINAL_STATES). */
export const TERMINAL_JOB_STATUSES = ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'] as const;
export type TerminalJobStatus = (typeof TERMINAL_JOB_STATUSES)[number];

export function isTerminalStatus(status: unknown): status is TerminalJobStatus {
  return typeof status === 'string' && (TERMINAL_JOB_STATUSES as readonly string[]).includes(status);
}

export interface PollOptions {
  /** First interval between polls. Default 500 ms. */
  pollIntervalMs?: number;
  /** Interval ceiling; intervals grow ×1.5 per poll without change. Default 5000 ms. */
  maxPollIntervalMs?: number;
  /** Overall budget; TimeoutError (with lastStatus) when exceeded. Default: none. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with every status read (including the terminal one). */
  onStatus?: (status: { id?: string; status: string }) => void;
  /** Injectable for deterministic tests. */
  sleep?: Sleep;
  now?: () => number;
}

export interface PollContext {
  jobId: string;
  operationId?: string;
}

export const DEFAULT_POLL_INTERVAL_MS = 500;
export const DEFAULT_MAX_POLL_INTERVAL_MS = 5000;
const GROWTH = 1.5;

/** Interval pacing shared by waitFor and stream: reset on progress, grow on no change. */
export class PollPacer {
  private current: number;
  constructor(
    private readonly initial: number = DEFAULT_POLL_INTERVAL_MS,
    private readonly max: number = DEFAULT_MAX_POLL_INTERVAL_MS,
  ) {
    this.current = Math.max(0, initial);
  }
  next(progressed: boolean): number {
    if (progressed) this.current = Math.max(0, this.initial);
    const delay = Math.min(this.current, this.max);
    this.current = Math.min(Math.max(this.current, 1) * GROWTH, this.max);
    return delay;
  }
}

/** Budget + abort bookkeeping for one wait. */
export class WaitBudget {
  private readonly deadline: number | undefined;
  private readonly now: () => number;
  private readonly sleeper: Sleep;
  constructor(
    private readonly options: PollOptions,
    private readonly context: PollContext,
  ) {
    this.now = options.now ?? Date.now;
    this.sleeper = options.sleep ?? defaultSleep;
    this.deadline = options.timeoutMs !== undefined ? this.now() + options.timeoutMs : undefined;
  }

  check(lastStatus: string | undefined): void {
    if (this.options.signal?.aborted) throw this.aborted(this.options.signal.reason);
    if (this.deadline !== undefined && this.now() >= this.deadline) {
      throw new TimeoutError({
        operationId: this.context.operationId,
        jobId: this.context.jobId,
        lastStatus,
        message: `Job not finished after ${this.options.timeoutMs} ms${lastStatus ? `; last status ${lastStatus}` : ''}`,
      });
    }
  }

  /** Sleeps, never past the deadline. */
  async sleep(ms: number, lastStatus: string | undefined): Promise<void> {
    const remaining = this.deadline !== undefined ? Math.max(0, this.deadline - this.now()) : ms;
    try {
      await this.sleeper(Math.min(ms, remaining), this.options.signal);
    } catch (error) {
      throw this.aborted(this.options.signal?.reason ?? error);
    }
    this.check(lastStatus);
  }

  expired(error: NotFoundError, lastStatus: string | undefined): JobExpiredError {
    return new JobExpiredError({
      status: 404,
      headers: error.headers,
      body: error.body,
      operationId: error.operationId ?? this.context.operationId,
      jobId: this.context.jobId,
      lastStatus,
    });
  }

  private aborted(cause: unknown): RequestAbortedError {
    return new RequestAbortedError({ operationId: this.context.operationId, jobId: this.context.jobId, cause });
  }
}

/**
 * Polls `readStatus` until the job is terminal and returns that final record. The caller decides what a
 * FAILED / CANCELLED / TIMED_OUT record means (see `JobFailedError` for the throwing variant).
 */
export async function pollUntilTerminal<T extends { status: string }>(
  readStatus: (signal: AbortSignal | undefined) => Promise<T>,
  context: PollContext,
  options: PollOptions = {},
): Promise<T> {
  const budget = new WaitBudget(options, context);
  const pacer = new PollPacer(options.pollIntervalMs, options.maxPollIntervalMs);
  let lastStatus: string | undefined;
  budget.check(lastStatus);
  for (;;) {
    let record: T;
    try {
      record = await readStatus(options.signal);
    } catch (error) {
      if (error instanceof NotFoundError && !(error instanceof JobExpiredError)) throw budget.expired(error, lastStatus);
      throw error;
    }
    options.onStatus?.(record);
    if (isTerminalStatus(record.status)) return record;
    const progressed = record.status !== lastStatus;
    lastStatus = record.status;
    await budget.sleep(pacer.next(progressed), lastStatus);
  }
}
