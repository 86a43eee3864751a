// HTTP method hygiene (RFC 9110) and body-less POSTs as official SDKs send them: HTTP-ALLOW-001,
// HTTP-OPTIONS-001, HTTP-HEAD-001, HTTP-BODY-001, and the mock's CORS switch HTTP-CORS-001 (mock-only).
// They judge the paths of the surfaces the target gives (REST v1 retired: queue v2 and GraphQL).
import { operations } from '../../generated/operations.js';
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { isHttpSurface, type Answer, type CallOptions, type HttpSurface } from '../../src/conform/http.js';
import { urlOf } from '../../src/conform/surfaces.js';
import { startMock } from '../../src/mock/index.js';

interface Route {
  url: string;
  methods: Set<string>;
}

/** Every documented path once, with its methods; ids need not exist (405/OPTIONS/HEAD come before lookups). */
function routes(ctx: Ctx, endpointId: string): Route[] {
  const byUrl = new Map<string, Route>();
  for (const op of operations) {
    // REST v2 answers problem details: RESTV2-HTTP-001; a surface the target does not give has no paths to judge.
    if (!isHttpSurface(op.surface) || urlOf(ctx.target, op.surface) === undefined) continue;
    const path: Record<string, string> = {};
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) path[name!] = name === 'openaiPath' ? 'v1/chat/completions' : 'cc-unknown-id';
    const url = ctx.http.url(op.surface, op.operationId, { path, endpointId });
    const route = byUrl.get(url) ?? { url, methods: new Set<string>() };
    route.methods.add(op.method);
    byUrl.set(url, route);
  }
  return [...byUrl.values()];
}

const allowOf = (answer: Answer) => new Set((answer.headers.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase()).filter(Boolean));

function expectAllowCovers(answer: Answer, methods: Iterable<string>, what: string): void {
  const allow = allowOf(answer);
  expect(allow.size > 0, `${what}: no Allow header`);
  for (const method of methods) expect(allow.has(method), `${what}: Allow "${answer.headers.get('allow')}" lacks ${method}`);
}

const bearer = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.target.apiKey}` });
const graphqlWithKey = (ctx: Ctx) => `${ctx.baseUrl('graphql')}${ctx.baseUrl('graphql').includes('?') ? '&' : '?'}api_key=${encodeURIComponent(ctx.target.apiKey)}`;

defineCheck('HTTP-ALLOW-001', async (ctx) => {
  const all = routes(ctx, await ctx.anyEndpoint());
  for (const route of all) {
    const refused = ['PUT', 'PATCH', 'DELETE', 'POST'].find((m) => !route.methods.has(m))!;
    const answer = await ctx.http.raw(refused, route.url, undefined, bearer(ctx));
    expectStatus(answer, ctx.value<number>('status'), `${refused} ${new URL(route.url).pathname}`);
    expectAllowCovers(answer, route.methods, `${refused} ${new URL(route.url).pathname}`);
    expect(!allowOf(answer).has(refused), `${refused} ${new URL(route.url).pathname}: Allow lists the refused method`);
  }
  const graphql = await ctx.http.raw('GET', graphqlWithKey(ctx));
  expectStatus(graphql, 405, 'GET on the GraphQL address');
  expectAllowCovers(graphql, ['POST'], 'GET on the GraphQL address');
  return `${all.length} ${ctx.target.restUrl !== undefined ? 'REST v1 / queue v2' : 'queue v2'} paths and the GraphQL address`;
}, { needs: ['queueV2', 'graphql', 'endpoint'], everyConfiguredSurface: true });

defineCheck('HTTP-OPTIONS-001', async (ctx) => {
  const all = routes(ctx, await ctx.anyEndpoint());
  for (const route of [...all, { url: ctx.baseUrl('graphql'), methods: new Set(['POST']) }]) {
    const answer = await ctx.http.raw('OPTIONS', route.url, undefined, { origin: 'https://docs.example.test', 'access-control-request-method': [...route.methods][0]! });
    expectStatus(answer, ctx.value<number>('status'), `OPTIONS ${new URL(route.url).pathname} without credentials`);
    expectAllowCovers(answer, route.methods, `OPTIONS ${new URL(route.url).pathname}`);
  }
  return `${all.length + 1} paths`;
}, { needs: ['queueV2', 'graphql', 'endpoint'], everyConfiguredSurface: true });

defineCheck('HTTP-HEAD-001', async (ctx) => {
  const endpointId = await ctx.anyEndpoint();
  // REST v2: RESTV2-HTTP-001.
  const gets = operations.filter((o): o is typeof o & { surface: HttpSurface } => o.method === 'GET' && isHttpSurface(o.surface) && urlOf(ctx.target, o.surface) !== undefined);
  for (const op of gets) {
    const path: Record<string, string> = {};
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) path[name!] = 'cc-unknown-id';
    const url = ctx.http.url(op.surface, op.operationId, { path, endpointId });
    const get = await ctx.http.raw('GET', url, undefined, bearer(ctx));
    const head = await ctx.http.raw('HEAD', url, undefined, bearer(ctx));
    expectEqual(head.status, get.status, `HEAD ${op.operationId} status (GET answered ${get.status})`);
    expectEqual(head.text, '', `HEAD ${op.operationId} body`);
    expectEqual(head.headers.get('content-type'), get.headers.get('content-type'), `HEAD ${op.operationId} Content-Type`);
    expectStatus(await ctx.http.raw('HEAD', url), 401, `HEAD ${op.operationId} without a key`);
  }
  // HEAD changes nothing: a stream chunk stays for the next GET.
  const streaming = await ctx.endpoint();
  const id = await ctx.run(streaming, { durationMs: 100, stream: ['a'] });
  await ctx.finish(streaming, id, 100);
  const url = ctx.http.url('queueV2', 'streamJob', { path: { jobId: id }, endpointId: streaming });
  expectStatus(await ctx.http.raw('HEAD', url, undefined, bearer(ctx)), 200, 'HEAD streamJob');
  const chunks = (await ctx.queue(streaming, 'streamJob', { path: { jobId: id } })).body?.stream;
  expectEqual(chunks, [{ output: 'a' }], 'GET streamJob after HEAD');
  return `${gets.length} GET operations`;
}, { needs: ['queueV2', 'jobs', 'rest'], everyConfiguredSurface: true });

type Variant = { name: string; options: CallOptions };
const VARIANTS: Variant[] = [
  { name: 'no body', options: {} },
  { name: 'an empty body', options: { rawBody: '', headers: { 'content-type': 'application/json' } } },
  { name: '{}', options: { body: {} } },
];

defineCheck('HTTP-BODY-001', async (ctx) => {
  // REST v1's body-less pod actions when REST v1 is given (REST v2's podAction takes a body: RESTV2-ACTION-*).
  const v1 = ctx.target.restUrl !== undefined;
  const pod = v1 ? await ctx.pod() : undefined;
  for (const variant of pod ? VARIANTS : []) {
    for (const op of ['stopPod', 'startPod', 'restartPod', 'resetPod']) {
      expectStatus(await ctx.rest(op, { path: { podId: pod!.id }, ...variant.options }), 200, `${op} with ${variant.name}`);
    }
  }
  for (const variant of VARIANTS) {
    // A fresh endpoint each: /purge-queue allows 2 calls per 10 s.
    const endpointId = await ctx.endpoint({ workersMax: 1 });
    const failing = await ctx.run(endpointId, { durationMs: 10, error: 'cc-fail' });
    await ctx.finish(endpointId, failing, 10);
    expectStatus(await ctx.queue(endpointId, 'retryJob', { path: { jobId: failing }, ...variant.options }), 200, `retryJob with ${variant.name}`);
    const running = await ctx.run(endpointId, { durationMs: 60_000 });
    expectStatus(await ctx.queue(endpointId, 'cancelJob', { path: { jobId: running }, ...variant.options }), 200, `cancelJob with ${variant.name}`);
    expectStatus(await ctx.queue(endpointId, 'purgeQueue', variant.options), 200, `purgeQueue with ${variant.name}`);
  }
  if (!pod) return 'retry, cancel and purge-queue with no body, an empty body and {} (REST v1 pod actions: REST v1 not given)';
  const stop = await ctx.rest('stopPod', { path: { podId: pod.id }, body: { 'cc-unknown': true } });
  expectStatus(stop, 400, 'stopPod with {"cc-unknown": true}');
  const paths = (stop.body?.errors ?? []).map((e: { path?: string }) => e.path);
  expect(paths.includes('/body/cc-unknown'), `stopPod 400 does not name /body/cc-unknown (errors: ${JSON.stringify(paths)})`);
  return 'pod actions, retry, cancel and purge-queue with no body, an empty body and {}';
}, { needs: ['queueV2', 'jobs', 'rest'], everyConfiguredSurface: true });

defineCheck('HTTP-CORS-001', async () => {
  const off = await startMock({ port: 0 });
  const any = await startMock({ port: 0, cors: '*' });
  const one = await startMock({ port: 0, cors: 'https://docs.example.test' });
  try {
    const preflight = { origin: 'https://docs.example.test', 'access-control-request-method': 'GET' };
    for (const answer of [await fetch(`${off.restV1Url}/pods`, { headers: { origin: 'https://x.test' } }), await fetch(`${off.restV1Url}/pods`, { method: 'OPTIONS', headers: preflight })]) {
      const names: string[] = [];
      answer.headers.forEach((_value, name) => name.startsWith('access-control-') && names.push(name));
      expectEqual(names, [], 'Access-Control-* headers of the mock without --cors');
    }
    const pre = await fetch(`${any.restV1Url}/pods`, { method: 'OPTIONS', headers: preflight });
    expectEqual([pre.status, pre.headers.get('access-control-allow-origin'), pre.headers.get('access-control-allow-headers')], [204, '*', 'Authorization, Content-Type'], '--cors * preflight');
    expect(pre.headers.get('access-control-allow-methods')?.includes('POST'), '--cors * preflight: Access-Control-Allow-Methods lacks POST');
    expect(Number(pre.headers.get('access-control-max-age')) > 0, '--cors * preflight: no Access-Control-Max-Age');
    const denied = await fetch(`${any.restV1Url}/pods`);
    expectEqual([denied.status, denied.headers.get('access-control-allow-origin')], [401, '*'], '--cors * on a 401');
    expect(denied.headers.get('access-control-expose-headers')?.includes('Retry-After'), '--cors *: Retry-After is not exposed');
    const single = await fetch(`${one.graphqlUrl}`, { method: 'OPTIONS', headers: preflight });
    expectEqual([single.status, single.headers.get('access-control-allow-origin'), single.headers.get('vary')], [204, 'https://docs.example.test', 'Origin'], '--cors ORIGIN preflight on /graphql');
  } finally {
    await Promise.all([off.close(), any.close(), one.close()]);
  }
  return 'three mocks in-process: without --cors, with *, with one origin';
}, { requires: ['embedded'] });
