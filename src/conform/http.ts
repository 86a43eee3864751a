// Every call the suite makes goes through here: the answer is checked against the spec (status,
// required fields, types, enums) and scanned for the secrets the suite itself sent.
import { getOperation, validateResponse, type Surface } from '../validation/index.js';

/** Surfaces with the REST v1 error body ({message, errors?}); REST v2 answers problem details (RESTV2-* checks). */
export type HttpSurface = Exclude<Surface, 'restV2'>;
/** Narrows an operations-table entry to a surface whose generic checks (auth, HTTP) expect the v1 error body. */
export const isHttpSurface = (surface: Surface): surface is HttpSurface => surface !== 'restV2';
import { controlHeaders, type TargetConfig } from './target.js';
import { checkGraphqlAnswer } from '../contract/graphql-shape.js';
import type { Usage } from './needs.js';
import { requireUrl, surfaceOfUrl } from './surfaces.js';
import { queryStylesOf, querySuffix, type QueryStyles } from '../contract/query-style.js';
import { exchange, ExchangeTimeout, type ExchangeAnswer } from '../contract/exchange.js';

/** A failed expectation; the message names the operation and JSON path, never a secret value. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
}

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  path?: Record<string, string>;
  query?: Record<string, string | number | readonly string[]>;
  body?: unknown;
  /** Sent verbatim (malformed JSON, oversized bodies). */
  rawBody?: string;
  /** API key; null sends none. Default: the target's full key. */
  key?: string | null;
  headers?: Record<string, string>;
  endpointId?: string;
  signal?: AbortSignal;
}

/** Secret values the suite sent, by label; answers must never contain them. */
export class SecretBook {
  private readonly values = new Map<string, string>();
  /** One pattern of every value but the `recent` ones: V8 scans text for a few hundred literals at once ~60× faster than includes() per value. */
  private pattern: RegExp | undefined;
  /** Values added since the pattern was built, searched one by one (rebuilding it per value would cost more). */
  private recent: string[] = [];
  /** Values too long for the pattern, searched one by one. */
  private readonly long: string[] = [];
  add(value: string, label: string): string {
    if (value.length < 8) return value;
    if (!this.values.has(value)) (value.length > PATTERN_VALUE_MAX_CHARS ? this.long : this.recent).push(value);
    this.values.set(value, label);
    if (this.recent.length > RECENT_SECRETS_MAX) {
      this.pattern = new RegExp([...this.values.keys()].filter((v) => v.length <= PATTERN_VALUE_MAX_CHARS).map(escapeRegExp).join('|'));
      this.recent = [];
    }
    return value;
  }
  entries(): IterableIterator<[string, string]> {
    return this.values.entries();
  }
  /** Returns "label at /json/path" for a secret found in text, else undefined. */
  find(text: string, parsed: unknown): string | undefined {
    const value = this.pattern?.exec(text)?.[0] ?? this.recent.find((v) => text.includes(v)) ?? this.long.find((v) => text.includes(v));
    if (value === undefined) return undefined;
    return `${this.values.get(value)} at ${pathOf(parsed, value) ?? '(raw body)'}`;
  }
}

const RECENT_SECRETS_MAX = 16;
const PATTERN_VALUE_MAX_CHARS = 1024;
const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function pathOf(node: unknown, needle: string, at = ''): string | undefined {
  if (typeof node === 'string') return node.includes(needle) ? at || '/' : undefined;
  if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      const hit = pathOf(v, needle, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** queue v2 operations that hold the request until a job progresses (or their wait runs out). */
const HOLDING_OPERATIONS = new Set(['runJobSync', 'getJobStatusSync', 'streamJob', 'openaiProxy']);

/** The longest answer read (a 20 MiB job result with its JSON around it fits); a longer one fails its check. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Default bound for one answer (held queue requests excepted: their own wait bounds them). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

export class Http {
  calls = 0;
  /** A request without an answer by then fails its check (a target that never answers must not stall the run). */
  requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  constructor(
    readonly target: TargetConfig,
    readonly secrets: SecretBook,
    /** Records which surfaces the running check reaches (see needs.ts). */
    readonly usage?: Usage,
  ) {}

  url(surface: Surface, operationId: string, options: CallOptions = {}): string {
    const op = getOperation(surface, operationId);
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = options.path?.[name];
      if (value === undefined) throw new Error(`${operationId}: missing path parameter ${name}`);
      // x-multi-segment parameters (openaiPath) keep their slashes.
      return name === 'openaiPath' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
    });
    this.usage?.record(surface);
    if (surface === 'restV2') this.usage?.touch('restV2-quota');
    let base: string;
    if (surface === 'restV1') base = requireUrl(this.target, 'restV1');
    else if (surface === 'restV2') {
      // restV2Url ends in /v2 (https://api.runpod.io/v2, the mock's …/v2); the spec's paths carry /v2 too.
      return this.withQuery(`${requireUrl(this.target, 'restV2')}${path.replace(/^\/v2/, '')}`, options, queryStylesOf(surface, operationId));
    } else {
      const endpointId = options.endpointId ?? this.target.endpointId;
      if (!endpointId) throw new Error(`${operationId}: no endpoint id`);
      base = `${requireUrl(this.target, 'queueV2')}/${encodeURIComponent(endpointId)}`;
    }
    return this.withQuery(`${base}${path}`, options, queryStylesOf(surface, operationId));
  }

  /** Lists as the operation's spec declares them (src/contract/query-style.ts). */
  private withQuery(url: string, options: CallOptions, styles: QueryStyles): string {
    return `${url}${querySuffix(options.query, styles)}`;
  }

  /** One REST v1 / queue v2 / REST v2 operation; the answer is validated unless it is a transport failure. */
  async call<T = any>(surface: Surface, operationId: string, options: CallOptions = {}): Promise<Answer<T>> {
    const op = getOperation(surface, operationId);
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? this.target.apiKey : options.key;
    if (key !== null) headers['authorization'] ??= `Bearer ${key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const holds = surface === 'queueV2' && HOLDING_OPERATIONS.has(operationId);
    const answer = await this.send<T>(op.method, this.url(surface, operationId, options), headers, body, options.signal, operationId, holds);
    // An accepted held request waits on a job's progress: the check needs jobs that finish.
    if (answer.status === 200 && surface === 'queueV2' && HOLDING_OPERATIONS.has(operationId)) this.usage?.record('jobs');
    this.checkSchema(surface, operationId, answer);
    return answer;
  }

  checkSchema(surface: Surface, operationId: string, answer: Answer): void {
    const issues = validateResponse(surface, operationId, answer.status, answer.body);
    if (issues.length > 0) {
      const first = issues.slice(0, 3).map((i) => `${i.path} ${i.message}`).join('; ');
      throw new CheckFailure(`schema: ${operationId} answered ${answer.status} not matching the spec: ${first}`);
    }
  }

  /** A GraphQL request; key in ?api_key= by default, or as a Bearer header, or none. */
  async graphql<T = any>(
    query: string,
    variables: Record<string, unknown> = {},
    options: { key?: string | null; via?: 'query' | 'bearer'; url?: string } = {},
  ): Promise<Answer<T>> {
    const key = options.key === undefined ? this.target.apiKey : options.key;
    if (options.url === undefined) this.usage?.record('graphql');
    const url = new URL(options.url ?? requireUrl(this.target, 'graphql'));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key !== null) {
      if (options.via === 'bearer') headers['authorization'] = `Bearer ${key}`;
      else url.searchParams.set('api_key', key);
    }
    const answer = await this.send<T>('POST', url.toString(), headers, JSON.stringify({ query, variables }), undefined, 'graphql');
    if (answer.status === 200) {
      const issues = checkGraphqlAnswer(query, answer.body);
      if (issues.length > 0) throw new CheckFailure(`schema: GraphQL answer not matching the SDL: ${issues.slice(0, 3).join('; ')}`);
    } else if (!isErrorsBody(answer.body)) {
      throw new CheckFailure(`schema: GraphQL answered ${answer.status} without an errors[] body`);
    }
    return answer;
  }

  /** Outside the spec (control API, version probes): still scanned for secrets. */
  raw<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const surface = surfaceOfUrl(this.target, url);
    if (surface) this.usage?.record(surface);
    const control = this.target.controlUrl;
    // Clock advances touch the clock; the rate-limit route only the endpoint's own window; the rest is target-wide.
    if (control && url.startsWith(`${control}/`) && !url.startsWith(`${control}/rate-limits/`)) this.usage?.touch(url.startsWith(`${control}/clock`) ? 'clock' : 'control');
    if (control && url.startsWith(`${control}/`)) headers = { ...controlHeaders(this.target), ...headers };
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    return this.send<T>(method, url, headers, body === undefined ? undefined : JSON.stringify(body), undefined, `${method} ${new URL(url).pathname}`);
  }

  private async send<T>(method: string, url: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined, what: string, holds = false): Promise<Answer<T>> {
    this.calls++;
    this.usage?.countCall();
    let response: ExchangeAnswer;
    try {
      response = await exchange({ method, url, headers, body, signal, timeoutMs: holds ? undefined : this.requestTimeoutMs, maxBytes: MAX_ANSWER_BYTES });
    } catch (error) {
      if (error instanceof ExchangeTimeout) throw new CheckFailure(`${what}: no answer within ${this.requestTimeoutMs / 1000} s`);
      throw new CheckFailure(`${what}: request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = response.text;
    let parsed: unknown;
    // An event stream (REST v2 logs) is text; its events are parsed by the check that asked for it.
    if (text !== '' && !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new CheckFailure(`schema: ${what} answered ${response.status} with a body that is not JSON`);
      }
    }
    const leak = this.secrets.find(text, parsed) ?? this.headerLeak(response.headers);
    if (leak) throw new CheckFailure(`secret leaked: ${what} answered ${response.status} containing the ${leak}`);
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }

  private headerLeak(headers: Headers): string | undefined {
    let leak: string | undefined;
    headers.forEach((value, name) => {
      const hit = leak ? undefined : this.secrets.find(value, undefined);
      if (hit) leak = `${hit.replace(' at (raw body)', '')} in header ${name}`;
    });
    return leak;
  }
}

function isErrorsBody(body: unknown): boolean {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof (e as { message?: unknown }).message === 'string');
}
