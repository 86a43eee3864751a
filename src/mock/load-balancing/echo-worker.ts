// The worker of a load-balancing endpoint given no worker (`--worker NAME=…`): an HTTP echo, so an endpoint
// created with any image answers. GET /ping is its health route (200); any other request is answered 200
// with what arrived: {method, path, query, headers, body} (body as text, at most 64 KiB of it echoed).
import type { FetchHandler } from './fetch-worker.js';

const ECHOED_BODY_BYTES = 64 * 1024;

export const echoFetchHandler: FetchHandler = async (request) => {
  const url = new URL(request.url);
  if (url.pathname === '/ping' && request.method === 'GET') return Response.json({ status: 'healthy' });
  const text = request.body ? await request.text() : '';
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  return Response.json({
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body: text.length > ECHOED_BODY_BYTES ? `${text.slice(0, ECHOED_BODY_BYTES)}…` : text,
  });
};
