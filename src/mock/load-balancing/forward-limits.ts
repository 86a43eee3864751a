// Bounds of a forwarded request and answer (x-load-balancing-endpoints.directAccess): the payload limit both
// ways, and the headers a proxy never passes on.
import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { loadBalancingFacts } from './facts.js';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the caller's key (x-load-balancing-endpoints.directAccess.forwarding): never forwarded to a worker; hop-by-hop ones not back either. */
const STRIPPED = new Set(loadBalancingFacts.directAccess.forwarding.strippedHeaders);

/** A request's headers for the worker: all but STRIPPED (from the parsed headers the front already read). */
export function forwardedRequestHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !STRIPPED.has(name)) out[name] = value;
  }
  return out;
}

/** A worker's answer headers for the caller, from its raw list: all but the hop-by-hop ones. */
export function answerHeaders(raw: readonly string[]): Record<string, string | string[]> {
  return headersFromRaw(raw, (name) => name !== 'authorization' && STRIPPED.has(name));
}

function headersFromRaw(raw: readonly string[], dropped: (lowerName: string) => boolean): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (dropped(name)) continue;
    const value = raw[i + 1]!;
    const seen = out[name];
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

export function isHopByHop(name: string): boolean {
  const lower = name.toLowerCase();
  return lower !== 'authorization' && STRIPPED.has(lower);
}

export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super(`payload exceeds ${limit} bytes`);
  }
}

/** Passes bytes through until `limit`; one more byte fails the stream with TooLarge. */
export function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) return done(new TooLarge(limit));
      done(null, chunk);
    },
  });
}
