// A `fetch` for the Pact consumer tests that opens a new connection for every request.
// Why: each interaction gets its own Pact mock server on an ephemeral port, and the server of an
// earlier interaction keeps its kept-alive connections after it stops listening. The global fetch
// pools connections per origin, so when a later server is given the same port, a pooled connection
// delivers the request to the old server: the new one reports "expected but not received" although
// the client got an answer. One connection per request (agent: false) always reaches the listener.
import { request as httpRequest } from 'node:http';
import type { FetchLike } from '../../src/clients/retry-fetch.js';

export const freshConnectionFetch: FetchLike = async (input, init) => {
  const request = input instanceof Request && init === undefined ? input : new Request(input, init);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  if (body) headers['content-length'] = String(body.length);
  const url = new URL(request.url);
  return new Promise<Response>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: request.method, headers, agent: false, signal: request.signal },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, one);
          }
          const status = incoming.statusCode ?? 500;
          const noBody = status === 204 || status === 304 || request.method === 'HEAD';
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: incoming.statusMessage ?? '', headers: answerHeaders }));
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
};
