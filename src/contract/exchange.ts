// One HTTP exchange over node:http(s) with keep-alive agents: the conformance suite's, the agreement phase's and
// the worker runtime's. Not fetch: undici's fetch costs ~1 ms of CPU more per exchange (streams, abort signals,
// header guards), and a full run makes thousands. Redirects are not followed and no compression is asked for:
// the caller judges what the target answers to the request it made, as sent.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export interface ExchangeRequest {
  method: string;
  url: string | URL;
  headers: Record<string, string>;
  body?: string | undefined;
  /** No answer by then: the exchange fails with an ExchangeTimeout. Undefined: no bound but `signal`. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** The answer is read up to this many bytes; a longer one fails the exchange. */
  maxBytes: number;
  lookup?: LookupFunction | undefined;
  /**
   * An answer of this content type that follows for as long as the server likes (an event stream): read until
   * `enough(text so far)`, its end, `maxBytes` or `ms` passed, then the connection is closed; what came is the
   * answer (`partial`). An error while reading it ends the read too: what came is judged.
   */
  prefixOf?: { contentType: string; ms: number; enough: (text: string) => boolean } | undefined;
}

export interface ExchangeAnswer {
  status: number;
  text: string;
  headers: Headers;
  /** Read only in part (`prefixOf`). */
  partial?: boolean;
}

/** The target did not answer within the exchange's timeoutMs. */
export class ExchangeTimeout extends Error {
  override name = 'TimeoutError';
}

/** The answer was longer than the exchange's maxBytes. */
export class AnswerTooLarge extends Error {
  override name = 'AnswerTooLarge';
}

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

function headersOf(res: IncomingMessage): Headers {
  const out = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) out.append(raw[i]!, raw[i + 1]!);
  return out;
}

/**
 * A kept-alive connection the server closed while it was idle, found closed only as the request went out:
 * the server never read the request, so it is sent once more on a fresh connection (node's documented remedy).
 */
class StaleConnection extends Error {}

export function exchange(request: ExchangeRequest): Promise<ExchangeAnswer> {
  return attempt(request, false).catch((error: unknown) => {
    if (error instanceof StaleConnection) return attempt(request, true);
    throw error;
  });
}

function attempt(request: ExchangeRequest, retried: boolean): Promise<ExchangeAnswer> {
  const url = typeof request.url === 'string' ? new URL(request.url) : request.url;
  const secure = url.protocol === 'https:';
  const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
  return new Promise<ExchangeAnswer>((resolve, reject) => {
    const { signal } = request;
    if (signal?.aborted) return void reject(signal.reason);
    const options = { method: request.method, headers, agent: secure ? agents.https : agents.http, ...(request.lookup ? { lookup: request.lookup } : {}) };
    let settled = false;
    let answered = false;
    const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
      answered = true;
      if (request.prefixOf && res.headers['content-type']?.startsWith(request.prefixOf.contentType)) return readPrefix(res, request.prefixOf);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= request.maxBytes) return void chunks.push(chunk);
        fail(new AnswerTooLarge(`answer over ${request.maxBytes} bytes`));
        res.destroy();
      });
      res.on('error', fail);
      res.on('close', () => fail(new Error('the connection closed before the answer ended')));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        done();
        resolve({ status: res.statusCode ?? 0, text: (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8'), headers: headersOf(res) });
      });
    });
    // The first outcome settles the exchange; the errors destroying the request then raises are not news.
    const stop = (error: Error) => {
      fail(error);
      req.destroy();
    };
    const timer = request.timeoutMs === undefined ? undefined : setTimeout(() => stop(new ExchangeTimeout('no answer in time')), request.timeoutMs);
    const onAbort = () => stop(signal!.reason instanceof Error ? signal!.reason : new Error(String(signal!.reason)));
    signal?.addEventListener('abort', onAbort, { once: true });
    function readPrefix(res: IncomingMessage, prefix: NonNullable<ExchangeRequest['prefixOf']>): void {
      const decoder = new TextDecoder();
      let text = '';
      let size = 0;
      const deadline = setTimeout(() => end(), prefix.ms);
      function end(): void {
        clearTimeout(deadline);
        res.destroy();
        if (settled) return;
        settled = true;
        done();
        resolve({ status: res.statusCode ?? 0, text, headers: headersOf(res), partial: true });
      }
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        text += decoder.decode(chunk, { stream: true });
        if (prefix.enough(text) || size >= request.maxBytes) end();
      });
      res.on('end', end);
      res.on('error', end);
      res.on('close', end);
    }
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    function fail(error: Error): void {
      if (settled) return;
      settled = true;
      done();
      reject(error);
    }
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!retried && !answered && req.reusedSocket && error.code === 'ECONNRESET') fail(new StaleConnection(error.message));
      else fail(error);
    });
    req.end(request.body);
  });
}
