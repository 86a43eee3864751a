// A load-balancing worker in the mock's process: a module's fetch handler `(request: Request) => Response`
// (`--worker NAME=MODULE` for an endpoint of type LOAD_BALANCER). Ready as soon as it exists; the request
// and the answer are streamed, each bounded by the payload limit.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sendError } from '../http.js';
import { byteLimit, forwardedRequestHeaders, isHopByHop, TooLarge } from './forward-limits.js';
import type { ForwardedRequest, LbWorker, LbWorkerState } from './worker.js';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export class FetchWorker implements LbWorker {
  state: LbWorkerState = 'ready';
  inFlight = 0;
  onState?: (state: LbWorkerState) => void;

  constructor(
    readonly id: string,
    private readonly handler: FetchHandler,
    private readonly maxPayloadBytes: number,
  ) {}

  async serve({ req, res, path, search }: ForwardedRequest): Promise<void> {
    const method = req.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const headers = new Headers();
    for (const [name, value] of Object.entries(forwardedRequestHeaders(req.headers))) {
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    let tooLarge = false;
    const body = hasBody ? req.pipe(byteLimit(this.maxPayloadBytes)).on('error', (error) => { tooLarge = error instanceof TooLarge; }) : undefined;
    let response: Response;
    try {
      const request = new Request(`http://localhost${path}${search === '' ? '' : `?${search}`}`, {
        method, headers,
        ...(body ? { body: Readable.toWeb(body) as ReadableStream, duplex: 'half' } : {}),
      } as RequestInit);
      response = await this.handler(request);
      if (!(response instanceof Response)) throw new TypeError(`the handler returned ${response === null ? 'null' : typeof response}, not a Response`);
    } catch (error) {
      req.resume();
      if (tooLarge) return sendError(res, 413, `request body exceeds ${this.maxPayloadBytes} bytes`);
      // As an HTTP framework answers an uncaught error: the worker's own 500.
      return sendError(res, 500, `worker error: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (tooLarge) return sendError(res, 413, `request body exceeds ${this.maxPayloadBytes} bytes`);
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (!isHopByHop(name) && name !== 'set-cookie') out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;
    res.writeHead(response.status, out);
    if (!response.body || method === 'HEAD') return void res.end();
    try {
      await pipeline(Readable.fromWeb(response.body as never), byteLimit(this.maxPayloadBytes), res);
    } catch {
      // An answer past the limit, or a stream that failed midway: the connection is cut, the mock stays up.
      res.destroy();
    }
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    this.onState?.('stopped');
  }
}
