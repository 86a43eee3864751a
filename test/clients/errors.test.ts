import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ContractViolationError,
  GraphQLResponseError,
  InternalServerError,
  JobExpiredError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  ValidationError,
  errorFromResponse,
  parseRetryAfterMs,
} from '../../src/clients/errors.js';
import { REDACTED, SecretRedactor } from '../../src/clients/redact.js';

describe('errorFromResponse maps status → class', () => {
  const cases: Array<[number, new (...args: never[]) => ApiError]> = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [408, TimeoutError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
  ];
  for (const [status, cls] of cases) {
    it(`${status} → ${cls.name}`, () => {
      const error = errorFromResponse({ status, body: { message: 'boom' }, operationId: 'getPod' });
      expect(error).toBeInstanceOf(cls);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(status);
      expect(error.operationId).toBe('getPod');
      expect(error.message).toBe(`${status} boom (getPod)`);
    });
  }
  it('unlisted 4xx → plain ApiError', () => {
    const error = errorFromResponse({ status: 418 });
    expect(error.constructor).toBe(ApiError);
  });
  it('carries job id, headers and request id', () => {
    const headers = new Headers({ 'x-request-id': 'req-1' });
    const error = errorFromResponse({ status: 404, headers, jobId: 'j-1', operationId: 'getJobStatus' });
    expect(error.jobId).toBe('j-1');
    expect(error.requestId).toBe('req-1');
    expect(error.message).toContain('(getJobStatus job j-1)');
  });
});

describe('RateLimitError.retryAfterMs', () => {
  it('reads Retry-After seconds', () => {
    const error = errorFromResponse({ status: 429, headers: new Headers({ 'retry-after': '3' }) });
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
  });
  it('reads Retry-After as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
  });
  it('prefers retry-after-ms; ignores garbage', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfterMs(new Headers())).toBeUndefined();
  });
});

describe('secrets never surface', () => {
  const apiKey = 'rpa_SUPERSECRETKEY123';
  const redactor = new SecretRedactor([apiKey]).addFromBody({ name: 'r', password: 'hunter2-pass', s3Config: { accessSecret: 'AWS/secret+key' } });

  it('message, toString, toJSON and inspect hide the API key, password and accessSecret', () => {
    const error = errorFromResponse({
      status: 400,
      body: { message: `bad key ${apiKey}; password hunter2-pass; Bearer abc.def; AWS/secret+key`, password: 'hunter2-pass' },
      headers: new Headers({ authorization: `Bearer ${apiKey}`, 'x-echo': apiKey }),
      redactor,
    });
    const surfaces = [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 5 })];
    for (const text of surfaces) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain('hunter2-pass');
      expect(text).not.toContain('AWS/secret+key');
      expect(text).not.toContain('abc.def');
    }
    expect((error.body as { password: string }).password).toBe(REDACTED);
    expect(error.headers?.get('authorization')).toBe(REDACTED);
  });

  it('api_key in a URL is redacted by shape, URL-encoded secrets too', () => {
    const error = new ConnectionError({ message: `fetch http://h/graphql?api_key=${encodeURIComponent('k/ey+1234')}&x=1`, redactor: new SecretRedactor(['k/ey+1234']) });
    expect(error.message).not.toContain('k%2Fey');
    expect(error.message).toContain(`api_key=${REDACTED}`);
  });

  it('GraphQL errors are redacted per entry', () => {
    const error = new GraphQLResponseError([{ message: `secret ${apiKey} rejected`, path: ['secretCreate'] }], { redactor });
    expect(error.message).toBe(`secret ${REDACTED} rejected at secretCreate`);
    expect(error.errors[0]?.message).not.toContain(apiKey);
  });
});

describe('specialised errors', () => {
  it('ValidationError is a BadRequestError shaped like a server 400', () => {
    const error = new ValidationError([{ path: '/body/policy/ttl', message: 'must be >= 10000' }], { operationId: 'runJob' });
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.status).toBe(400);
    expect(error.issues).toEqual([{ path: '/body/policy/ttl', message: 'must be >= 10000' }]);
    expect(error.message).toContain('/body/policy/ttl must be >= 10000');
  });
  it('JobExpiredError is a NotFoundError with the last status', () => {
    const error = new JobExpiredError({ status: 404, jobId: 'j', lastStatus: 'IN_PROGRESS' });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain('last status IN_PROGRESS');
  });
  it('ContractViolationError lists issues', () => {
    const error = new ContractViolationError([{ path: '/body/id', message: 'must be string' }], { status: 200, operationId: 'runJob' });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain('/body/id must be string');
  });
});
