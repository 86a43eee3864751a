// OPTIONS answers and CORS. CORS is off unless the mock is started with `cors: ORIGIN | '*'`
// (`--cors`); then every answer of the public surfaces names the allowed origin, and preflights
// (OPTIONS, sent by browsers without credentials) are answered before authentication.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request headers a page may send: the key travels in Authorization, bodies are JSON. */
const ALLOWED_HEADERS = 'Authorization, Content-Type';
/** Answer headers a page may read beyond the CORS-safelisted ones (429 waits, 405 methods). */
const EXPOSED_HEADERS = 'Retry-After, Allow, RateLimit, RateLimit-Policy';
/** How long a browser may cache a preflight answer. */
const MAX_AGE_SECONDS = '600';

export class Cors {
  private readonly varyByOrigin: boolean;

  /** `origin` is `*` or one origin (`scheme://host[:port]`). */
  constructor(readonly origin: string) {
    this.varyByOrigin = origin !== '*';
  }

  /** Headers every answer carries; set before the answer is written (writeHead merges them). */
  decorate(res: ServerResponse): void {
    res.setHeader('access-control-allow-origin', this.origin);
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    if (this.varyByOrigin) res.setHeader('vary', 'Origin');
  }

  preflightHeaders(allow: string): Record<string, string> {
    return {
      'access-control-allow-methods': allow,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': MAX_AGE_SECONDS,
    };
  }
}

/** `ORIGIN` or `*`; throws on anything else (a path, a bare host). */
export function parseCorsOrigin(value: string): string {
  if (value === '*') return value;
  let origin: string | undefined;
  try {
    origin = new URL(value).origin;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || origin === 'null' || origin !== value.replace(/\/$/, '')) {
    throw new Error(`cors must be * or an origin such as https://docs.example.com (got '${value}')`);
  }
  return origin;
}

/** OPTIONS on a known path: 204 with `Allow` (RFC 9110 §9.3.7), plus the preflight headers when CORS is on. */
export function answerOptions(req: IncomingMessage, res: ServerResponse, allow: string, cors: Cors | undefined): void {
  req.resume();
  const headers: Record<string, string> = cors ? { allow, ...cors.preflightHeaders(allow) } : { allow };
  res.writeHead(204, headers);
  res.end();
}
