// Helpers of the REST v2 pod, log and cluster tests: a virtual-clock mock whose REST v2 answers are
// checked against the spec, and a bounded Server-Sent Events reader.
import { expect } from 'vitest';
import { SseParser, type SseEvent } from '../../src/clients/rest-v2/sse.js';
import { Router } from '../../src/mock/router.js';
import { mockOperations } from '../../src/mock/spec-facts.js';
import { validateResponse } from '../../src/validation/index.js';
import { Harness, KEY, type Res } from './harness.js';

const router = new Router(mockOperations);

export interface V2Mock {
  h: Harness;
  /** One REST v2 request (`path` after /v2); JSON answers are checked against the spec. */
  v2(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  advance(ms: number): void;
  close(): Promise<void>;
}

/** A mock with a virtual clock and REST v2 quotas high enough for a test's requests. */
export async function startV2(options: Parameters<typeof Harness.start>[0] = {}): Promise<V2Mock> {
  const h = await Harness.start({ rateLimits: 1000, ...options });
  const base = h.mock.restV2Url;
  return {
    h,
    async v2(method, path, body, headers = {}) {
      const res = await h.request(method, `${base}${path}`, { body, headers });
      const match = router.match('restV2', method, `/v2${path.split('?')[0]}`);
      if (match && match !== 'method') {
        const issues = validateResponse('restV2', match.op.operationId, res.status, res.body);
        expect(issues, `${method} /v2${path} → ${res.status} ${JSON.stringify(res.body)}`).toEqual([]);
      }
      return res;
    },
    advance: (ms) => void h.mock.clock.advance(ms),
    close: () => h.close(),
  };
}

export interface LogEvent {
  id: string | undefined;
  source: string;
  line: string;
  ts: string;
}

export const toLogEvent = (e: SseEvent): LogEvent => ({ id: e.id, ...(JSON.parse(e.data) as Omit<LogEvent, 'id'>) });

export interface OpenStream {
  status: number;
  headers: Headers;
  /** The raw text received so far. */
  text: () => string;
  /** Resolves once `count` events arrived in total (or the stream ended): all events so far. */
  events(count: number): Promise<LogEvent[]>;
  /** Resolves when the server ends the stream: every event. */
  ended(): Promise<LogEvent[]>;
  close(): void;
}

/** Opens an SSE stream of the mock (`path` after /v2); reads in the background until closed or ended. */
export async function openStream(mock: V2Mock, path: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(`${mock.h.mock.restV2Url}${path}`, { headers: { authorization: `Bearer ${KEY}`, ...headers }, signal: abort.signal });
  const parser = new SseParser();
  const events: LogEvent[] = [];
  let raw = '';
  let done = false;
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const pump = (async () => {
    if (!response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        raw += value;
        for (const e of parser.feed(value)) events.push(toLogEvent(e));
        wake();
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      wake();
    }
  })();
  const until = async (ready: () => boolean) => {
    // Bounded: a stream of the mock ends after 30 s of real time at the latest.
    for (let i = 0; i < 10_000 && !ready(); i++) await new Promise<void>((r) => waiters.push(r));
  };
  return {
    status: response.status,
    headers: response.headers,
    text: () => raw,
    async events(count) {
      await until(() => done || events.length >= count);
      return [...events];
    },
    async ended() {
      await until(() => done);
      await pump;
      return [...events];
    },
    close: () => abort.abort(),
  };
}

/** The number n of a container line "[n] …". */
export const lineNumber = (e: LogEvent): number => Number(/^\[(\d+)\]/.exec(e.line)?.[1] ?? Number.NaN);

export const GPU = { id: 'NVIDIA GeForce RTX 4090', count: 1 };

/** Creates a GPU pod through REST v2 and returns its body. */
export async function v2Pod(mock: V2Mock, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await mock.v2('POST', '/pods', { name: 'pod', image: 'img:1', gpu: GPU, ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
