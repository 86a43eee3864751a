/**
 * The request openapi-fetch builds per call, kept as plain parts instead of a WHATWG `Request`.
 * The retry fetch sends every attempt as `fetch(url, init)` with its own combined signal, so a full
 * `Request` (URL parsing, header copy, an AbortSignal of its own) would be built only to be taken
 * apart again; on a loopback status() that was a measurable share of the client's overhead.
 * openapi-fetch accepts the class through its `Request` option and only reads url/method/headers.
 */
export class PreparedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | null | undefined;
  readonly redirect: RequestRedirect;
  readonly signal: AbortSignal | undefined;

  constructor(input: string | URL, init: RequestInit = {}) {
    // Same early TypeError as `new Request()` for a malformed URL.
    this.url = typeof input === 'string' ? new URL(input).href : input.href;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body;
    this.redirect = init.redirect ?? 'follow';
    this.signal = init.signal ?? undefined;
    if (this.body != null && (this.method === 'GET' || this.method === 'HEAD')) {
      throw new TypeError(`Request with ${this.method} method cannot have a body`);
    }
  }
}

/** The request body as something every retry attempt can send again. */
export function replayableBody(request: Request | PreparedRequest): BodyInit | undefined | Promise<BodyInit | undefined> {
  if (request instanceof PreparedRequest) {
    const { body } = request;
    if (body == null) return undefined;
    if (typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return body;
    return new Response(body).arrayBuffer(); // streams, FormData, Blob: read once
  }
  return request.body ? request.arrayBuffer() : undefined;
}
