import { describe, expect, it } from 'vitest';
import { InternalServerError, JobExpiredError, JobFailedError, NotFoundError, RequestAbortedError, TimeoutError } from '../../src/clients/errors.js';
import { PollPacer, TERMINAL_JOB_STATUSES, isTerminalStatus, pollUntilTerminal } from '../../src/clients/polling.js';
import { iterateJobStream } from '../../src/clients/stream.js';
import { recordingSleep } from './fake-server.js';

function script<T>(steps: Array<T | Error>) {
  let index = 0;
  const calls = { count: 0 };
  const read = async () => {
    calls.count++;
    const step = steps[Math.min(index++, steps.length - 1)] as T | Error;
    if (step instanceof Error) throw step;
    return step;
  };
  return { read, calls };
}

describe('terminal statuses', () => {
  it('are COMPLETED, FAILED, CANCELLED, TIMED_OUT', () => {
    expect([...TERMINAL_JOB_STATUSES].sort()).toEqual(['CANCELLED', 'COMPLETED', 'FAILED', 'TIMED_OUT']);
    expect(isTerminalStatus('IN_PROGRESS')).toBe(false);
    expect(isTerminalStatus('RUNNING')).toBe(false);
  });
});

describe('PollPacer', () => {
  it('grows ×1.5 up to the ceiling and resets on progress', () => {
    const pacer = new PollPacer(100, 300);
    expect([pacer.next(false), pacer.next(false), pacer.next(false), pacer.next(false)]).toEqual([100, 150, 225, 300]);
    expect(pacer.next(true)).toBe(100);
  });
});

describe('pollUntilTerminal', () => {
  for (const terminal of TERMINAL_JOB_STATUSES) {
    it(`stops at ${terminal} and returns the record`, async () => {
      const { read } = script([{ status: 'IN_QUEUE' }, { status: 'IN_PROGRESS' }, { status: 'IN_PROGRESS' }, { status: terminal, output: 1 }]);
      const { delays, sleep } = recordingSleep();
      const seen: string[] = [];
      const record = await pollUntilTerminal(read, { jobId: 'j' }, { sleep, pollIntervalMs: 10, onStatus: (s) => seen.push(s.status) });
      expect(record).toEqual({ status: terminal, output: 1 });
      expect(seen).toEqual(['IN_QUEUE', 'IN_PROGRESS', 'IN_PROGRESS', terminal]);
      expect(delays).toEqual([10, 10, 15]);
    });
  }

  it('404 after the job was seen → JobExpiredError with the last status', async () => {
    const { read } = script<{ status: string }>([{ status: 'IN_PROGRESS' }, new NotFoundError({ status: 404, body: { message: 'not found' } })]);
    const { sleep } = recordingSleep();
    const promise = pollUntilTerminal(read, { jobId: 'j-9', operationId: 'getJobStatus' }, { sleep });
    await expect(promise).rejects.toBeInstanceOf(JobExpiredError);
    await expect(promise).rejects.toMatchObject({ jobId: 'j-9', lastStatus: 'IN_PROGRESS', status: 404 });
  });

  it('other errors pass through unchanged', async () => {
    const { read } = script<{ status: string }>([new InternalServerError({ status: 500 })]);
    await expect(pollUntilTerminal(read, { jobId: 'j' })).rejects.toBeInstanceOf(InternalServerError);
  });

  it('timeoutMs budget → TimeoutError carrying lastStatus; sleeps never pass the deadline', async () => {
    let clock = 0;
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
      clock += ms;
    };
    const { read } = script([{ status: 'IN_QUEUE' }]);
    const promise = pollUntilTerminal(read, { jobId: 'j' }, { sleep, now: () => clock, timeoutMs: 1000, pollIntervalMs: 400 });
    await expect(promise).rejects.toBeInstanceOf(TimeoutError);
    await expect(promise).rejects.toMatchObject({ lastStatus: 'IN_QUEUE', jobId: 'j' });
    expect(delays.reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it('abort → RequestAbortedError', async () => {
    const controller = new AbortController();
    const { read } = script([{ status: 'IN_QUEUE' }]);
    const sleep = async () => controller.abort();
    await expect(pollUntilTerminal(read, { jobId: 'j' }, { sleep, signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
  });
});

describe('iterateJobStream', () => {
  it('yields each chunk once, backs off on empty reads, ends on COMPLETED', async () => {
    const { read } = script([
      { status: 'IN_QUEUE', stream: [] },
      { status: 'IN_PROGRESS', stream: [{ output: 'a' }, { output: 'b' }] },
      { status: 'IN_PROGRESS', stream: [] },
      { status: 'IN_PROGRESS', stream: [] },
      { status: 'COMPLETED', stream: [{ output: 'c' }] },
    ]);
    const { delays, sleep } = recordingSleep();
    const chunks: unknown[] = [];
    for await (const chunk of iterateJobStream({ readStream: read, readStatus: async () => ({ status: 'COMPLETED' }) }, { jobId: 'j' }, { sleep, pollIntervalMs: 100 })) {
      chunks.push(chunk);
    }
    expect(chunks).toEqual([{ output: 'a' }, { output: 'b' }, { output: 'c' }]);
    expect(delays).toEqual([100, 100, 150, 225]);
  });

  it('FAILED surfaces JobFailedError with the error read from /status', async () => {
    const { read } = script([{ status: 'IN_PROGRESS', stream: [{ output: 'a' }] }, { status: 'FAILED', stream: [] }]);
    const { sleep } = recordingSleep();
    const chunks: unknown[] = [];
    const run = async () => {
      for await (const chunk of iterateJobStream({ readStream: read, readStatus: async () => ({ status: 'FAILED', error: 'CUDA OOM' }) }, { jobId: 'j' }, { sleep })) chunks.push(chunk);
    };
    await expect(run()).rejects.toMatchObject({ name: 'JobFailedError', jobStatus: 'FAILED', jobError: 'CUDA OOM', jobId: 'j' });
    await expect(run()).rejects.toBeInstanceOf(JobFailedError);
    expect(chunks[0]).toEqual({ output: 'a' });
  });

  it('CANCELLED ends the stream with JobFailedError (no endless loop)', async () => {
    const { read } = script([{ status: 'CANCELLED' }]);
    const iterate = async () => {
      for await (const _ of iterateJobStream({ readStream: read, readStatus: async () => ({ status: 'CANCELLED' }) }, { jobId: 'j' })) void _;
    };
    await expect(iterate()).rejects.toMatchObject({ jobStatus: 'CANCELLED' });
  });

  it('404 mid-stream → JobExpiredError', async () => {
    const { read } = script<{ status: string }>([{ status: 'IN_PROGRESS' }, new NotFoundError({ status: 404 })]);
    const { sleep } = recordingSleep();
    const iterate = async () => {
      for await (const _ of iterateJobStream({ readStream: read, readStatus: async () => ({ status: 'x' }) }, { jobId: 'j' }, { sleep })) void _;
    };
    await expect(iterate()).rejects.toBeInstanceOf(JobExpiredError);
  });

  it('breaking out of the loop stops polling', async () => {
    const { read, calls } = script([{ status: 'IN_PROGRESS', stream: [{ output: 1 }, { output: 2 }] }]);
    const { sleep } = recordingSleep();
    for await (const _ of iterateJobStream({ readStream: read, readStatus: async () => ({ status: 'x' }) }, { jobId: 'j' }, { sleep })) break;
    expect(calls.count).toBe(1);
  });
});
