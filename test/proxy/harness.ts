// Helpers of the proxy tests: a scripted upstream on 127.0.0.1:0, and a fetch that records HAR entries
// (what a browser's network panel would save) so check-traffic can judge the same traffic.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  url: string;
  close(): Promise<void>;
}

export async function startUpstream(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Upstream> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

export interface Har {
  log: { version: string; creator: { name: string; version: string }; entries: unknown[] };
}

export const emptyHar = (): Har => ({ log: { version: '1.2', creator: { name: 'compute-contract tests', version: '1' }, entries: [] } });

/** A fetch that records each request and answer into `har` (headers, bodies as text). */
export function recordingFetch(har: Har): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const requestText = request.body ? await request.clone().text() : undefined;
    const response = await fetch(request);
    const responseText = await response.clone().text();
    const pairs = (headers: Headers) => {
      const list: { name: string; value: string }[] = [];
      headers.forEach((value, name) => list.push({ name, value }));
      return list;
    };
    har.log.entries.push({
      startedDateTime: new Date().toISOString(),
      time: 0,
      request: {
        method: request.method,
        url: request.url,
        httpVersion: 'HTTP/1.1',
        headers: pairs(request.headers),
        queryString: [...new URL(request.url).searchParams].map(([name, value]) => ({ name, value })),
        ...(requestText !== undefined ? { postData: { mimeType: request.headers.get('content-type') ?? '', text: requestText } } : {}),
        headersSize: -1,
        bodySize: requestText?.length ?? 0,
      },
      response: {
        status: response.status,
        statusText: response.statusText,
        httpVersion: 'HTTP/1.1',
        headers: pairs(response.headers),
        content: { size: responseText.length, mimeType: response.headers.get('content-type') ?? '', text: responseText },
        redirectURL: '',
        headersSize: -1,
        bodySize: responseText.length,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
    });
    return response;
  };
}
