// Replays an official SDK's recorded requests (test/compat/sdk-wire/*.json) against a server and judges
// each answer the way that SDK reads it. The fixture format is described in docs/official-sdks.md.
import { isDeepStrictEqual } from 'node:util';
import { readFileSync } from 'node:fs';
import { SseParser } from '../../src/clients/rest-v2/sse.js';

export interface WireRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

/** How the SDK treats the answer (runpod/api/rest.py + ctl_commands.py for the Python wrapper). */
export type SdkReading =
  | 'returns-body' | 'returns-key' | 'returns-none' | 'ignores-body' | 'none-on-404' | 'value-error-on-404'
  | 'raises-query-error' | 'raises-auth-error' | 'events';

export interface WireExpectation {
  sdk: SdkReading;
  key?: string;
  status?: number;
  match?: Record<string, unknown>;
  contains?: Record<string, unknown[]>;
  absent?: string[];
  minItems?: number;
  minEvents?: number;
  after?: string;
  source?: string;
  retryAfter?: boolean;
}

export interface WireStep {
  helper: string;
  request?: WireRequest;
  expect?: WireExpectation;
  save?: string;
  wait?: { ms: number };
}

export interface WireFixture {
  sdk: string;
  version: string;
  headers: Record<string, string>;
  steps: WireStep[];
  rateLimited?: WireStep;
}

export function loadWireFixture(name: string): WireFixture {
  return JSON.parse(readFileSync(new URL(`./sdk-wire/${name}`, import.meta.url), 'utf8')) as WireFixture;
}

/** What a replay needs from the server under test. */
export interface ReplayTarget {
  /** The SDK's base URL (RUNPOD_API_BASE_URL): the mock's root. */
  baseUrl: string;
  apiKey: string;
  /** Lets the server's clock move (steps with `wait`). */
  advance(ms: number): void;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json?: unknown;
  events?: { id?: string; data: Record<string, unknown> }[];
}

const PLACEHOLDER = /\{\{([A-Za-z0-9]+)(?:\.([^}]*))?\}\}/g;
/** Upper bound on reading one event stream: the mock's streams end after 30 s at the latest. */
const STREAM_READ_BOUND_MS = 15_000;

export function pointer(value: unknown, path: string): unknown {
  if (path === '') return value;
  let node = value;
  for (const raw of path.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Saved answers of earlier steps and the API key, for `{{name./pointer}}` placeholders. */
export class Replay {
  private readonly saved = new Map<string, unknown>();

  constructor(private readonly fixture: WireFixture, private readonly target: ReplayTarget) {}

  /** A value the test set up before the replay (e.g. the endpoint the SDK is pointed at). */
  remember(name: string, value: unknown): void {
    this.saved.set(name, value);
  }

  private lookup(name: string, path: string | undefined): unknown {
    if (name === 'apiKey') return this.target.apiKey;
    if (!this.saved.has(name)) throw new Error(`placeholder {{${name}}}: no earlier step saved "${name}"`);
    const value = pointer(this.saved.get(name), path ?? '');
    if (value === undefined) throw new Error(`placeholder {{${name}.${path}}}: nothing there`);
    return value;
  }

  /** Substitutes placeholders; a string that is one placeholder becomes the value itself (any type). */
  resolve(value: unknown, encode?: (s: string) => string): unknown {
    if (typeof value === 'string') {
      const whole = /^\{\{([A-Za-z0-9]+)(?:\.([^}]*))?\}\}$/.exec(value);
      if (whole && encode === undefined) return this.lookup(whole[1]!, whole[2]);
      return value.replace(PLACEHOLDER, (_, name: string, path: string | undefined) => (encode ?? String)(String(this.lookup(name, path))));
    }
    if (Array.isArray(value)) return value.map((v) => this.resolve(v, encode));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.resolve(v, encode)]));
    return value;
  }

  /** Runs one step; the problems found (empty = the SDK reads the answer as the fixture says). */
  async step(step: WireStep): Promise<string[]> {
    if (step.wait) {
      this.target.advance(step.wait.ms);
      return [];
    }
    if (!step.request || !step.expect) return [`step "${step.helper}" has neither wait nor request + expect`];
    const answer = await this.send(step.request, step.expect.sdk === 'events' ? step.expect.minEvents ?? 1 : undefined);
    const problems = judge(answer, step.expect, (v) => this.resolve(v));
    if (step.save !== undefined) this.saved.set(step.save, step.expect.sdk === 'events' ? answer.events?.map((e) => ({ id: e.id, ...e.data })) : answer.json);
    return problems;
  }

  /** `enoughEvents`: an event stream is read until that many events arrived (or it ended). */
  private async send(request: WireRequest, enoughEvents: number | undefined): Promise<Answer> {
    const path = this.resolve(request.path, encodeURIComponent) as string;
    const query = new URLSearchParams(this.resolve(request.query ?? {}) as Record<string, string>).toString();
    const headers = this.resolve({ ...this.fixture.headers, ...request.headers }) as Record<string, string>;
    const body = request.body === undefined ? undefined : JSON.stringify(this.resolve(request.body));
    const abort = new AbortController();
    const bound = setTimeout(() => abort.abort(), STREAM_READ_BOUND_MS);
    try {
      const response = await fetch(`${this.target.baseUrl.replace(/\/+$/, '')}${path}${query ? `?${query}` : ''}`, { method: request.method, headers, body, signal: abort.signal });
      if (enoughEvents !== undefined && response.ok) return { status: response.status, headers: response.headers, text: '', events: await readEvents(response, enoughEvents) };
      const text = await response.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    } finally {
      clearTimeout(bound);
      abort.abort();
    }
  }
}

/** Reads events until the stream ends or the read bound aborts it (the SDK's max_wait does the same). */
async function readEvents(response: Response, enough: number): Promise<{ id?: string; data: Record<string, unknown> }[]> {
  const parser = new SseParser();
  const events: { id?: string; data: Record<string, unknown> }[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const e of parser.feed(value)) events.push({ ...(e.id !== undefined ? { id: e.id } : {}), data: JSON.parse(e.data) as Record<string, unknown> });
      // A live stream stays open: stop once the step has what it checks, as the SDK's max_wait ends a snapshot.
      if (events.length >= enough) break;
    }
  } catch {
    // aborted by the read bound
  }
  return events;
}

function judge(answer: Answer, expected: WireExpectation, resolve: (v: unknown) => unknown): string[] {
  const problems: string[] = [];
  const say = (m: string) => problems.push(`${m} (answer ${answer.status}: ${answer.text.slice(0, 300)})`);
  const success = answer.status < 400;
  // The SDK calls response.json() on every 2xx with content: it must be JSON.
  if (success && expected.sdk !== 'events' && answer.text !== '' && answer.json === undefined) say('a success answer whose body is not JSON');
  switch (expected.sdk) {
    case 'returns-body':
    case 'returns-key':
      if (!success || answer.status === 204 || answer.json === null || typeof answer.json !== 'object') say('expected a JSON object the helper returns');
      break;
    case 'returns-none':
      if (!success || (answer.status !== 204 && answer.text !== '')) say('expected 204 or an empty body (the helper returns None)');
      break;
    case 'ignores-body':
      if (!success) say('expected a success status');
      break;
    case 'none-on-404':
    case 'value-error-on-404':
      if (answer.status !== 404) say('expected 404');
      break;
    case 'raises-auth-error':
      if (answer.status !== 401) say('expected 401 (AuthenticationError)');
      break;
    case 'raises-query-error':
      problems.push(...queryErrorProblems(answer, expected));
      break;
    case 'events':
      problems.push(...eventProblems(answer, expected, resolve));
      break;
  }
  if (problems.length > 0) return problems;
  const body = expected.key !== undefined ? pointer(answer.json, `/${expected.key}`) : answer.json;
  if (expected.key !== undefined && !Array.isArray(body)) say(`the helper reads "${expected.key}": not a list`);
  if (expected.minItems !== undefined && (!Array.isArray(body) || body.length < expected.minItems)) say(`"${expected.key}" has fewer than ${expected.minItems} items`);
  for (const [path, want] of Object.entries(expected.match ?? {})) {
    const got = pointer(answer.json, path);
    if (!isDeepStrictEqual(got, resolve(want))) say(`${path} is ${JSON.stringify(got)}, expected ${JSON.stringify(resolve(want))}`);
  }
  for (const [path, wanted] of Object.entries(expected.contains ?? {})) {
    const seen = (Array.isArray(body) ? body : []).map((item) => pointer(item, path));
    for (const want of resolve(wanted) as unknown[]) if (!seen.some((s) => isDeepStrictEqual(s, want))) say(`no item with ${path} = ${JSON.stringify(want)}`);
  }
  for (const path of expected.absent ?? []) if (pointer(answer.json, path) !== undefined) say(`${path} must not be in the answer`);
  return problems;
}

/** rest.py: QueryError(message = detail or title or the text, status_code, errors, retry_after = float(Retry-After)). */
function queryErrorProblems(answer: Answer, expected: WireExpectation): string[] {
  const problems: string[] = [];
  if (expected.status !== undefined && answer.status !== expected.status) problems.push(`expected ${expected.status}, got ${answer.status}`);
  if (answer.status < 400 || answer.status === 401) problems.push(`expected an error status other than 401, got ${answer.status}`);
  if (!(answer.headers.get('content-type') ?? '').startsWith('application/problem+json')) problems.push(`Content-Type ${answer.headers.get('content-type')}, not application/problem+json`);
  const body = answer.json as { detail?: unknown; title?: unknown; errors?: unknown } | undefined;
  const message = typeof body?.detail === 'string' && body.detail !== '' ? body.detail : body?.title;
  if (typeof message !== 'string' || message === '') problems.push('no detail or title for QueryError.message');
  if (body?.errors !== undefined && !Array.isArray(body.errors)) problems.push('errors is not a list');
  if (expected.retryAfter) {
    const seconds = Number.parseFloat(answer.headers.get('retry-after') ?? '');
    if (!Number.isFinite(seconds) || seconds < 0) problems.push(`Retry-After "${answer.headers.get('retry-after')}" is no number of seconds (QueryError.retry_after)`);
  }
  return problems;
}

/** ctl_commands._iter_logs: json.loads(event.data) per event, `id` kept for Last-Event-ID. */
function eventProblems(answer: Answer, expected: WireExpectation, resolve: (v: unknown) => unknown): string[] {
  if (answer.status !== 200) return [`expected 200, got ${answer.status}`];
  if (!(answer.headers.get('content-type') ?? '').startsWith('text/event-stream')) return [`Content-Type ${answer.headers.get('content-type')}, not text/event-stream`];
  const events = answer.events ?? [];
  const problems: string[] = [];
  if (events.length < (expected.minEvents ?? 1)) problems.push(`${events.length} events, expected at least ${expected.minEvents ?? 1}`);
  const after = expected.after === undefined ? undefined : String(resolve(expected.after));
  for (const e of events) {
    if (e.id === undefined) problems.push('an event without id (Last-Event-ID cannot resume)');
    for (const field of ['ts', 'source', 'line']) if (typeof e.data[field] !== 'string') problems.push(`an event's data lacks ${field}`);
    if (after !== undefined && e.id !== undefined && e.id <= after) problems.push(`event ${e.id} repeats or precedes Last-Event-ID ${after}`);
    if (expected.source !== undefined && e.data['source'] !== expected.source) problems.push(`an event of source ${String(e.data['source'])}, asked for ${expected.source}`);
  }
  return problems;
}
