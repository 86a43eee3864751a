/**
 * Minimal scripted node:http server for client tests: 127.0.0.1, ephemeral port, records every request.
 * Each test supplies a route function; `close()` stops it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path plus query string, as received. */
  url: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Destroy the socket without answering (connection reset). */
  destroy?: boolean;
  /** Never answer (for timeout / abort tests); the server closes such sockets on close(). */
  hang?: boolean;
}

export type Route = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeServer(route: Route): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = new URL(req.url ?? '/', 'http://127.0.0.1');
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      pathname: parsed.pathname,
      query: parsed.searchParams,
      headers: req.headers,
      body,
      json,
    };
    requests.push(recorded);
    const reply = await route(recorded, requests.length - 1);
    if (reply.destroy) return void req.socket.destroy();
    if (reply.hang) return;
    const status = reply.status ?? 200;
    const headers: Record<string, string> = { ...(reply.headers ?? {}) };
    if (reply.body === undefined || status === 204) {
      res.writeHead(status, headers).end();
      return;
    }
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    if (typeof reply.body !== 'string' && !headers['content-type']) headers['content-type'] = 'application/json';
    res.writeHead(status, headers).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Records sleeps instead of waiting; honours an already-aborted signal like the real sleep. */
export function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw signal.reason;
    delays.push(ms);
  };
  return { delays, sleep };
}

/** A port that refuses connections: bind, read the port, close. */
export async function refusedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
