// The agreement judge and its allow-list: a refusal of a spec-valid request is excused only by a
// rule of specs/rules.yaml listed for that operation and status (an unknown rule id is an error);
// an invalid request must get 400 naming exactly the path it broke; 5xx, dropped connections and
// echoed secrets always fail.
import { describe, expect, it } from 'vitest';
import { ALLOWED_REFUSALS, checkAllowList, type AllowedRefusal } from '../../src/agreement/allow-list.js';
import { withDescribedBounds } from '../../src/contract/graphql-bounds.js';
import { judgeInvalid, judgeValid } from '../../src/agreement/judge.js';
import type { InvalidCase, RequestCase } from '../../src/agreement/requests.js';
import { allOperations } from '../../src/agreement/runner.js';
import type { Outcome } from '../../src/agreement/transport.js';
import { loadCatalogue } from '../../src/contract/catalogue.js';

const ops = allOperations();
const op = (surface: string, id: string) => ops.find((o) => o.surface === surface && o.operationId === id)!;
const answer = (status: number, body?: unknown): Outcome => ({
  kind: 'answer', answer: { status, body, text: body === undefined ? '' : JSON.stringify(body), headers: new Headers() },
});
const getPod: RequestCase = { op: op('restV1', 'getPod'), path: { podId: 'p1' }, query: {}, bodyMode: 'none' };
const createTemplate = (violation: InvalidCase['violation']): InvalidCase => ({
  op: op('restV1', 'createTemplate'), path: {}, query: {}, body: { name: 'n', imageName: 'i', unexpectedProperty: 1 }, bodyMode: 'json', violation,
});
const podBody = { id: 'p1', name: 'n', desiredStatus: 'RUNNING', imageName: 'i' };

describe('agreement allow-list', () => {
  it('names only rules of specs/rules.yaml that list the operation', () => {
    expect(checkAllowList(loadCatalogue())).toEqual([]);
  });

  it('rejects an unknown rule id and an operation its rule does not list', () => {
    const bad: AllowedRefusal[] = [
      { rule: 'REST-NOPE-999', surface: 'restV1', status: 400, when: 'job-state', operations: ['getPod'] },
      { rule: 'REST-CRUD-002', surface: 'restV1', status: 404, when: 'unknown-reference', operations: ['listPods'] },
    ];
    expect(checkAllowList(loadCatalogue(), bad)).toEqual([
      'allow-list names rule REST-NOPE-999, which specs/rules.yaml does not define',
      'allow-list: rule REST-CRUD-002 does not list operation(s) listPods in specs/rules.yaml',
    ]);
  });

  it('excuses a 404 on an unknown id only when the request named an unknown id', () => {
    const notFound = answer(404, { message: 'pod not found' });
    expect(judgeValid(getPod, notFound, new Set(['unknown-reference']), [])).toEqual({ ok: true, allowedBy: 'REST-CRUD-002' });
    expect(judgeValid(getPod, notFound, new Set(), [])).toMatchObject({ ok: false, problem: expect.stringContaining('no allow-listed rule') });
    expect(ALLOWED_REFUSALS.length).toBeGreaterThan(0);
  });
});

describe('agreement judge', () => {
  it('accepts a documented 2xx matching the spec and fails one that does not match it', () => {
    expect(judgeValid(getPod, answer(200, podBody), new Set(), [])).toEqual({ ok: true });
    expect(judgeValid(getPod, answer(200, { id: 7 }), new Set(), [])).toMatchObject({ ok: false, problem: expect.stringContaining('not matching the spec') });
  });

  it('fails 5xx, dropped connections, undocumented statuses and echoed secrets', () => {
    expect(judgeValid(getPod, answer(500, { message: 'boom' }), new Set(), [])).toMatchObject({ ok: false, problem: expect.stringContaining('answered 500') });
    expect(judgeValid(getPod, { kind: 'dropped', message: 'connection dropped: ECONNRESET' }, new Set(), [])).toEqual({ ok: false, problem: 'connection dropped: ECONNRESET' });
    expect(judgeValid(getPod, answer(418, { message: 'teapot' }), new Set(), [])).toMatchObject({ ok: false, problem: expect.stringContaining('not a documented status') });
    expect(judgeValid(getPod, answer(200, { ...podBody, name: 'secret-value-123' }), new Set(), ['secret-value-123'])).toMatchObject({ ok: false, problem: expect.stringContaining('secret') });
  });

  it('wants 400 naming exactly the broken path for a single-point violation', () => {
    const violation = { kind: 'unknown-property' as const, pointer: '/body/unexpectedProperty', detail: 'unknown property added' };
    const named = answer(400, { message: 'Invalid request', errors: [{ path: '/body/unexpectedProperty', message: 'is not a known property' }] });
    expect(judgeInvalid(createTemplate(violation), named, [])).toEqual({ ok: true });
    const other = answer(400, { message: 'Invalid request', errors: [{ path: '/body/name', message: 'x' }] });
    expect(judgeInvalid(createTemplate(violation), other, [])).toMatchObject({ ok: false, problem: expect.stringContaining('does not name /body/unexpectedProperty') });
    expect(judgeInvalid(createTemplate(violation), answer(200, { id: 't1', name: 'n', imageName: 'i' }), [])).toMatchObject({ ok: false, problem: expect.stringContaining('expected 400, got 200') });
  });
});

describe('GraphQL bounds stated in SDL descriptions', () => {
  it('reads "N to M characters", "At most N characters", Int ranges, entries and key/value clauses', () => {
    expect(withDescribedBounds({ type: 'string' }, 'Template name. 1 to 191 characters.')).toEqual({ type: 'string', minLength: 1, maxLength: 191 });
    expect(withDescribedBounds({ type: ['string', 'null'] }, 'Markdown. At most 65536 characters.')).toEqual({ type: ['string', 'null'], maxLength: 65536 });
    expect(withDescribedBounds({ type: 'integer' }, 'Disk in GB. 1 to 4000.')).toEqual({ type: 'integer', minimum: 1, maximum: 4000 });
    const env = withDescribedBounds(
      { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } } },
      'Environment variables. At most 256 entries; key 1 to 255 characters, value at most 16384 characters.',
    );
    expect(env.maxItems).toBe(256);
    expect(env.items?.properties).toEqual({ key: { type: 'string', minLength: 1, maxLength: 255 }, value: { type: 'string', maxLength: 16384 } });
  });
});

describe('failure reports', () => {
  it('print a request with every secret field replaced, however short', async () => {
    const { describeRequest } = await import('../../src/agreement/describe.js');
    const c: RequestCase = {
      op: op('restV1', 'createContainerRegistryAuth'), path: {}, query: {}, bodyMode: 'json',
      body: { name: 'n', username: 'u', password: 'pw' },
    };
    expect(describeRequest(c, undefined, [])).toBe('POST /v1/containerregistryauth body={"name":"n","username":"u","password":"[secret]"}');
  });
});
