// The mock's per-request memos (issue 37): a finished job's record text, path-only validation, GraphQL validation, route
// matches and the Content-Type judgement. Each must answer exactly what the work it saves would, and forget what changed.
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { validationErrors, validationMemoSize, VALIDATED_MAX, VALIDATED_SOURCE_MAX_CHARS } from '../../src/mock/graphql/validation-memo.js';
import { renderJob, renderJobWithText } from '../../src/mock/jobs/render.js';
import { isKnownValidPath, rememberValidPath } from '../../src/mock/valid-paths.js';
import { mockOperations } from '../../src/mock/spec-facts.js';
import { MAX_REMEMBERED_MATCHES, MAX_REMEMBERED_PATH_CHARS, Router } from '../../src/mock/router.js';
import { isJsonContentType } from '../../src/mock/http.js';
import { isWorkerProtocolPath } from '../../src/mock/worker-protocol/routes.js';
import type { Job } from '../../src/mock/types.js';

const job = (fields: Partial<Job> = {}): Job => ({
  id: 'job-1', endpointId: 'ep', kind: 'run', status: 'COMPLETED', input: {}, submittedAt: 0, queuedAt: 0,
  delayTime: 3, executionTime: 40, workerId: 'w1', output: { text: 'done' }, retries: 0, attempts: 1, streamed: 0, ...fields,
});

describe('a finished job\'s record text', () => {
  it('is JSON.stringify of the record, made once while the job is unchanged', () => {
    const done = job();
    const first = renderJobWithText(done);
    expect(first.json).toBe(JSON.stringify(renderJob(done)));
    expect(renderJobWithText(done)).toBe(first);
  });

  it('is made again after a /retry changed the job, and not kept while it runs', () => {
    const failed = job({ status: 'FAILED', error: 'boom', output: undefined });
    expect(JSON.parse(renderJobWithText(failed).json!)).toEqual({ id: 'job-1', status: 'FAILED', delayTime: 3, executionTime: 40, error: 'boom', workerId: 'w1' });
    Object.assign(failed, { status: 'IN_QUEUE', retries: 1, error: undefined, delayTime: undefined, executionTime: undefined, workerId: undefined });
    expect(renderJobWithText(failed)).toEqual({ body: { id: 'job-1', status: 'IN_QUEUE', retries: 1 } });
    Object.assign(failed, { status: 'COMPLETED', output: 'second', delayTime: 1, executionTime: 5, workerId: 'w2' });
    expect(JSON.parse(renderJobWithText(failed).json!)).toEqual({ id: 'job-1', status: 'COMPLETED', delayTime: 1, executionTime: 5, output: 'second', retries: 1, workerId: 'w2' });
  });

  it('is not made for an answer written a slice per turn', () => {
    const large = job({ output: Array.from({ length: 30_000 }, (_, i) => i) });
    expect(renderJobWithText(large).json).toBeUndefined();
  });
});

describe('path-only validation memo', () => {
  const op = mockOperations.find((o) => o.operationId === 'getJobStatus')!;

  it('knows only remembered paths of that operation, the 256 most recent', () => {
    expect(isKnownValidPath(op, '/status/memo-0')).toBe(false);
    for (let i = 0; i <= 256; i++) rememberValidPath(op, `/status/memo-${i}`);
    expect(isKnownValidPath(op, '/status/memo-0')).toBe(false);
    expect(isKnownValidPath(op, '/status/memo-1')).toBe(true);
    expect(isKnownValidPath(op, '/status/memo-256')).toBe(true);
    expect(isKnownValidPath(mockOperations.find((o) => o.operationId === 'streamJob')!, '/status/memo-256')).toBe(false);
  });
});

describe('GraphQL validation memo', () => {
  const schema = buildSchema('type Query { pod(id: ID!): Pod } type Pod { id: ID! name: String }');
  const errorsOf = (source: string) => validationErrors(schema, source, parse(source)).map((e) => e.message);

  it('gives what validate gives, for a document seen before too, and per text', () => {
    const bad = '{ pod(id: "p") { id nope } }';
    const expected = validate(schema, parse(bad)).map((e) => e.message);
    expect(expected).toHaveLength(1);
    expect(errorsOf(bad)).toEqual(expected);
    expect(errorsOf(bad)).toEqual(expected);
    expect(errorsOf('{ pod(id: "p") { id name } }')).toEqual([]);
    expect(errorsOf('{ pod { id } }')).toEqual(validate(schema, parse('{ pod { id } }')).map((e) => e.message));
  });

  it('keeps the most recently used documents, at most VALIDATED_MAX, and validates long ones every time', () => {
    const nope = ['Cannot query field "nope" on type "Pod". Did you mean "name"?'];
    const bad = '{ pod(id: "first") { nope } }';
    errorsOf(bad);
    for (let i = 0; i < VALIDATED_MAX; i++) errorsOf(`{ pod(id: "${i}") { id } }`);
    expect(validationMemoSize(schema)).toBe(VALIDATED_MAX);
    expect(errorsOf(bad)).toEqual(nope); // evicted: validated again
    expect(validationMemoSize(schema)).toBe(VALIDATED_MAX);
    const long = `{ pod(id: "${'x'.repeat(VALIDATED_SOURCE_MAX_CHARS)}") { nope } }`;
    expect(errorsOf(long)).toEqual(nope);
    expect(validationMemoSize(schema)).toBe(VALIDATED_MAX);
  });
});

describe('route match memo', () => {
  type Case = [surface: 'queueV2' | 'restV1' | 'restV2', method: string, path: string];
  const cases: Case[] = [
    ['queueV2', 'GET', '/status/job-1'], ['queueV2', 'HEAD', '/status/job-1'], ['queueV2', 'POST', '/status/job-1'],
    ['queueV2', 'POST', '/run'], ['queueV2', 'GET', '/run'], ['queueV2', 'GET', '/status/a%2Fb'], ['queueV2', 'GET', '/nope/x'],
    ['queueV2', 'POST', '/openai/v1/chat/completions'], ['restV1', 'GET', '/templates'], ['restV1', 'DELETE', '/templates/t-1'],
    ['restV2', 'GET', '/v2/registries/delegations'], ['restV2', 'GET', '/v2/registries/r-1'], ['queueV2', 'PROPFIND', '/status/job-1'],
  ];
  const plain = (m: ReturnType<Router['match']>) => (m === undefined || m === 'method' ? m : { operationId: m.op.operationId, params: m.params });

  it('answers a path seen before as a router that never saw it does, with parameters of its own per call', () => {
    const warm = new Router(mockOperations);
    for (const [surface, method, path] of cases) warm.match(surface, method, path);
    for (const [surface, method, path] of cases) {
      const expected = plain(new Router(mockOperations).match(surface, method, path));
      const first = warm.match(surface, method, path);
      expect(plain(first), `${method} ${path}`).toEqual(expected);
      if (first && first !== 'method') first.params['endpointId'] = 'added-by-a-caller';
      expect(plain(warm.match(surface, method, path)), `${method} ${path} again`).toEqual(expected);
    }
    expect(plain(warm.match('queueV2', 'GET', '/status/job-1'))).toEqual({ operationId: 'getJobStatus', params: { jobId: 'job-1' } });
    expect(warm.match('queueV2', 'POST', '/status/job-1')).toBe('method');
    expect(warm.rememberedMatches('queueV2', 'PROPFIND')).toBe(0);
  });

  it('keeps the most recent MAX_REMEMBERED_MATCHES paths per surface and method, and no long ones', () => {
    const router = new Router(mockOperations);
    for (let i = 0; i <= MAX_REMEMBERED_MATCHES; i++) router.match('queueV2', 'GET', `/status/memo-${i}`);
    expect(router.rememberedMatches('queueV2', 'GET')).toBe(MAX_REMEMBERED_MATCHES);
    expect(router.rememberedMatches('queueV2', 'POST')).toBe(0);
    const long = `/status/${'x'.repeat(MAX_REMEMBERED_PATH_CHARS)}`;
    expect(plain(router.match('queueV2', 'GET', long))).toEqual({ operationId: 'getJobStatus', params: { jobId: 'x'.repeat(MAX_REMEMBERED_PATH_CHARS) } });
    expect(router.rememberedMatches('queueV2', 'GET')).toBe(MAX_REMEMBERED_MATCHES);
    // The evicted first path is matched again, correctly.
    expect(plain(router.match('queueV2', 'GET', '/status/memo-0'))).toEqual({ operationId: 'getJobStatus', params: { jobId: 'memo-0' } });
  });
});

describe('Content-Type judgement memo', () => {
  it('judges each value as the last one judged does not decide', () => {
    const values: [string, boolean][] = [
      ['application/json', true], ['text/plain', false], ['text/plain', false], ['Application/JSON; charset=utf-8', true],
      ['application/vnd.api+json', true], ['', false], ['application/json', true], ['application/jsonx', false], [' application/json ;q=1', true],
    ];
    for (const [value, json] of values) expect(isJsonContentType(value), JSON.stringify(value)).toBe(json);
  });
});

describe('worker protocol path test', () => {
  it('knows the worker paths and no job path', () => {
    for (const path of ['/job-take/w1', '/job-take-batch/w1', '/job-stop/w1', '/ping/w1', '/job-done/w1/j1', '/job-stream/w1/j1']) expect(isWorkerProtocolPath(path), path).toBe(true);
    for (const path of ['/status/j1', '/run', '/job-take', '/ping', '/job-done/w1', '/jobs-take/w1', '/pingx/w1']) expect(isWorkerProtocolPath(path), path).toBe(false);
  });
});
