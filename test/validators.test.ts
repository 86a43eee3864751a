// Documented boundaries behave in the generated validators (the same ones clients, mock and suite use).
import { describe, expect, it } from 'vitest';
import { validateRequest, validateResponse, validateSchema, validate } from '../src/validation/index.js';

const job = (policy: Record<string, unknown>) => ({ input: { prompt: 'hi' }, policy });
const runJobIssues = (body: unknown) => validateRequest('queueV2', 'runJob', { body });

describe('queue v2 job submission bounds', () => {
  it.each([
    [9_999, false],
    [10_000, true],
    [604_800_000, true],
    [604_800_001, false],
  ])('QUEUE-TTL bounds: ttl %i accepted=%s', (ttl, ok) => {
    expect(runJobIssues(job({ ttl })).length === 0).toBe(ok);
  });

  it.each([
    [4_999, false],
    [5_000, true],
    [604_800_000, true],
    [604_800_001, false],
  ])('QUEUE-EXEC bounds: executionTimeout %i accepted=%s', (executionTimeout, ok) => {
    expect(runJobIssues(job({ executionTimeout })).length === 0).toBe(ok);
  });

  it('ttl below minimum is reported at its JSON path', () => {
    expect(runJobIssues(job({ ttl: 9_999 }))).toEqual([{ path: '/body/policy/ttl', message: 'must be >= 10000' }]);
  });

  it('ttl given as a string is rejected', () => {
    expect(runJobIssues(job({ ttl: '10000' }))[0]?.path).toBe('/body/policy/ttl');
  });

  it('missing input is rejected at /body/input', () => {
    expect(runJobIssues({ webhook: 'https://example.com/hook' })).toEqual([{ path: '/body/input', message: 'is required' }]);
  });

  it('unknown top-level field is rejected', () => {
    expect(runJobIssues({ input: {}, webhookV3: 'x' })).toEqual([{ path: '/body/webhookV3', message: 'is not a known property' }]);
  });

  it('all problems are listed at once', () => {
    const paths = runJobIssues({ input: 1, policy: { ttl: 1, executionTimeout: 1 } }).map((i) => i.path).sort();
    expect(paths).toEqual(['/body/input', '/body/policy/executionTimeout', '/body/policy/ttl']);
  });

  it('runsync wait query is coerced from a string and bounded 1000..300000', () => {
    const issues = (wait: string) => validateRequest('queueV2', 'runJobSync', { body: { input: {} }, query: { wait } });
    expect(issues('1000')).toEqual([]);
    expect(issues('300000')).toEqual([]);
    expect(issues('999')[0]?.path).toBe('/query/wait');
    expect(issues('300001')[0]?.path).toBe('/query/wait');
    expect(issues('soon')[0]?.path).toBe('/query/wait');
  });
});

describe('REST v1 bodies', () => {
  it('registry auth create without password is rejected', () => {
    const issues = validateRequest('restV1', 'createContainerRegistryAuth', { body: { name: 'hub', username: 'me' } });
    expect(issues).toEqual([{ path: '/body/password', message: 'is required' }]);
  });

  it('registry auth responses must not carry a password', () => {
    const issues = validateResponse('restV1', 'getContainerRegistryAuth', 200, { id: 'a1', name: 'hub', password: 'x' });
    expect(issues).toEqual([{ path: '/body/password', message: 'is not a known property' }]);
  });

  it.each([
    ['8888/http', true],
    ['22/tcp', true],
    ['8888/ftp', false],
    ['8888', false],
    ['http/8888', false],
  ])('template port %s accepted=%s', (port, ok) => {
    expect(validateSchema('restV1', 'PortSpec', port).length === 0).toBe(ok);
  });

  it('path parameters are required', () => {
    expect(validateRequest('restV1', 'getPod', { path: {} })).toEqual([{ path: '/path/podId', message: 'is required' }]);
  });
});

describe('responses', () => {
  it('an undocumented status is a contract violation', () => {
    expect(validateResponse('queueV2', 'runJob', 201, { id: 'a', status: 'IN_QUEUE' })[0]?.path).toBe('/status');
  });

  it('job ids are not assumed to be UUIDs', () => {
    for (const id of ['sync-79164ff4-5b07-4ab3-9e2d-0c0cfc2d1f5a-u1', '60902e6c-0bd8-4e0f-b04b-d9e0e8a4d7a3-e1', 'abc']) {
      expect(validate.queueV2.getJobStatus.responses['200']({ id, status: 'COMPLETED' })).toBe(true);
    }
  });

  it('a status outside the enum (RUNNING) is rejected', () => {
    expect(validateResponse('queueV2', 'getJobStatus', 200, { id: 'a', status: 'RUNNING' })[0]?.path).toBe('/body/status');
  });

  it('204 responses have no body', () => {
    expect(validateResponse('restV1', 'deletePod', 204, undefined)).toEqual([]);
    expect(validateResponse('restV1', 'deletePod', 204, { ok: true })[0]?.path).toBe('/body');
  });
});

describe('REST v2 validators', () => {
  const queueEndpoint = { name: 'e', type: 'QUEUE', templateId: 'tpl', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } };

  it('a QUEUE endpoint body is valid; a LOAD_BALANCER one must scale by request count', () => {
    expect(validateRequest('restV2', 'createEndpoint', { body: queueEndpoint })).toEqual([]);
    expect(validateRequest('restV2', 'createEndpoint', { body: { ...queueEndpoint, type: 'LOAD_BALANCER' } })).not.toEqual([]);
    expect(
      validateRequest('restV2', 'createEndpoint', { body: { ...queueEndpoint, type: 'LOAD_BALANCER', scaling: { type: 'REQUEST_COUNT', requestCount: 2 } } }),
    ).toEqual([]);
  });

  it('closed request shapes refuse unknown fields; without templateId an image is required', () => {
    expect(validateRequest('restV2', 'createEndpoint', { body: { ...queueEndpoint, imageName: 'x' } })).toEqual([
      { path: '/body/imageName', message: 'is not a known property' },
    ]);
    const { templateId: _t, ...noTemplate } = queueEndpoint;
    expect(validateRequest('restV2', 'createEndpoint', { body: noTemplate })[0]?.path).toBe('/body/image');
    expect(validateRequest('restV2', 'podAction', { path: { id: 'p1' }, body: { action: 'reset' } })[0]?.path).toBe('/body/action');
  });

  it('error answers are RFC 9457 problem details (application/problem+json)', () => {
    const problem = { title: 'Not Found', status: 404, detail: 'pod not found' };
    expect(validateResponse('restV2', 'getPod', 404, problem)).toEqual([]);
    expect(validateResponse('restV2', 'getPod', 404, { message: 'pod not found' })).not.toEqual([]);
    expect(validateSchema('restV2', 'Problem', { ...problem, errors: ['/name: too long'] })).toEqual([]);
    expect(validate.restV2.getPod.responses['404']).not.toBeNull();
  });
});
