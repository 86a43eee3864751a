// Test harness: a virtual-clock mock on 127.0.0.1:0 with the control API, and request helpers that
// validate every REST v1 / queue v2 response against the generated validators and every GraphQL answer
// against the SDL.
import { checkGraphqlAnswer } from '../../src/contract/graphql-shape.js';
import { exchange } from '../../src/contract/exchange.js';
import { expect } from 'vitest';
import { validateResponse } from '../../src/validation/index.js';
import { startMock, type MockOptions, type RunningMock } from '../../src/mock/index.js';
import { Router } from '../../src/mock/router.js';
import { mockOperations } from '../../src/mock/spec-facts.js';
import { surfaceOfV2Segment } from '../../src/contract/url-layout.js';

export const KEY = 'test-key';
/** Larger than any answer of the mock the tests read (a 16 MiB secret is refused, never echoed). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const router = new Router(mockOperations);

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class Harness {
  private constructor(readonly mock: RunningMock) {}

  static async start(options: MockOptions = {}): Promise<Harness> {
    const mock = await startMock({
      clock: 'virtual', control: true, port: 0, host: '127.0.0.1',
      apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }], ...options,
    });
    return new Harness(mock);
  }

  close(): Promise<void> {
    return this.mock.close();
  }

  /** Any request; REST v1 and queue v2 answers are checked against the spec. */
  async request(method: string, url: string, options: { body?: unknown; key?: string | null; rawBody?: string; headers?: Record<string, string> } = {}): Promise<Res> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? KEY : options.key;
    if (key !== null) headers['authorization'] = `Bearer ${key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    // node:http with a kept-alive connection, as the conformance suite talks to a target (src/contract/exchange.ts):
    // fetch costs ~1 ms more CPU per request, and the mock tests make thousands. The mock neither compresses nor
    // redirects its API answers, so the answer is the same.
    const response = await exchange({ method, url, headers, body, maxBytes: MAX_ANSWER_BYTES });
    const parsed = response.text === '' ? undefined : JSON.parse(response.text);
    this.checkAgainstSpec(method, url, response.status, parsed);
    return { status: response.status, body: parsed, headers: response.headers };
  }

  private checkAgainstSpec(method: string, url: string, status: number, body: unknown): void {
    const path = new URL(url).pathname;
    let match;
    if (path.startsWith('/v1/')) match = router.match('restV1', method, path.slice(3));
    // REST v2 (/v2/<collection>/…) answers are checked by its own tests; queue v2 is /v2/{endpointId}/….
    else if (path.startsWith('/v2/') && surfaceOfV2Segment(path.split('/')[2]!) === 'queueV2') match = router.match('queueV2', method, path.slice(path.indexOf('/', 4)));
    if (!match || match === 'method') return;
    const issues = validateResponse(match.op.surface, match.op.operationId, status, body);
    expect(issues, `${method} ${path} → ${status} ${JSON.stringify(body)}`).toEqual([]);
  }

  rest(method: string, path: string, body?: unknown, key?: string | null): Promise<Res> {
    return this.request(method, `${this.mock.restV1Url}${path}`, { body, key });
  }

  queue(endpointId: string, method: string, path: string, body?: unknown, key?: string | null): Promise<Res> {
    return this.request(method, `${this.mock.queueV2Url(endpointId)}${path}`, { body, key });
  }

  async graphql(query: string, variables?: Record<string, unknown>, key: string | null = KEY): Promise<Res> {
    const url = key === null ? this.mock.graphqlUrl : `${this.mock.graphqlUrl}?api_key=${encodeURIComponent(key)}`;
    const res = await this.request('POST', url, { body: { query, variables }, key: null });
    // Every GraphQL answer against the SDL: envelope, and data typed and shaped as the query selects.
    expect(checkGraphqlAnswer(query, res.body), `GraphQL ${query} → ${res.status} ${JSON.stringify(res.body)}`).toEqual([]);
    return res;
  }

  async control(method: string, path: string, body?: unknown): Promise<Res> {
    return this.request(method, `${this.mock.controlUrl}${path}`, { body, key: null });
  }

  /** Resolves once `count` requests are open at the mock (so a clock advance cannot overtake them). */
  async untilOpen(count: number): Promise<void> {
    for (let i = 0; i < 400 && this.mock.core.openRequests < count; i++) await new Promise((r) => setTimeout(r, 5));
    expect(this.mock.core.openRequests, 'requests open at the mock').toBeGreaterThanOrEqual(count);
  }

  async advance(ms: number): Promise<void> {
    const res = await this.control('POST', '/clock/advance', { ms });
    expect(res.status).toBe(200);
  }

  async template(overrides: Record<string, unknown> = {}): Promise<string> {
    const res = await this.rest('POST', '/templates', { name: `tpl-${Math.random().toString(36).slice(2)}`, imageName: 'repo/worker:1', isServerless: true, volumeInGb: 0, ...overrides });
    expect(res.status).toBe(200);
    return res.body.id;
  }

  /** A queue endpoint (with a fresh template). */
  async endpoint(overrides: Record<string, unknown> = {}): Promise<string> {
    const templateId = (overrides['templateId'] as string | undefined) ?? (await this.template());
    const res = await this.rest('POST', '/endpoints', { name: 'ep', templateId, workersMin: 0, workersMax: 1, ...overrides });
    expect(res.status).toBe(200);
    return res.body.id;
  }

  async run(endpointId: string, input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await this.queue(endpointId, 'POST', '/run', { input, ...extra });
    expect(res.status).toBe(200);
    return res.body.id;
  }

  status(endpointId: string, jobId: string): Promise<Res> {
    return this.queue(endpointId, 'GET', `/status/${jobId}`);
  }
}
