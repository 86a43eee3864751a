// `/docs` on the mock (`--docs`, option `docs`): the documentation site of `compute-contract docs`, with
// try-it panels whose requests go to this mock (same origin: no CORS needed). Built before the mock
// listens (prepareDocs: the build holds the event loop ~0.5 s, which no request should wait behind) and
// kept in memory; no auth (the pages hold no secret); GET and HEAD only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';
import { buildSite, type Site, type TryItConfig } from '../docs/index.js';

export const DOCS_PREFIX = '/docs';

/** Where each surface lives on the mock, as the site's spec keys name them (REST v2 paths keep `/v2`). */
export const MOCK_TRY_IT: TryItConfig = {
  bases: { 'rest-v1': '/v1', 'queue-v2': '/v2/{endpointId}', 'rest-v2': '', graphql: '/graphql' },
};

const ALLOW = 'GET, HEAD, OPTIONS';
/** The browser enforces what the site promises: nothing loads from anywhere but this mock. */
const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function isDocsPath(path: string): boolean {
  return path === DOCS_PREFIX || path.startsWith(`${DOCS_PREFIX}/`);
}

export type DocsRoute = ((req: IncomingMessage, res: ServerResponse, path: string) => void) & {
  /** Builds the site now (once), so no request waits for the build. */
  prepare(): void;
};

export function createDocsRoute(build: () => Site = () => buildSite({ tryIt: MOCK_TRY_IT })): DocsRoute {
  let site: Site | undefined;
  const route = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    req.resume();
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { allow: ALLOW });
      return void res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, `method ${req.method} not allowed at ${path}`, { allow: ALLOW });
    // Relative links in the pages need the trailing slash.
    if (path === DOCS_PREFIX) {
      res.writeHead(301, { location: `${DOCS_PREFIX}/` });
      return void res.end();
    }
    const file = sitePath(path.slice(DOCS_PREFIX.length + 1));
    site ??= build();
    const entry = file === undefined ? undefined : site.files.get(file);
    if (!entry) return plain(res, 404, `no docs page at ${path}`);
    res.writeHead(200, {
      'content-type': entry.contentType,
      'content-length': Buffer.byteLength(entry.body),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': CONTENT_SECURITY_POLICY,
    });
    res.end(req.method === 'HEAD' ? undefined : entry.body);
  };
  return Object.assign(route, { prepare: () => void (site ??= build()) });
}

/** `docs/mock.html` from the request path; undefined for anything that leaves the site (`..`, bad escapes). */
function sitePath(raw: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  if (decoded === '' || decoded.endsWith('/')) decoded += 'index.html';
  const normal = posix.normalize(decoded);
  if (normal.startsWith('..') || normal.startsWith('/') || normal.includes('\0')) return undefined;
  return normal;
}

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${message}\n`);
}

/** The route every mock of this process shares (the site does not depend on the mock's options). */
export const serveDocs: DocsRoute = createDocsRoute();
