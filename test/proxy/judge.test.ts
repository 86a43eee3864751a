// The per-exchange judgement in isolation: path → operation, secret search, rule of each finding.
import { describe, expect, it } from 'vitest';
import { rules } from '../../generated/rules.js';
import { classify } from '../../src/proxy/classify.js';
import { emptyBody, type Exchange } from '../../src/proxy/exchange.js';
import { judgeExchange } from '../../src/proxy/judge.js';
import { failingLevels } from '../../src/proxy/levels-option.js';
import { judgedRuleIds } from '../../src/proxy/rule-ids.js';
import { MAX_SECRETS, SecretBook, StreamScanner } from '../../src/proxy/secrets.js';

const KEY = 'judge-test-key';
const body = (value: unknown) => {
  const bytes = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
  return { bytes, totalBytes: bytes.length, recorded: true };
};

function exchange(method: string, path: string, status: number, answer: unknown, extra: Partial<Exchange> = {}): Exchange {
  return {
    method, url: `http://upstream.test${path}`, requestHeaders: { authorization: `Bearer ${KEY}` }, requestBody: emptyBody(),
    status, responseHeaders: { 'content-type': 'application/json' }, responseBody: answer === undefined ? emptyBody() : body(answer), ...extra,
  };
}

const judge = (ex: Exchange) => judgeExchange(ex, new SecretBook());
const found = (ex: Exchange) => judge(ex).violations.map((v) => `${v.ruleId}: ${v.message}`);

describe('classify: path → surface and operation', () => {
  const op = (method: string, path: string, only?: Parameters<typeof classify>[2]) => {
    const c = classify(method, path, only);
    return c.kind === 'operation' ? `${c.surface} ${c.op.operationId} ${JSON.stringify(c.pathParams)}` : c.kind;
  };
  it('finds each surface by its anchor segment under any prefix', () => {
    expect(op('GET', '/v1/pods')).toBe('restV1 listPods {}');
    expect(op('GET', '/api/v1/pods/p1')).toBe('restV1 getPod {"podId":"p1"}');
    expect(op('HEAD', '/v1/pods')).toBe('restV1 listPods {}');
    expect(op('GET', '/v2/ep1/status/job%201')).toBe('queueV2 getJobStatus {"jobId":"job 1"}');
    expect(op('POST', '/v2/ep1/openai/v1/chat/completions')).toBe('queueV2 openaiProxy {"openaiPath":"v1/chat/completions"}');
    expect(op('GET', '/v2/pods')).toBe('restV2 listPods {}');
    expect(op('GET', '/rest/v2/serverless/e1')).toBe('restV2 getEndpoint {"id":"e1"}');
    expect(op('GET', '/v2/registries/delegations')).toBe('restV2 listDelegations {}');
    expect(op('GET', '/v2/registries/r1')).toBe('restV2 getRegistry {"id":"r1"}');
    expect(op('POST', '/graphql')).toBe('graphql');
    expect(op('OPTIONS', '/v1/pods')).toBe('options');
    expect(op('PUT', '/v1/pods')).toBe('method');
    expect(op('GET', '/favicon.ico')).toBe('unmatched');
  });
  it('REST v2 wins a path both fit unless --surface says otherwise', () => {
    expect(op('GET', '/v2/pods/health')).toBe('restV2 getPod {"id":"health"}');
    expect(op('GET', '/v2/pods/health', 'queueV2')).toBe('queueV2 getHealth {}');
    expect(op('GET', '/v1/pods', 'queueV2')).toBe('unmatched');
  });
});

describe('secret search', () => {
  it('finds a secret split across chunks, and its JSON-escaped form', () => {
    const book = new SecretBook();
    book.add('pa"ss-word-1', 'registry password');
    const scanner = new StreamScanner(book);
    for (const part of ['{"echo":"pa\\"ss', '-wo', 'rd-1"}']) scanner.feed(Buffer.from(part));
    expect(scanner.leaks()).toEqual([{ kind: 'registry password', where: 'body' }]);
    expect(book.redact('x pa"ss-word-1 y')).toBe('x [redacted registry password] y');
  });
  it('ignores values shorter than 8 characters and keeps only the newest MAX_SECRETS', () => {
    const book = new SecretBook();
    book.add('short', 'API key');
    expect(book.size).toBe(0);
    for (let i = 0; i <= MAX_SECRETS; i++) book.add(`secret-value-${i}`, 'secret value');
    expect(book.size).toBe(MAX_SECRETS);
    expect(book.find('secret-value-0 ')).toEqual([]);
    expect(book.find(`secret-value-${MAX_SECRETS}`)).toEqual(['secret value']);
  });
  it('learns the bearer key, ?api_key=, x-secret body fields and secretCreate values (inline or variables)', () => {
    const book = new SecretBook();
    book.learnRequest({ authorization: 'Bearer bearer-key-1' }, new URLSearchParams('api_key=query-key-1'), { s3Config: { accessSecret: 's3-secret-value' } });
    book.learnRequest({}, new URLSearchParams(), { query: 'mutation { secretCreate(input: {name: "a", value: "inline-secret-1"}) { id } }' });
    book.learnRequest({}, new URLSearchParams(), { query: 'mutation M($i: SecretCreateInput!) { secretCreate(input: $i) { id } }', variables: { i: { name: 'b', value: 'variable-secret-1' } } });
    expect(book.find('bearer-key-1 query-key-1 s3-secret-value inline-secret-1 variable-secret-1').sort()).toEqual(['API key', 's3 accessSecret', 'secret value']);
    expect(book.valuesOf('secret value')).toEqual(['inline-secret-1', 'variable-secret-1']);
    // An env pair's value (saveEndpoint's template env in GraphQL variables) is no secret; createSecret's top-level value is.
    book.learnRequest({}, new URLSearchParams(), { query: 'mutation S($input: EndpointInput!) { saveEndpoint(input: $input) { id } }', variables: { input: { template: { env: [{ key: 'MODEL_NAME', value: 'Qwen/Qwen3-0.6B' }] } } } });
    book.learnRequest({}, new URLSearchParams(), { name: 'HF_TOKEN', value: 'rest-v2-secret-1' });
    expect(book.valuesOf('secret value')).toEqual(['inline-secret-1', 'variable-secret-1', 'rest-v2-secret-1']);
  });
});

describe('judgement of one exchange', () => {
  it('a documented answer matching the spec has no violation', () => {
    expect(found(exchange('GET', '/v1/pods', 200, []))).toEqual([]);
    expect(found(exchange('DELETE', '/v1/pods/p1', 204, undefined))).toEqual([]);
    expect(found(exchange('HEAD', '/v1/pods', 200, undefined))).toEqual([]);
  });
  it('an undocumented status → AGREE-VALID-001', () => {
    expect(found(exchange('GET', '/v1/pods', 418, { message: 'teapot' }))).toEqual([expect.stringMatching(/^AGREE-VALID-001: listPods answered 418 is not a documented status of listPods \(documented: 200, 400, 401, 429, 500/)]);
  });
  it('a success body not matching the schema → AGREE-VALID-001; an error body → the surface error-body rule', () => {
    expect(found(exchange('GET', '/v1/pods', 200, { pods: [] }))).toEqual(['AGREE-VALID-001: listPods answered 200 not matching the spec: /body must be array']);
    expect(found(exchange('GET', '/v1/pods', 500, { error: 'x' }))).toEqual([expect.stringMatching(/^REST-ERROR-001: listPods answered 500 not matching the spec: \/body\/message is required/)]);
    expect(found(exchange('GET', '/v2/ep1/health', 404, 'not found'))).toEqual(['QUEUE-ERROR-003: getHealth answered 404 with a body that is not JSON']);
  });
  it('a request the spec refuses answered 2xx → AGREE-INVALID-001', () => {
    const ex = exchange('POST', '/v2/ep1/run', 200, { id: 'j1', status: 'IN_QUEUE' }, { requestBody: body({ input: { a: 1 }, policy: { ttl: 5 } }) });
    expect(found(ex)).toEqual([expect.stringMatching(/^AGREE-INVALID-001: runJob answered 200 to a request the spec refuses \(\/body\/policy\/ttl must be >= 10000/)]);
  });
  it('the API key echoed in a header → AUTH-006 naming the header', () => {
    const ex = exchange('GET', '/v1/pods', 200, [], { responseHeaders: { 'content-type': 'application/json', 'x-debug': `key=${KEY}` } });
    expect(found(ex)).toEqual(['AUTH-006: secret leaked: listPods answered 200 containing the API key in header x-debug']);
  });
  it('a GraphQL secret value in an error message → SECRET-002; a bad answer shape → the GraphQL rules', () => {
    const query = 'mutation { secretCreate(input: {name: "a", value: "graphql-secret-9"}) { id } }';
    const leak = exchange('POST', `/graphql?api_key=${KEY}`, 200, { errors: [{ message: 'bad value graphql-secret-9' }] }, { requestHeaders: {}, requestBody: body({ query }) });
    expect(found(leak)).toEqual(['SECRET-002: secret leaked: secretCreate answered 200 containing the secret value at /errors/0/message']);
    const shape = exchange('POST', '/graphql', 200, { data: { podTemplate: { id: 'x', extra: true } }, errors: [] }, { requestBody: body({ query: '{ podTemplate(id: "x") { id } }' }) });
    expect(found(shape)).toEqual([
      'GQL-ERROR-001: GraphQL answered 200 with errors not matching the spec: /errors must be a non-empty array',
      'AGREE-VALID-001: GraphQL podTemplate answered 200 not matching the SDL: /data/podTemplate/extra was not selected',
    ]);
  });
  it('GRAPHQL-COST-*: data served to an operation over a limit, or more records than the records limit, is flagged; a refusal or an operation within the limits is not', () => {
    const aliases = `{ myself { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} } }`;
    const served = { data: { myself: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`a${i}`, 'u1'])) } };
    expect(found(exchange('POST', '/graphql', 200, served, { requestBody: body({ query: aliases }) }))).toEqual([
      'GRAPHQL-COST-003: GraphQL served data to an operation over the aliases limit (at most 30, found 31): it must be refused before running',
    ]);
    expect(found(exchange('POST', '/graphql', 200, { errors: [{ message: 'aliases limit' }] }, { requestBody: body({ query: aliases }) }))).toEqual([]);
    const pods = { data: { myself: { pods: Array.from({ length: 5001 }, (_, i) => ({ id: `p${i}` })) } } };
    expect(found(exchange('POST', '/graphql', 200, pods, { requestBody: body({ query: '{ myself { pods { id } } }' }) }))).toEqual([
      'GRAPHQL-COST-008: GraphQL answered more than 5000 records (items of lists of objects): the records limit refuses such an answer',
    ]);
    pods.data.myself.pods.length = 5000;
    expect(found(exchange('POST', '/graphql', 200, pods, { requestBody: body({ query: '{ myself { pods { id } } }' }) }))).toEqual([]);
  });
  it('a method the path does not serve → HTTP-ALLOW-001 unless answered 405 with Allow (or 401)', () => {
    expect(found(exchange('PUT', '/v1/pods', 404, { message: 'x' }))).toEqual(['HTTP-ALLOW-001: PUT /pods: a method the path does not serve was answered 404 (expected 405 with Allow)']);
    expect(found(exchange('PUT', '/v1/pods', 405, { message: 'x' }))).toEqual(['HTTP-ALLOW-001: PUT /pods answered 405 without an Allow header']);
    expect(found(exchange('PUT', '/v1/pods', 405, { message: 'x' }, { responseHeaders: { allow: 'GET, HEAD, OPTIONS' } }))).toEqual([]);
  });
  it('REST v2 answers are judged against the REST v2 spec', () => {
    expect(found(exchange('GET', '/rest/v2/pods', 200, { pods: [] }))).toEqual([]);
    const problem = { title: 'Too Many Requests', status: 429, detail: 'minute window' };
    const problemJson = { 'content-type': 'application/problem+json' };
    expect(found(exchange('GET', '/rest/v2/pods', 429, problem, { responseHeaders: { ...problemJson, 'retry-after': '12' } }))).toEqual([]);
    expect(found(exchange('GET', '/rest/v2/pods', 429, problem, { responseHeaders: problemJson }))).toEqual(['RESTV2-RATE-002: listPods answered 429 whose required header retry-after is missing']);
    expect(found(exchange('GET', '/rest/v2/pods', 429, problem, { responseHeaders: { 'content-type': 'application/json', 'retry-after': '1' } }))).toEqual(['RESTV2-ERROR-001: listPods answered 429 with Content-Type application/json (documented: application/problem+json)']);
    expect(found(exchange('GET', '/v2/pods', 401, { title: 'Unauthorized', status: 401, detail: 'no key' }, { requestHeaders: {}, responseHeaders: problemJson }))).toEqual([]);
    expect(found(exchange('GET', '/v2/pods', 200, { pods: [] }, { requestHeaders: {} }))).toEqual(['RESTV2-AUTH-001: listPods answered 200 to a request without credentials (expected 401)']);
  });
  it('unmatched paths are counted, not judged, but still scanned for secrets', () => {
    const j = judge(exchange('GET', '/metrics', 200, { token: KEY }));
    expect(j.surface).toBeUndefined();
    expect(j.violations.map((v) => v.message)).toEqual(['secret leaked: GET /metrics answered 200 containing the API key at /token']);
  });
});

describe('GraphQL without a key: judged by what it asks (SDL x-auth)', () => {
  const keyless = (query: string, status: number, answer: unknown) =>
    exchange('POST', '/graphql', status, answer, { requestHeaders: { 'content-type': 'application/json' }, requestBody: body({ query }) });
  const unauthorized = { errors: [{ message: 'API key missing' }] };
  const gpus = { data: { gpuTypes: [{ id: 'NVIDIA A40', displayName: 'A40' }] } };
  it('GQL-PUBLIC-001: public fields only (gpuTypes, listings, allAiApiPublicConfigs) answered 200 is no violation; answered 401 is', () => {
    const ok = judge(keyless('{ gpuTypes { id displayName } }', 200, gpus));
    expect(ok.violations).toEqual([]);
    expect(ok.checked).toContain('GQL-PUBLIC-001');
    expect(ok.checked).not.toContain('GQL-AUTH-002');
    expect(found(keyless('query { listings(input: {}) { id } allAiApiPublicConfigs { aiApiId } }', 401, unauthorized)))
      .toEqual(['GQL-PUBLIC-001: listings+allAiApiPublicConfigs asks only public fields (SDL x-auth: none) and was answered 401 without credentials (expected 200 with data)']);
  });
  it('GQL-PUBLIC-002: a public field beside an account field, a mutation or introspection answered 200 is a violation; 401 is right', () => {
    const mixed = '{ gpuTypes { id } myself { id } }';
    expect(found(keyless(mixed, 200, { data: { gpuTypes: [], myself: { id: 'u1' } } })))
      .toEqual(['GQL-PUBLIC-002: gpuTypes+myself answered 200 to a request without credentials selecting an account field, a mutation or introspection besides public fields (expected 401)']);
    expect(found(keyless('{ gpuTypes { id } __schema { queryType { name } } }', 200, { data: { gpuTypes: [], __schema: { queryType: { name: 'Query' } } } })).map((f) => f.split(':')[0])).toEqual(['GQL-PUBLIC-002']);
    const refused = judge(keyless(mixed, 401, unauthorized));
    expect(refused.violations).toEqual([]);
    expect(refused.checked).toContain('GQL-PUBLIC-002');
  });
  it('GQL-AUTH-002: account fields, mutations, introspection and text that does not validate still need a key', () => {
    expect(found(keyless('{ myself { id } }', 200, { data: { myself: { id: 'u1' } } }))).toEqual(['GQL-AUTH-002: myself answered 200 to a request without credentials (expected 401)']);
    expect(found(keyless('mutation { secretDelete(id: "s1") }', 200, { data: { secretDelete: null } })).map((f) => f.split(':')[0])).toEqual(['GQL-AUTH-002']);
    expect(found(keyless('{ __schema { queryType { name } } }', 200, { data: { __schema: { queryType: { name: 'Query' } } } })).map((f) => f.split(':')[0])).toEqual(['GQL-AUTH-002']);
    expect(found(keyless('{ gpuTypes { noSuchField } }', 200, { errors: [{ message: 'Cannot query field' }] })).map((f) => f.split(':')[0])).toEqual(['GQL-AUTH-002']);
    expect(judge(keyless('{ myself { id } }', 401, unauthorized)).violations).toEqual([]);
  });
});

describe('levels and rule ids', () => {
  it('every rule a judgement can name is in specs/rules.yaml', () => {
    const ids = new Set<string>(rules.map((r) => r.id));
    expect(judgedRuleIds().filter((id) => !ids.has(id))).toEqual([]);
  });
  it('failing levels: must by default, all with --strict, a list with --level', () => {
    expect([...failingLevels(false, undefined)]).toEqual(['must']);
    expect([...failingLevels(true, undefined)]).toEqual(['must', 'should', 'may']);
    expect([...failingLevels(false, 'should,may')]).toEqual(['should', 'may']);
    expect(() => failingLevels(false, '')).toThrow(/--level takes/);
  });
});

describe('query lists as the spec declares them (src/contract/query-style.ts)', () => {
  const refused = (path: string) => found(exchange('GET', path, 200, { gpus: [] })).filter((m) => m.includes('a request the spec refuses'));
  it('reads a REST v2 comma-form list as the list it is, and still finds a bad item in it', () => {
    expect(refused('/v2/catalog/gpus?include=AVAILABILITY&product=POD,SERVERLESS')).toEqual([]);
    expect(refused('/v2/catalog/gpus?include=AVAILABILITY&product=POD,NOPE')).toHaveLength(1);
  });
});
