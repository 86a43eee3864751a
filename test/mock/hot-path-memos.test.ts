// The mock's per-request memos (issue 37): a finished job's record text, path-only validation and GraphQL validation. Each must
// answer exactly what the work it saves would, and forget what changed.
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { validationErrors, validationMemoSize, VALIDATED_MAX, VALIDATED_SOURCE_MAX_CHARS } from '../../src/mock/graphql/validation-memo.js';
import { renderJob, renderJobWithText } from '../../src/mock/jobs/render.js';
import { isKnownValidPath, rememberValidPath } from '../../src/mock/valid-paths.js';
import { mockOperations } from '../../src/mock/spec-facts.js';
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
