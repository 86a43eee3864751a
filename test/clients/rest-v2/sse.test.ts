import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError } from '../../../src/clients/errors.js';
import { createRestV2Client, type LogLine } from '../../../src/clients/rest-v2/index.js';
import { SseParser } from '../../../src/clients/rest-v2/sse.js';
import { recordingSleep } from '../fake-server.js';

const API_KEY = 'rpa_SSEKEY_abcdefghijkl';

/** A scripted SSE server: each connection gets the handler of its index (the last one repeats). */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface SseServer {
  url: string;
  requests: Array<{ url: string; headers: IncomingMessage['headers'] }>;
  closed: number;
  close(): Promise<void>;
}
let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function startSseServer(handlers: Handler[]): Promise<SseServer> {
  const state: SseServer = { url: '', requests: [], closed: 0, close: async () => undefined };
  const http: Server = createServer((req, res) => {
    state.requests.push({ url: req.url ?? '/', headers: req.headers });
    res.on('close', () => state.closed++);
    handlers[Math.min(state.requests.length - 1, handlers.length - 1)]!(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return state;
}

const line = (ts: string, text: string) => `id: ${ts}\ndata: ${JSON.stringify({ source: 'container', line: text, ts })}\n\n`;
const open = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

async function collect(iterable: AsyncIterable<LogLine>, count: number): Promise<LogLine[]> {
  const out: LogLine[] = [];
  for await (const item of iterable) {
    out.push(item);
    if (out.length >= count) break;
  }
  return out;
}

describe('SSE parser', () => {
  it('handles CRLF, split chunks, multi-line data, comments, retry and id persistence', () => {
    const parser = new SseParser();
    expect(parser.feed(': keep-alive\r\nid: 1\r\nevent: log\r\ndata: a\r')).toEqual([]);
    expect(parser.feed('\ndata: b\r\n\r\nretry: 2500\ndata: c\n')).toEqual([{ id: '1', event: 'log', data: 'a\nb' }]);
    expect(parser.feed('\n')).toEqual([{ id: '1', event: 'message', data: 'c' }]);
    expect(parser.retryMs).toBe(2500);
    expect(parser.feed('id: 2\n\ndata:x\n\n')).toEqual([{ id: '2', event: 'message', data: 'x' }]);
    parser.feed('id: 3\ndata: partial');
    parser.reset();
    expect(parser.lastEventId).toBe('2');
    expect(parser.feed('data: next\n\n')).toEqual([{ id: '2', event: 'message', data: 'next' }]);
    expect(parser.feed('id: 4\n\n')).toEqual([]);
    expect(parser.lastEventId).toBe('4');
  });
});

describe('log streams', () => {
  it('pods.logs resumes with Last-Event-ID after the server drops the connection', async () => {
    server = await startSseServer([
      (_req, res) => {
        open(res);
        res.write(line('2026-06-01T12:00:01Z', 'one'));
        res.write(line('2026-06-01T12:00:02Z', 'two'));
        res.write('id: 2026-06-01T12:00:03Z\ndata: {"line":"lost"'); // cut mid-event
        setTimeout(() => res.socket?.destroy(), 20);
      },
      (_req, res) => {
        open(res);
        res.write(line('2026-06-01T12:00:03Z', 'three'));
      },
    ]);
    const { sleep, delays } = recordingSleep();
    const v2 = createRestV2Client({ baseUrl: server.url, apiKey: API_KEY, sleep, random: () => 1 });
    const reconnects: unknown[] = [];
    const lines = await collect(v2.pods.logs('pod 1', { tail: 10, source: 'container', onReconnect: (info) => reconnects.push(info.lastEventId) }), 3);
    expect(lines).toEqual([
      { id: '2026-06-01T12:00:01Z', source: 'container', line: 'one', ts: '2026-06-01T12:00:01Z' },
      { id: '2026-06-01T12:00:02Z', source: 'container', line: 'two', ts: '2026-06-01T12:00:02Z' },
      { id: '2026-06-01T12:00:03Z', source: 'container', line: 'three', ts: '2026-06-01T12:00:03Z' },
    ]);
    expect(server.requests.map((r) => r.url)).toEqual(['/v2/pods/pod%201/logs?tail=10&source=container', '/v2/pods/pod%201/logs?tail=10&source=container']);
    expect(server.requests[0]!.headers['last-event-id']).toBeUndefined();
    // The cut-off event's `id:` was read but never dispatched: the cursor stays on the last whole event.
    expect(server.requests[1]!.headers['last-event-id']).toBe('2026-06-01T12:00:02Z');
    expect(server.requests[1]!.headers.accept).toBe('text/event-stream');
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(reconnects).toEqual(['2026-06-01T12:00:02Z']);
    expect(delays).toEqual([500]);
  });

  it('serverless.workerLogs resumes after a clean close, honouring the server retry:', async () => {
    server = await startSseServer([
      (_req, res) => {
        open(res);
        res.end(`retry: 1500\n${line('t1', 'a')}`);
      },
      (_req, res) => {
        open(res);
        res.write(line('t2', 'b'));
      },
    ]);
    const { sleep, delays } = recordingSleep();
    const v2 = createRestV2Client({ baseUrl: server.url, apiKey: API_KEY, sleep });
    const lines = await collect(v2.serverless.workerLogs('ep1', 'w1', { since: new Date('2026-06-01T00:00:00Z') }), 2);
    expect(lines.map((l) => l.line)).toEqual(['a', 'b']);
    expect(server.requests[0]!.url).toBe('/v2/serverless/ep1/workers/w1/logs?since=2026-06-01T00%3A00%3A00.000Z');
    expect(server.requests[1]!.headers['last-event-id']).toBe('t1');
    expect(delays).toEqual([1500]);
  });

  it('abort ends the iteration quietly and closes the connection', async () => {
    server = await startSseServer([
      (_req, res) => {
        open(res);
        res.write(line('t1', 'first'));
      },
    ]);
    const v2 = createRestV2Client({ baseUrl: server.url, apiKey: API_KEY });
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const entry of v2.pods.logs('p1', { signal: controller.signal })) {
      seen.push(entry.line);
      setTimeout(() => controller.abort(), 10);
    }
    expect(seen).toEqual(['first']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.closed).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    server = await startSseServer([(_req, res) => res.end()]);
    const v2 = createRestV2Client({ baseUrl: server.url, apiKey: API_KEY });
    expect(await collect(v2.pods.logs('p1', { signal: AbortSignal.abort() }), 1)).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('gives up with ConnectionError after maxReconnects drops without an event', async () => {
    server = await startSseServer([(req) => req.socket.destroy()]);
    const { sleep, delays } = recordingSleep();
    const v2 = createRestV2Client({ baseUrl: server.url, apiKey: API_KEY, sleep, maxRetries: 0, random: () => 1 });
    const error = await collect(v2.pods.logs('p1', { maxReconnects: 2 }), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([500, 1000]);
  });

  it('HTTP errors are final (problem+json mapped), 204 ends the stream', async () => {
    server = await startSseServer([
      (_req, res) => res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'Not Found', status: 404, detail: 'pod not found' })),
      (_req, res) => res.writeHead(204).end(),
    ]);
    const v2 = createRestV2Client({ baseUrl: server.url, apiKey: API_KEY });
    const error = await collect(v2.pods.logs('p1'), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).problem?.detail).toBe('pod not found');
    expect(await collect(v2.stream('getPodLogs', { path: { id: 'p1' } }) as AsyncIterable<never>, 1)).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('invalid parameters are rejected before connecting', async () => {
    server = await startSseServer([(_req, res) => res.end()]);
    const v2 = createRestV2Client({ baseUrl: server.url, apiKey: API_KEY });
    await expect(collect(v2.pods.logs('p1', { tail: 99_999 }), 1)).rejects.toMatchObject({ name: 'ValidationError' });
    expect(server.requests).toHaveLength(0);
  });
});
