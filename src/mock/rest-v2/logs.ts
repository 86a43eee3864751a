// REST v2 log streams (getPodLogs, getWorkerLogs) as Server-Sent Events over the simulated logs of
// log-book.ts. Each event: `id:` = the line's timestamp (unique and increasing), `data:` = {source, line, ts}.
// A stream sends `retry:`, the backlog the cursor selects (Last-Event-ID > since > tail), then follows
// new lines for LOG_FOLLOW_MS of mock-clock time (and at most that long in real time) and ends; a client
// resumes with Last-Event-ID and gets exactly the lines after it. It ends early when the pod or worker goes.
import type { ServerResponse } from 'node:http';
import type { MockCore } from '../core.js';
import type { LogCursor, LogLine, LogSourceName, SimulatedLog } from './log-lines.js';
import { problem } from './problem.js';
import type { V2Handler, V2Reply, V2RequestContext } from './types.js';

/** How long one connection follows new lines before it ends (assumed; the client then resumes). */
export const LOG_FOLLOW_MS = 30_000;
/** Reconnection delay the stream asks for (`retry:`). */
export const LOG_RETRY_MS = 1_000;
/** Lines sent before live lines when the request names no cursor (the spec's default `tail`). */
export const LOG_DEFAULT_TAIL = 100;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The cursor of a request, or a 400 for a Last-Event-ID that is no timestamp (the ids this mock sends are). */
export function cursorOf(ctx: V2RequestContext): LogCursor | V2Reply {
  if (ctx.lastEventId !== undefined) {
    const at = RFC3339.test(ctx.lastEventId) ? Date.parse(ctx.lastEventId) : Number.NaN;
    if (!Number.isFinite(at)) {
      return problem(400, 'Last-Event-ID must be the id of an event: an RFC 3339 timestamp', ['/header/Last-Event-ID: must match format "date-time"']);
    }
    return { after: at };
  }
  if (typeof ctx.query['since'] === 'string') return { since: Date.parse(ctx.query['since']) };
  const tail = ctx.query['tail'];
  return { tail: tail === undefined ? LOG_DEFAULT_TAIL : Number(tail) };
}

const sourceOf = (ctx: V2RequestContext): LogSourceName | undefined => ctx.query['source'] as LogSourceName | undefined;

function eventText(line: LogLine): string {
  const ts = new Date(line.ts).toISOString();
  return `id: ${ts}\ndata: ${JSON.stringify({ source: line.source, line: line.line, ts })}\n\n`;
}

/** An SSE answer following `log` while `alive(log)` holds. */
export function logStream(core: MockCore, log: SimulatedLog, alive: () => boolean, source: LogSourceName | undefined, cursor: LogCursor): V2Reply {
  return { status: 200, headers: { 'x-accel-buffering': 'no' }, stream: (res) => follow(core, log, alive, source, cursor, res) };
}

function follow(core: MockCore, log: SimulatedLog, alive: () => boolean, source: LogSourceName | undefined, cursor: LogCursor, res: ServerResponse): void {
  const { clock } = core;
  const deadline = clock.now() + LOG_FOLLOW_MS;
  let timer: ReturnType<typeof clock.at> | undefined;
  let done = false;
  const realLimit = setTimeout(() => finish(), LOG_FOLLOW_MS);
  realLimit.unref();

  const finish = () => {
    if (done) return;
    done = true;
    clock.cancel(timer);
    clearTimeout(realLimit);
    log.listeners.delete(flush);
    if (!res.writableEnded) res.end();
  };
  /** Every line up to `seen` was sent or filtered out; later ones come with the next flush. */
  let seen = Number.NEGATIVE_INFINITY;
  const send = (lines: LogLine[]) => {
    if (lines.length > 0 && !res.destroyed) res.write(lines.map(eventText).join(''));
    seen = Math.min(log.lastTs, deadline);
  };
  function flush(): void {
    if (done) return;
    log.advance(Math.min(clock.now(), deadline));
    send(log.read(source, { after: seen }, deadline));
    if (!alive() || clock.now() >= deadline) return finish();
    clock.cancel(timer);
    timer = clock.at(Math.min(log.nextDueAt() ?? deadline, deadline), flush);
  }

  res.on('close', finish);
  res.write(`retry: ${LOG_RETRY_MS}\n\n`);
  log.advance(clock.now());
  send(log.read(source, cursor, deadline));
  log.listeners.add(flush);
  flush();
}

/** 404 problem for a log whose owner does not exist. */
const missing = (what: string): V2Reply => problem(404, `${what} not found`);

export const logHandlers: Record<string, V2Handler> = {
  getPodLogs: (core, ctx) => {
    const id = ctx.params['id']!;
    const pod = core.store.pods.get(id);
    if (!pod) return missing(`pod ${id}`);
    const cursor = cursorOf(ctx);
    if ('status' in cursor) return cursor;
    const log = core.logs.podLog(pod);
    return logStream(core, log, () => core.logs.isPodLog(id, log), sourceOf(ctx), cursor);
  },
  getWorkerLogs: (core, ctx) => {
    const endpointId = ctx.params['id']!;
    const workerId = ctx.params['workerId']!;
    if (!core.store.endpoints.has(endpointId)) return missing(`endpoint ${endpointId}`);
    const log = core.logs.workerLog(endpointId, workerId);
    if (!log) return missing(`worker ${workerId} of endpoint ${endpointId}`);
    const cursor = cursorOf(ctx);
    if ('status' in cursor) return cursor;
    return logStream(core, log, () => core.logs.isWorkerLog(endpointId, workerId, log), sourceOf(ctx), cursor);
  },
};
