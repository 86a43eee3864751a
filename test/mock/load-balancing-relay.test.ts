// The byte relay of a load-balancing request and answer (src/mock/load-balancing/relay.ts), with a bound of
// 10 bytes instead of the spec's 30 MiB: a declared length within it is piped, a chunked body counted, and one
// byte past the bound stops the copy (the caller cuts the connection). One echo server for the file.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBody, relay } from '../../src/mock/load-balancing/relay.js';

const MAX = 10;
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'x-had-body': String(hasBody(req)) });
    relay(req, res, MAX, req.headers['content-length'], () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `chunks` (chunked unless `length` is declared); the echo, or 'cut' when the connection was cut. */
function echo(chunks: string[], headers: Record<string, string> = {}): Promise<{ body: string; hadBody: string } | 'cut'> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ body, hadBody: String(res.headers['x-had-body']) }));
      res.on('error', () => resolve('cut'));
    });
    req.on('error', () => resolve('cut'));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('relay', () => {
  it('pipes a body of declared length within the bound, and counts a chunked one', async () => {
    expect(await echo(['12345678'], { 'content-length': '8' })).toEqual({ body: '12345678', hadBody: 'true' });
    expect(await echo(['12345', '67890'])).toEqual({ body: '1234567890', hadBody: 'true' });
    expect(await echo([], { 'content-length': '0' })).toEqual({ body: '', hadBody: 'false' });
  });

  it('a chunked body one byte past the bound stops the copy and cuts the connection; the server keeps serving', async () => {
    expect(await echo(['12345', '678901'])).toBe('cut');
    expect(await echo(['ok'])).toEqual({ body: 'ok', hadBody: 'true' });
  });
});
