// Harness of the REST v2 resource tests (serverless, volumes, registries, catalog, billing): the v1
// harness (virtual clock, control API, REST v1 + queue v2 checked against their specs) plus REST v2
// requests whose every answer is checked against specs/rest-v2.
import { expect } from 'vitest';
import { Router } from '../../src/mock/router.js';
import { mockOperations } from '../../src/mock/spec-facts.js';
import { validateResponse } from '../../src/validation/index.js';
import { Harness, type Res } from './harness.js';

const router = new Router(mockOperations);

export class V2Harness {
  private constructor(readonly h: Harness) {}

  static async start(options: Parameters<typeof Harness.start>[0] = {}): Promise<V2Harness> {
    return new V2Harness(await Harness.start(options));
  }

  close(): Promise<void> {
    return this.h.close();
  }

  /** A REST v2 request (`path` after /v2, query included); the answer must match the spec. */
  async v2(method: string, path: string, body?: unknown): Promise<Res> {
    const res = await this.h.request(method, `${this.h.mock.restV2Url}${path}`, { body });
    const match = router.match('restV2', method, `/v2${path.split('?')[0]}`);
    expect(match && match !== 'method', `${method} /v2${path} names a REST v2 operation`).toBeTruthy();
    if (match && match !== 'method') {
      const issues = validateResponse('restV2', match.op.operationId, res.status, res.body);
      expect(issues, `${method} /v2${path} → ${res.status} ${JSON.stringify(res.body)}`).toEqual([]);
    }
    return res;
  }

  rest(method: string, path: string, body?: unknown): Promise<Res> {
    return this.h.rest(method, path, body);
  }

  advance(ms: number): Promise<void> {
    return this.h.advance(ms);
  }

  /** A REST v2 endpoint on ADA_24 (RTX 4090) running `image`; returns its answer. */
  async endpoint(overrides: Record<string, unknown> = {}): Promise<any> {
    const res = await this.v2('POST', '/serverless', {
      name: `ep-${Math.random().toString(36).slice(2, 8)}`, type: 'QUEUE', image: 'repo/worker:1',
      gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 0, max: 2 }, ...overrides,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
}
