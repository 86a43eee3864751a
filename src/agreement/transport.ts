// Sends fuzz requests to any target over HTTP and reports what came back, including what must never
// happen (a dropped connection, no answer in time). A 429 is waited out (Retry-After: the clock is
// advanced when the target has clock control, else real waiting) and the request sent again.
import { querySuffix } from '../contract/query-style.js';
import { AnswerTooLarge, exchange, ExchangeTimeout, type ExchangeRequest } from '../contract/exchange.js';
import type { RequestCase } from './requests.js';
import { graphqlEnvelope } from './requests.js';

export interface AgreementTarget {
  /** REST v1 base; absent (REST v1 retired): REST v1 is not fuzzed and the fixtures come from REST v2. */
  restUrl?: string;
  /** REST v2 management base ending in /v2 (the spec's paths without their /v2); absent: REST v2 is not fuzzed. */
  restV2Url?: string;
  /** queue v2 base without the endpoint id (…/v2). */
  queueUrl: string;
  /** GraphQL address; absent: GraphQL is not fuzzed. */
  graphqlUrl?: string;
  apiKey: string;
  /** Clock control (POST {controlUrl}/clock/advance {ms}) of a virtual-clock target. */
  controlUrl?: string;
  /** Bearer token of the control API (a mock started with --control-token). */
  controlToken?: string;
}

export interface Answer {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
  /** A Server-Sent Events answer: judged on status and headers; its body was not read (it follows). */
  stream?: boolean;
}

export type Outcome = { kind: 'answer'; answer: Answer } | { kind: 'dropped' | 'timeout'; message: string };

export interface TransportOptions {
  /** Per-request limit for requests that do not hold (ms). */
  timeoutMs?: number;
  /** Most real waiting for one Retry-After without clock control (ms). */
  maxRetryWaitMs?: number;
}

/** What is sent besides the URL. */
interface RequestParts {
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

const HOLD_STEP_MS = 1_000;
/** The longest answer read (a listing of a large account fits many times over); a longer one is a failure. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const HOLD_DEFAULT_MS = 90_000;
const HOLD_MAX_MS = 300_000;
const MAX_RATE_RETRIES = 4;

export class Transport {
  requests = 0;
  rateLimited = 0;
  /**
   * Moves each time a call to the target starts or ends, or its clock is moved: an observation of stored state
   * made when it stood where it stands now still holds (nothing was sent since).
   */
  changes = 0;
  private readonly timeoutMs: number;
  private readonly maxRetryWaitMs: number;

  constructor(readonly target: AgreementTarget, options: TransportOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 10_000;
  }

  /** A generated request; `endpointId` is the queue v2 endpoint for queue operations. */
  async send(c: RequestCase, endpointId?: string): Promise<Outcome> {
    const { url, init } = this.build(c, endpointId);
    const holds = c.op.params.some((p) => p.name === 'wait');
    // The wait the server may hold the request for (a broken wait value is refused at once).
    const wait = Number(c.query['wait'] ?? HOLD_DEFAULT_MS);
    const waitMs = Number.isFinite(wait) ? Math.min(Math.max(wait, 0), HOLD_MAX_MS) : HOLD_DEFAULT_MS;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.fetchOnce(url, init, holds ? waitMs + this.timeoutMs : this.timeoutMs, holds);
      if (outcome.kind !== 'answer' || outcome.answer.status !== 429 || attempt >= MAX_RATE_RETRIES) return outcome;
      this.rateLimited++;
      await this.waitOut(Number(outcome.answer.headers.get('retry-after') ?? 1));
    }
  }

  /** A JSON call outside the generated requests (setup, observation, cleanup). */
  async call(method: string, url: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.target.apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.fetchOnce(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, this.timeoutMs, false);
      if (outcome.kind !== 'answer') throw new Error(`${method} ${new URL(url).pathname}: ${outcome.message}`);
      if (outcome.answer.status !== 429 || attempt >= MAX_RATE_RETRIES) return outcome.answer;
      await this.waitOut(Number(outcome.answer.headers.get('retry-after') ?? 1));
    }
  }

  rest(method: string, path: string, body?: unknown): Promise<Answer> {
    if (this.target.restUrl === undefined) throw new Error('no REST v1 base URL');
    return this.call(method, `${this.target.restUrl}${path}`, body);
  }

  restV2(method: string, path: string, body?: unknown): Promise<Answer> {
    if (!this.target.restV2Url) throw new Error('no REST v2 base URL');
    return this.call(method, `${this.target.restV2Url}${path}`, body);
  }

  queue(endpointId: string, method: string, path: string, body?: unknown): Promise<Answer> {
    return this.call(method, `${this.target.queueUrl}/${encodeURIComponent(endpointId)}${path}`, body);
  }

  graphql(query: string, variables: Record<string, unknown>): Promise<Answer> {
    return this.call('POST', this.graphqlUrl(), { query, variables });
  }

  /** Lets `ms` pass on the target: advances its clock, or waits for real (bounded). */
  async pass(ms: number): Promise<void> {
    this.changes++;
    try {
      await this.passNow(ms);
    } finally {
      this.changes++;
    }
  }

  private async passNow(ms: number): Promise<void> {
    if (this.target.controlUrl) {
      await exchange({
        method: 'POST',
        url: `${this.target.controlUrl}/clock/advance`,
        headers: { 'content-type': 'application/json', ...(this.target.controlToken ? { authorization: `Bearer ${this.target.controlToken}` } : {}) },
        body: JSON.stringify({ ms }),
        timeoutMs: this.timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
      });
    } else {
      await sleep(Math.min(ms, this.maxRetryWaitMs));
    }
  }

  private graphqlUrl(): string {
    if (this.target.graphqlUrl === undefined) throw new Error('no GraphQL address');
    const url = new URL(this.target.graphqlUrl);
    url.searchParams.set('api_key', this.target.apiKey);
    return url.toString();
  }

  private waitOut(retryAfterSeconds: number): Promise<void> {
    return this.pass(Math.max(1, Number.isFinite(retryAfterSeconds) ? retryAfterSeconds : 1) * 1_000);
  }

  private build(c: RequestCase, endpointId?: string): { url: string; init: RequestParts } {
    const headers: Record<string, string> = {};
    let url: string;
    if (c.op.surface === 'graphql') {
      url = this.graphqlUrl();
    } else {
      headers['authorization'] = `Bearer ${this.target.apiKey}`;
      const path = c.op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = c.path[name] ?? '';
        const multi = c.op.params.find((p) => p.name === name)?.multiSegment;
        return multi ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
      });
      const base = c.op.surface === 'restV1' ? this.target.restUrl ?? ''
        : c.op.surface === 'restV2' ? this.target.restV2Url ?? ''
          : `${this.target.queueUrl}/${encodeURIComponent(endpointId ?? '')}`;
      // Lists exactly as the spec declares them (src/contract/query-style.ts): REST v2 comma form, REST v1 repeated keys.
      url = `${base}${path}${querySuffix(c.query, c.op.queryStyles)}`;
    }
    let body: string | undefined;
    if (c.bodyMode === 'raw') body = c.rawBody ?? '';
    else if (c.bodyMode === 'empty') body = '';
    else if (c.bodyMode === 'json') body = JSON.stringify(c.op.surface === 'graphql' ? graphqlEnvelope(c.op, c.body) : c.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    return { url, init: { method: c.op.method, headers, ...(body === undefined ? {} : { body }) } };
  }

  private async fetchOnce(url: string, init: RequestParts, timeoutMs: number, holds: boolean): Promise<Outcome> {
    this.changes++;
    try {
      return await this.fetchOnceCounted(url, init, timeoutMs, holds);
    } finally {
      this.changes++;
    }
  }

  private async fetchOnceCounted(url: string, init: RequestParts, timeoutMs: number, holds: boolean): Promise<Outcome> {
    this.requests++;
    let settled = false;
    try {
      const pending = exchange({ ...init, url, timeoutMs, maxBytes: MAX_ANSWER_BYTES, prefixOf: EVENT_STREAM });
      // A held request (runsync, status-sync) on a virtual clock answers only when time passes.
      if (holds && this.target.controlUrl) void this.advanceWhile(() => !settled, timeoutMs);
      const answer = await pending;
      // An event stream follows new lines for a while: its status, headers and the events already written
      // (the backlog, read for a moment) are the answer; only whole blocks (ending in a blank line) are judged.
      const stream = answer.partial === true;
      const blocksEnd = stream ? answer.text.lastIndexOf('\n\n') : -1;
      const text = !stream ? answer.text : blocksEnd < 0 ? '' : answer.text.slice(0, blocksEnd + 2);
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        /* a body that is not JSON is judged as such */
      }
      return { kind: 'answer', answer: { status: answer.status, body, text, headers: answer.headers, ...(stream ? { stream } : {}) } };
    } catch (error) {
      if (error instanceof ExchangeTimeout) return { kind: 'timeout', message: `no answer within ${timeoutMs} ms` };
      if (error instanceof AnswerTooLarge) return { kind: 'dropped', message: `answer over ${MAX_ANSWER_BYTES} bytes` };
      const { code, message } = error as NodeJS.ErrnoException;
      return { kind: 'dropped', message: `connection dropped: ${code ?? message}` };
    } finally {
      settled = true;
    }
  }

  private async advanceWhile(pending: () => boolean, limitMs: number): Promise<void> {
    for (let passed = 0; pending() && passed <= limitMs; passed += HOLD_STEP_MS) {
      await sleep(5);
      if (!pending()) return;
      await this.pass(HOLD_STEP_MS).catch(() => undefined);
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How much of an event stream is read for judging: the first bytes, for a moment (then it is cancelled). */
export const STREAM_PREFIX_BYTES = 64 * 1024;
export const STREAM_PREFIX_MS = 300;
const EVENT_STREAM: NonNullable<ExchangeRequest['prefixOf']> = {
  contentType: 'text/event-stream',
  ms: STREAM_PREFIX_MS,
  // The backlog comes in one write: once a whole block with data is here, that is enough to judge.
  enough: (text) => text.length >= STREAM_PREFIX_BYTES || /(^|\n)data:[^\n]*\n\n/.test(text),
};
