// The validating proxy between our clients and the reference mock (clean, and with faults), and
// between a client and scripted upstreams that break single rules.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createGraphqlClient, createQueueClient, createRestClient, AuthenticationError, GraphQLResponseError } from '../../src/clients/index.js';
import { createRestV2Client } from '../../src/clients/rest-v2/index.js';
import { startMock, type FaultName, type RunningMock } from '../../src/mock/index.js';
import { MAX_CAPTURED_BODY_BYTES, startProxy, type RunningProxy, type TrafficReport } from '../../src/proxy/index.js';
import { json, startUpstream, type Upstream } from './harness.js';

const KEY = 'proxy-test-key';
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

async function mockBehindProxy(faults: FaultName[] = []): Promise<{ mock: RunningMock; proxy: RunningProxy }> {
  const mock = await startMock({ clock: 'virtual', port: 0, host: '127.0.0.1', rateLimits: false, faults, apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }] });
  stops.push(() => mock.close());
  const proxy = await startProxy({ upstream: mock.url, port: 0 });
  stops.push(() => proxy.close());
  return { mock, proxy };
}

async function upstreamBehindProxy(handle: Parameters<typeof startUpstream>[0]): Promise<{ upstream: Upstream; proxy: RunningProxy }> {
  const upstream = await startUpstream(handle);
  stops.push(() => upstream.close());
  const proxy = await startProxy({ upstream: upstream.url, port: 0 });
  stops.push(() => proxy.close());
  return { upstream, proxy };
}

const named = (report: TrafficReport) => report.violations.map((v) => `${v.ruleId} ${v.operationId}`);

describe('validating proxy', () => {
  it('clean upstream: our three clients through the proxy to the mock → 0 violations', async () => {
    const { mock, proxy } = await mockBehindProxy();
    const advance = async (ms: number) => void mock.clock.advance(ms);
    const rest = createRestClient({ baseUrl: `${proxy.url}/v1`, apiKey: KEY, validateResponses: true });
    const template = await rest.templates.create({ name: `tpl-${Date.now()}`, imageName: 'runpod/worker:1', isServerless: true, volumeInGb: 0, containerDiskInGb: 5 });
    const endpoint = await rest.endpoints.create({ templateId: template.id, name: 'ep', gpuTypeIds: ['NVIDIA A40'], workersMin: 0, workersMax: 1 });
    const auth = await rest.containerRegistryAuths.create({ name: `reg-${Date.now()}`, username: 'u', password: 'registry-password-1' });
    await rest.containerRegistryAuths.get(auth.id);
    await rest.containerRegistryAuths.list();
    await rest.containerRegistryAuths.delete(auth.id);
    await rest.pods.list();
    await expect(createRestClient({ baseUrl: `${proxy.url}/v1`, apiKey: 'wrong-key-123', maxRetries: 0 }).pods.list()).rejects.toBeInstanceOf(AuthenticationError);

    const queue = createQueueClient<{ prompt: string; mock?: Record<string, unknown> }, unknown, unknown>({
      endpointBaseUrl: `${proxy.url}/v2`, endpointId: endpoint.id, apiKey: KEY, validateResponses: true, sleep: advance, poll: { sleep: advance, pollIntervalMs: 200 },
    });
    const done = await queue.runAndWait({ input: { prompt: 'a', mock: { durationMs: 1000, output: { text: 'hi' } } }, s3Config: { accessId: 'id', accessSecret: 's3-access-secret-1', bucketName: 'b', endpointUrl: 'https://s3.example.com' } });
    expect(done.status).toBe('COMPLETED');
    const streamed = await queue.run({ input: { prompt: 'b', mock: { durationMs: 1000, stream: ['x', 'y'] } } });
    const chunks: unknown[] = [];
    for await (const chunk of queue.stream(streamed.id)) chunks.push(chunk.output);
    expect(chunks).toEqual(['x', 'y']);
    const long = await queue.run({ input: { prompt: 'c', mock: { durationMs: 60_000 } } });
    await queue.cancel(long.id);
    await queue.health();

    const gql = createGraphqlClient({ graphqlUrl: `${proxy.url}/graphql`, apiKey: KEY });
    const saved = await gql.saveTemplate({ name: `gql-${Date.now()}`, imageName: 'img:1', containerDiskInGb: 5, volumeInGb: 0 });
    await expect(gql.saveTemplate({ name: saved.name, imageName: 'img:1', containerDiskInGb: 5, volumeInGb: 0 })).rejects.toBeInstanceOf(GraphQLResponseError);
    await gql.deleteTemplate(saved.name);
    const secret = await gql.secretCreate({ name: `s${Date.now()}`, value: 'graphql-secret-value-1' });
    await gql.secretDelete(secret.id);
    expect((await fetch(`${proxy.url}/v1/pods`)).status).toBe(401);

    const report = (await (await fetch(`${proxy.url}/__proxy/report`)).json()) as TrafficReport;
    expect(report.violations).toEqual([]);
    expect(report.totals.unmatched).toBe(0);
    expect(report.totals.judged).toBeGreaterThanOrEqual(20);
    const checked = new Set(report.rules.filter((r) => r.checked > 0).map((r) => r.ruleId));
    for (const id of ['AUTH-001', 'AUTH-006', 'SECRET-001', 'SECRET-002', 'SECRET-003', 'AGREE-VALID-001', 'REST-ERROR-001', 'GQL-ERROR-001']) expect(checked, id).toContain(id);
  });

  it('clean upstream, REST v2 of the mock (/rest/v2): templates, 401 and 405 → 0 violations', async () => {
    const { mock, proxy } = await mockBehindProxy();
    const base = `${proxy.url}${new URL(mock.restV2Url).pathname}`;
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    expect((await fetch(`${base}/templates`, { method: 'POST', headers, body: JSON.stringify({ name: `v2-${Date.now()}`, image: 'img:1' }) })).status).toBe(201);
    expect((await fetch(`${base}/templates`, { headers })).status).toBe(200);
    expect((await fetch(`${base}/templates`)).status).toBe(401);
    expect((await fetch(`${base}/templates`, { method: 'PUT', headers, body: '{}' })).status).toBe(405);
    const report = proxy.report();
    expect(report.violations).toEqual([]);
    expect(report.operations.map((o) => `${o.surface} ${o.operationId} ${o.exchanges}`).sort()).toEqual(['restV2 PUT /v2/templates 1', 'restV2 createTemplate 1', 'restV2 listTemplates 2']);
    expect(report.rules.filter((r) => r.checked > 0).map((r) => r.ruleId)).toEqual(expect.arrayContaining(['RESTV2-AUTH-001', 'RESTV2-ERROR-001', 'RESTV2-HTTP-001']));
  });

  it('upstream returning a REST v2 secret value (mock fault secret-value-returned) → RESTV2-SECRET-002; without the fault none', async () => {
    for (const faults of [['secret-value-returned'], []] as FaultName[][]) {
      const { proxy } = await mockBehindProxy(faults);
      const v2 = createRestV2Client({ baseUrl: proxy.url, apiKey: KEY });
      await v2.account.secrets.create({ name: 'hf-token', value: 'leaky-secret-value-1' }).catch(() => undefined);
      const report = proxy.report();
      const leaks = report.violations.filter((v) => v.ruleId === 'RESTV2-SECRET-002').map((v) => v.operationId);
      expect(leaks, faults.join() || 'no fault').toEqual(faults.length > 0 ? ['createSecret'] : []);
      expect(JSON.stringify(report)).not.toContain('leaky-secret-value-1');
    }
  });

  it('upstream echoing the registry password (mock fault password-echoed) → SECRET-001 at level must', async () => {
    const { proxy } = await mockBehindProxy(['password-echoed']);
    const rest = createRestClient({ baseUrl: `${proxy.url}/v1`, apiKey: KEY });
    await rest.containerRegistryAuths.create({ name: 'reg', username: 'u', password: 'leaky-password-1' }).catch(() => undefined);
    const report = proxy.report();
    const leak = report.violations.find((v) => v.ruleId === 'SECRET-001');
    expect(leak).toMatchObject({ operationId: 'createContainerRegistryAuth', level: 'must' });
    expect(leak!.message).toContain('registry password at /password');
    expect(JSON.stringify(report)).not.toContain('leaky-password-1');
  });

  it('upstream answering 429 without Retry-After → RATE-429-001', async () => {
    const { proxy } = await upstreamBehindProxy((req, res) => {
      req.resume();
      json(res, 429, { message: 'Too many requests' });
    });
    const res = await fetch(`${proxy.url}/v2/ep1/status/job-1`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(429);
    expect(named(proxy.report())).toEqual(['RATE-429-001 getJobStatus']);
    expect(proxy.report().violations[0]!.message).toBe('getJobStatus answered 429 whose required header retry-after is missing');
  });

  it('Retry-After that is not whole seconds → RATE-429-001; with whole seconds → no violation', async () => {
    let value = '1.5';
    const { proxy } = await upstreamBehindProxy((req, res) => {
      req.resume();
      json(res, 429, { message: 'Too many requests' }, { 'retry-after': value });
    });
    await fetch(`${proxy.url}/v1/pods`, { headers: { authorization: `Bearer ${KEY}` } });
    value = '3';
    await fetch(`${proxy.url}/v1/pods`, { headers: { authorization: `Bearer ${KEY}` } });
    const report = proxy.report();
    expect(report.violations.map((v) => v.message)).toEqual(['listPods answered 429 whose required header retry-after is "1.5", not a whole number']);
    expect(report.rules.find((r) => r.ruleId === 'RATE-429-001')).toMatchObject({ checked: 2, violations: 1 });
  });

  it('unauthenticated call answered 200 → AUTH-001 (REST v1), AUTH-004 (queue v2), GQL-AUTH-002', async () => {
    const { proxy } = await upstreamBehindProxy((req, res) => {
      req.resume();
      if (req.url!.startsWith('/graphql')) return json(res, 200, { data: { podTemplate: null } });
      if (req.url!.startsWith('/v2/')) return json(res, 200, { jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 }, workers: { idle: 0, running: 0 } });
      json(res, 200, []);
    });
    await fetch(`${proxy.url}/v1/pods`);
    await fetch(`${proxy.url}/v2/ep1/health`);
    await fetch(`${proxy.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ podTemplate(id: "x") { id } }' }) });
    const report = proxy.report();
    expect(named(report).sort()).toEqual(['AUTH-001 listPods', 'AUTH-004 getHealth', 'GQL-AUTH-002 podTemplate']);
    expect(report.violations.every((v) => v.level === 'must' && v.message.includes('without credentials (expected 401)'))).toBe(true);
  });

  it('keyless GraphQL: the MCP server\'s public queries → 0 violations; with fault graphql-public-leaks-account an account field beside them → GQL-PUBLIC-002', async () => {
    const wire = JSON.parse(readFileSync(new URL('../compat/sdk-wire/mcp-server-4.0.0-graphql.json', import.meta.url), 'utf8')) as { documents: { tool: string; auth: string; query: string }[] };
    const publicQueries = wire.documents.filter((d) => d.auth === 'none').map((d) => d.query);
    expect(publicQueries.length).toBeGreaterThanOrEqual(4);
    const mixed = '{ gpuTypes { id } myself { id } }';
    const keyless = (proxy: RunningProxy, query: string) => fetch(`${proxy.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    for (const faults of [[], ['graphql-public-leaks-account']] as FaultName[][]) {
      const { proxy } = await mockBehindProxy(faults);
      for (const query of publicQueries) expect((await keyless(proxy, query)).status).toBe(200);
      expect((await keyless(proxy, mixed)).status).toBe(faults.length ? 200 : 401);
      expect((await keyless(proxy, 'mutation { secretDelete(id: "s1") }')).status).toBe(401);
      const report = proxy.report();
      expect(report.rules.find((r) => r.ruleId === 'GQL-PUBLIC-001')).toMatchObject({ checked: publicQueries.length, violations: 0 });
      expect(named(report)).toEqual(faults.length ? ['GQL-PUBLIC-002 gpuTypes+myself'] : []);
    }
  });

  it('streams pass through as they are produced; long bodies are scanned end to end but not schema-judged', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { proxy } = await upstreamBehindProxy(async (req, res) => {
      req.resume();
      if (req.url!.includes('/logs')) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write('data: {"line":"first"}\n\n');
        await released; // the second event waits until the client has read the first: no buffering
        res.end('data: {"line":"second"}\n\n');
        return;
      }
      // A /stream answer longer than the capture with the API key split across two chunks past it.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"id":"job-1","status":"IN_PROGRESS","stream":[{"output":"${'a'.repeat(MAX_CAPTURED_BODY_BYTES)}`);
      res.write(KEY.slice(0, 5));
      res.end(`${KEY.slice(5)}"}]}`);
    });
    const sse = await fetch(`${proxy.url}/v2/pods/pod-1/logs`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    const reader = sse.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('first');
    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toContain('second');

    const long = await fetch(`${proxy.url}/v2/ep1/stream/job-1`, { headers: { authorization: `Bearer ${KEY}` } });
    expect((await long.text()).length).toBeGreaterThan(MAX_CAPTURED_BODY_BYTES);
    const report = proxy.report();
    expect(report.notes.map((n) => n.note).sort()).toEqual(['answer body not judged: text/event-stream', `answer not judged: body over ${MAX_CAPTURED_BODY_BYTES} bytes`]);
    expect(named(report)).toEqual(['AUTH-006 streamJob']);
    expect(report.violations[0]!.message).toBe('secret leaked: streamJob answered 200 containing the API key in the body');
  });

  it('forwards method, path, query, body and end-to-end headers unchanged; hop-by-hop ones are dropped', async () => {
    let seen: { method?: string; url?: string; headers?: Record<string, unknown>; body?: string } = {};
    const { upstream, proxy } = await upstreamBehindProxy((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, headers: req.headers, body };
        json(res, 200, { id: 'x', name: 'n' }, { 'x-upstream': 'yes', 'keep-alive': 'timeout=1' });
      });
    });
    const res = await fetch(`${proxy.url}/v1/templates/t1?x=1&y=%20`, {
      method: 'PATCH', body: '{"name":"n"}', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-custom': 'kept', 'proxy-authorization': 'dropped', te: 'trailers' },
    });
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(res.headers.get('keep-alive')).not.toBe('timeout=1');
    expect(seen).toMatchObject({ method: 'PATCH', url: '/v1/templates/t1?x=1&y=%20', body: '{"name":"n"}' });
    expect(seen.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'x-custom': 'kept', host: new URL(upstream.url).host });
    expect(seen.headers).not.toHaveProperty('proxy-authorization');
    expect(seen.headers).not.toHaveProperty('te');
  });

  it('an unreachable upstream is answered 502 and counted, not judged', async () => {
    const upstream = await startUpstream((_req, res) => res.end());
    await upstream.close();
    const proxy = await startProxy({ upstream: upstream.url, port: 0 });
    stops.push(() => proxy.close());
    const res = await fetch(`${proxy.url}/v1/pods`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(502);
    expect((await res.json()).message).toMatch(/^proxy: upstream .* failed: ECONNREFUSED/);
    expect(proxy.report().totals).toMatchObject({ exchanges: 1, upstreamErrors: 1, violations: 0 });
    expect((await fetch(`${proxy.url}/__proxy/other`)).status).toBe(404);
    expect((await fetch(`${proxy.url}/__proxy/report`, { method: 'POST' })).status).toBe(405);
  });

  it('an upstream breaking off mid-answer breaks the answer to the client too, and is counted', async () => {
    const { proxy } = await upstreamBehindProxy((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"id":');
      setImmediate(() => res.socket?.destroy());
    });
    const res = await fetch(`${proxy.url}/v1/pods`, { headers: { authorization: `Bearer ${KEY}` } });
    await expect(res.text()).rejects.toThrow();
    await expect.poll(() => proxy.report().totals.upstreamErrors, { timeout: 5_000 }).toBe(1);
    expect(proxy.report().totals).toMatchObject({ exchanges: 1, judged: 0, violations: 0 });
  });

  it('refuses an upstream that is not an absolute http(s) URL', async () => {
    await expect(startProxy({ upstream: 'localhost:8787' })).rejects.toThrow(/absolute http\(s\) URL|http or https/);
    await expect(startProxy({ upstream: 'ftp://127.0.0.1/' })).rejects.toThrow(/http or https/);
  });
});
