/**
 * Server-Sent Events for the REST v2 log streams: a WHATWG-conformant event parser and an async
 * iterator that resumes after a dropped connection the way EventSource does — reconnect with
 * `Last-Event-ID` = the last `id:` seen, waiting the server's `retry:` or a jittered backoff — with a
 * bound on consecutive reconnects that brought no event, and a quiet stop when the caller aborts.
 */
import { ApiError, ConnectionError, RequestAbortedError } from '../errors.js';
import { backoffDelayMs, defaultSleep, type Sleep } from '../retry-fetch.js';

export interface SseEvent {
  /** `id:` of the event, or the last id seen before it on this stream (EventSource semantics). */
  id: string | undefined;
  /** `event:` field; `message` when absent. */
  event: string;
  /** `data:` lines joined with `\n`. */
  data: string;
}

/** Incremental parser: feed decoded text, get the complete events; a partial event waits for more. */
export class SseParser {
  /** Id of the last dispatched event (or blank line): the resume cursor. An `id:` of a cut-off event does not count. */
  lastEventId: string | undefined;
  private idBuffer: string | undefined;
  /** Reconnection time the server asked for with `retry:` (ms). */
  retryMs: number | undefined;
  private buffer = '';
  private data: string[] = [];
  private event = '';

  feed(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A trailing `\r` may be the first half of `\r\n`: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** Drops a partial event (the connection ended mid-event); keeps lastEventId and retryMs. */
  reset(): void {
    this.idBuffer = this.lastEventId;
    this.buffer = '';
    this.data = [];
    this.event = '';
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      this.lastEventId = this.idBuffer;
      const event = this.data.length > 0 ? { id: this.lastEventId, event: this.event || 'message', data: this.data.join('\n') } : undefined;
      this.data = [];
      this.event = '';
      return event;
    }
    if (line.startsWith(':')) return undefined; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.idBuffer = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }
}

export interface SseResumeOptions {
  /** Ends the iteration (without an error) and closes the connection. */
  signal?: AbortSignal;
  /** Consecutive reconnects that bring no event before giving up with ConnectionError. Default 5. */
  maxReconnects?: number;
  /** Resume after this event id on the first connection too. */
  lastEventId?: string;
  /** Called before each reconnect. */
  onReconnect?: (info: { attempt: number; delayMs: number; lastEventId: string | undefined; error?: unknown }) => void;
  /** Backoff between reconnects when the server sent no `retry:` (defaults 500 ms → 8 s, jittered). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: Sleep;
  random?: () => number;
}

/** Opens the stream; resolves an OK response or throws (HTTP errors as ApiError subclasses). */
export type SseConnect = (lastEventId: string | undefined, signal: AbortSignal | undefined) => Promise<Response>;

export const DEFAULT_MAX_RECONNECTS = 5;

export async function* resumableEvents(connect: SseConnect, options: SseResumeOptions = {}): AsyncGenerator<SseEvent, void, undefined> {
  const { signal } = options;
  const maxReconnects = Math.max(0, options.maxReconnects ?? DEFAULT_MAX_RECONNECTS);
  const sleep = options.sleep ?? defaultSleep;
  const parser = new SseParser();
  parser.lastEventId = options.lastEventId;
  parser.reset();
  let failures = 0;

  for (;;) {
    if (signal?.aborted) return;
    let progressed = false;
    let dropError: unknown;
    try {
      const response = await connect(parser.lastEventId, signal);
      // 204 is the SSE way to say "do not reconnect".
      if (response.status === 204 || !response.body) return;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      // The retry fetch stops watching the caller's signal once headers arrive: cancel the body here.
      const onAbort = () => void reader.cancel().catch(() => undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (const event of parser.feed(value)) {
            progressed = true;
            yield event;
          }
        }
      } finally {
        signal?.removeEventListener('abort', onAbort);
        void reader.cancel().catch(() => undefined);
      }
    } catch (error) {
      if (signal?.aborted || error instanceof RequestAbortedError) return;
      // HTTP answers (401, 404, 429 beyond the retry budget…) are final; transport failures are resumed.
      if (error instanceof ApiError && error.status !== undefined) throw error;
      dropError = error;
    }
    if (signal?.aborted) return;
    parser.reset();
    failures = progressed ? 1 : failures + 1;
    if (failures > maxReconnects) {
      throw new ConnectionError({
        message: `Event stream dropped; gave up after ${maxReconnects} reconnects without an event`,
        cause: dropError,
      });
    }
    const delayMs = parser.retryMs ?? backoffDelayMs(failures, options.random, options.baseDelayMs, options.maxDelayMs);
    options.onReconnect?.({ attempt: failures, delayMs, lastEventId: parser.lastEventId, error: dropError });
    try {
      await sleep(delayMs, signal);
    } catch {
      return; // aborted while waiting
    }
  }
}
