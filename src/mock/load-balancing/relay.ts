// The bytes of a forwarded request and of the worker's answer, streamed both ways with the payload bound
// (x-load-balancing-endpoints.directAccess.maxPayloadBytes) and back-pressure, and nothing else on the way:
// a body whose Content-Length is within the bound (the front refused a larger one) is piped as it is; only a
// body of unknown length (chunked) is counted chunk by chunk. No Transform stream and no stream/promises
// pipeline per request: those cost an AbortController, a DOMException and two streams per request (the
// profile of bench:lb, docs/workers.md).
import type { IncomingMessage, OutgoingMessage } from 'node:http';

/** Is there a request body to send on? (GET and HEAD carry none unless they say so.) */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Streams `from` into `to` and ends `to`. `declared`: its Content-Length. A source without a declared length within `max` is counted: past
 * `max` bytes `onOverflow` is called once and the copy stops (the caller cuts the connections).
 */
export function relay(from: IncomingMessage, to: OutgoingMessage, max: number, declared: string | string[] | undefined, onOverflow: () => void): void {
  if (typeof declared === 'string' && Number(declared) <= max) {
    from.pipe(to);
    return;
  }
  let seen = 0;
  const resume = () => from.resume();
  from.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > max) {
      from.pause();
      from.removeAllListeners('data');
      return onOverflow();
    }
    if (!to.write(chunk)) {
      from.pause();
      to.once('drain', resume);
    }
  });
  from.on('end', () => {
    if (seen <= max) to.end();
  });
}
