// Requests to a load-balancing endpoint's own address (LB-* rules): `target.lbUrl` with `{id}` filled in,
// then the worker's path. Not an operation of any spec (the worker defines its paths), so the answer is not
// schema-checked, but it is scanned for the suite's secrets like every answer. A `{id}.localhost` address (the
// Host form derived from a queue URL on localhost) is resolved to loopback here, as RFC 6761 lets an
// application do, since the system resolver may not.
import type { LookupFunction } from 'node:net';
import { AnswerTooLarge, exchange, ExchangeTimeout, type ExchangeAnswer } from '../contract/exchange.js';
import { CheckFailure, type Answer, type Http } from './http.js';

export interface DirectRequest {
  method: string;
  /** The worker's path, starting with '/'. */
  path: string;
  /** Already encoded, without '?'. */
  search?: string;
  headers?: Record<string, string>;
  body?: string;
  /** API key; null sends none. Default: the target's full key. */
  key?: string | null;
  /** Bound for the answer; default the suite's request timeout. */
  timeoutMs?: number;
}

/** Answers are read up to this many bytes (the echo of a probe is small; a bigger answer is cut and reported). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The full address of `path` on endpoint `endpointId`'s workers. */
export function lbAddress(template: string, endpointId: string, path: string, search = ''): string {
  return `${template.replace('{id}', encodeURIComponent(endpointId))}${path}${search === '' ? '' : `?${search}`}`;
}

const loopback: LookupFunction = (_hostname, options, callback) => {
  if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

export async function sendDirect(http: Http, endpointId: string, request: DirectRequest): Promise<Answer> {
  const template = http.target.lbUrl;
  if (!template) throw new CheckFailure('no load-balancing address: give --lb-url');
  const address = lbAddress(template, endpointId, request.path, request.search);
  const what = `${request.method} ${request.path} (load-balancing endpoint ${endpointId})`;
  const headers: Record<string, string> = { ...request.headers };
  const key = request.key === undefined ? http.target.apiKey : request.key;
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  http.calls++;
  http.usage?.record('queueV2');
  http.usage?.countCall();
  const url = new URL(address);
  const local = url.hostname === 'localhost' || url.hostname.endsWith('.localhost');
  const timeoutMs = request.timeoutMs ?? http.requestTimeoutMs;
  let answer: ExchangeAnswer;
  try {
    answer = await exchange({ method: request.method, url, headers, body: request.body, timeoutMs, maxBytes: MAX_ANSWER_BYTES, lookup: local ? loopback : undefined });
  } catch (error) {
    if (error instanceof ExchangeTimeout) throw new CheckFailure(`${what}: no answer within ${timeoutMs / 1000} s`);
    if (error instanceof AnswerTooLarge) throw new CheckFailure(`${what}: answer over ${MAX_ANSWER_BYTES} bytes`);
    throw new CheckFailure(`${what}: request failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { status, text, headers: answerHeaders } = answer;
  let body: unknown;
  if ((answerHeaders.get('content-type') ?? '').includes('json') && text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new CheckFailure(`${what} answered ${status} with a JSON content-type but a body that is not JSON`);
    }
  }
  const leak = http.secrets.find(text, body);
  if (leak) throw new CheckFailure(`secret leaked: ${what} answered ${status} containing the ${leak}`);
  return { status, body, text, headers: answerHeaders };
}
