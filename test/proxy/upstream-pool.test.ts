import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startProxy } from '../../src/proxy/index.js';
import { UpstreamPool } from '../../src/proxy/upstream-pool.js';

/** A raw TCP upstream on 127.0.0.1: `answer(request head, connection number, socket)` writes whatever bytes a test wants. */
async function rawUpstream(answer: (head: string, connection: number, socket: Socket) => void): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    const number = ++connections;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n\r\n')) !== -1) {
        const head = buffered.slice(0, end);
        buffered = buffered.slice(end + 4);
        answer(head, number, socket);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

interface Result { status?: number; body: string; error?: string }

function call(pool: UpstreamPool, method: string, path: string, port: number): Promise<Result> {
  return new Promise((resolve) => {
    const result: Result = { body: '' };
    pool.request(method, path, ['Host', `127.0.0.1:${port}`], {
      head: (status) => void (result.status = status),
      data: (chunk) => void (result.body += chunk.toString()),
      end: () => resolve(result),
      fail: (error) => resolve({ ...result, error: error.code ?? error.message }),
    });
  });
}

const ok = (body: string) => `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

describe('UpstreamPool (the proxy\'s keep-alive connections for requests without a body)', () => {
  it('sends the request head as given and carries one request after another on one connection', async () => {
    const heads: string[] = [];
    const upstream = await rawUpstream((head, _n, socket) => {
      heads.push(head);
      socket.write(ok(`answer ${heads.length}`));
    });
    const pool = new UpstreamPool('127.0.0.1', upstream.port, 1024 * 1024);
    stops.push(() => pool.close());
    expect(await call(pool, 'GET', '/v2/ep/status/j1?x=1', upstream.port)).toEqual({ status: 200, body: 'answer 1' });
    expect(await call(pool, 'DELETE', '/v1/pods/p1', upstream.port)).toEqual({ status: 200, body: 'answer 2' });
    expect(heads[0]).toBe(`GET /v2/ep/status/j1?x=1 HTTP/1.1\r\nHost: 127.0.0.1:${upstream.port}\r\nConnection: keep-alive`);
    expect(heads[1]!.split('\r\n')[0]).toBe('DELETE /v1/pods/p1 HTTP/1.1');
    expect(upstream.connections()).toBe(1);
  });

  it('a kept connection the upstream closed before answering: a GET is sent again on a fresh one, a POST fails', async () => {
    const upstream = await rawUpstream((_head, connection, socket) => {
      // The first connection answers once, then drops the next request unanswered (an idle timeout's race).
      if (connection === 1 && (socket as Socket & { answered?: boolean }).answered) return void socket.destroy();
      (socket as Socket & { answered?: boolean }).answered = true;
      socket.write(ok(`from ${connection}`));
    });
    const pool = new UpstreamPool('127.0.0.1', upstream.port, 1024 * 1024);
    stops.push(() => pool.close());
    expect(await call(pool, 'GET', '/a', upstream.port)).toEqual({ status: 200, body: 'from 1' });
    expect(await call(pool, 'GET', '/b', upstream.port)).toEqual({ status: 200, body: 'from 2' });
    expect(await call(pool, 'POST', '/c', upstream.port)).toEqual({ status: 200, body: 'from 2' });
    // Connection 2 is now kept; make it drop the next request: a bodiless POST is not replayed.
    const dropping = await rawUpstream((_head, connection, socket) => {
      if ((socket as Socket & { answered?: boolean }).answered) return void socket.destroy();
      (socket as Socket & { answered?: boolean }).answered = true;
      socket.write(ok(`from ${connection}`));
    });
    const second = new UpstreamPool('127.0.0.1', dropping.port, 1024 * 1024);
    stops.push(() => second.close());
    expect(await call(second, 'POST', '/run', dropping.port)).toEqual({ status: 200, body: 'from 1' });
    expect(await call(second, 'POST', '/cancel', dropping.port)).toEqual({ body: '', error: 'ECONNRESET' });
  });

  it('never opens more than its connections; later requests wait and are all answered', async () => {
    const upstream = await rawUpstream((head, _n, socket) => {
      setTimeout(() => socket.write(ok(head.split(' ')[1]!)), 20);
    });
    const pool = new UpstreamPool('127.0.0.1', upstream.port, 1024 * 1024, 2);
    stops.push(() => pool.close());
    const answers = await Promise.all(['/1', '/2', '/3', '/4', '/5'].map((path) => call(pool, 'GET', path, upstream.port)));
    expect(answers.map((a) => a.body)).toEqual(['/1', '/2', '/3', '/4', '/5']);
    expect(upstream.connections()).toBe(2);
  });

  it('a refused connection and a malformed answer fail the exchange (the proxy answers 502)', async () => {
    const closed = await rawUpstream(() => {});
    const port = closed.port;
    await new Promise<void>((resolve) => closed.server.close(() => resolve()));
    const pool = new UpstreamPool('127.0.0.1', port, 1024 * 1024);
    stops.push(() => pool.close());
    expect(await call(pool, 'GET', '/', port)).toEqual({ body: '', error: 'ECONNREFUSED' });
    const garbled = await rawUpstream((_head, _n, socket) => socket.write('HTTP/1.1 2OO OK\r\n\r\n'));
    const other = new UpstreamPool('127.0.0.1', garbled.port, 1024 * 1024);
    stops.push(() => other.close());
    expect(await call(other, 'GET', '/', garbled.port)).toEqual({ body: '', error: 'HPE_INVALID_ANSWER' });
  });

  it('through the proxy: a large answer held back by the client\'s pace, then the next request on that connection', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    const upstream = await rawUpstream((head, _n, socket) => {
      socket.write(head.startsWith('GET /big ') ? ok(big) : ok('small'));
    });
    const proxy = await startProxy({ upstream: `http://127.0.0.1:${upstream.port}`, port: 0 });
    stops.push(() => proxy.close());
    expect((await (await fetch(`${proxy.url}/big`)).text()).length).toBe(big.length);
    expect(await (await fetch(`${proxy.url}/small`, { signal: AbortSignal.timeout(5_000) })).text()).toBe('small');
    expect(upstream.connections()).toBe(1);
  });

  it('through the proxy: chunked, close-delimited and 103-then-200 answers reach the client whole, and are judged', async () => {
    const upstream = await rawUpstream((head, _n, socket) => {
      const path = head.split(' ')[1]!;
      if (path.endsWith('/chunked')) socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n[{"a\r\n5\r\n":1}]\r\n0\r\n\r\n');
      else if (path.endsWith('/hints')) socket.write('HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]');
      else socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n[{"b":2}]');
    });
    const proxy = await startProxy({ upstream: `http://127.0.0.1:${upstream.port}`, port: 0 });
    stops.push(() => proxy.close());
    const texts = [];
    for (const path of ['/v1/x/chunked', '/v1/x/hints', '/v1/x/close']) {
      const res = await fetch(`${proxy.url}${path}`);
      texts.push([res.status, await res.text()]);
    }
    expect(texts).toEqual([[200, '[{"a":1}]'], [200, '[]'], [200, '[{"b":2}]']]);
    expect(proxy.report().totals).toMatchObject({ exchanges: 3, upstreamErrors: 0 });
  });
});
