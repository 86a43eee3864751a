// REST v2 cross-cutting rules: auth, problem details, 405, quota windows, wrapped lists, templates and
// one state with REST v1 / GraphQL / queue v2. RESTV2-AUTH-*, RESTV2-ERROR-*, RESTV2-HTTP-001,
// RESTV2-RATE-*, RESTV2-LIST-001, RESTV2-TEMPLATE-*, RESTV2-CROSS-*.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';

const UNKNOWN = 'cc-unknown-id-404';

/** A problem answer (RFC 9457) with this status. */
export function expectProblem(answer: Answer, status: number, what: string): void {
  expectStatus(answer, status, what);
  const type = answer.headers.get('content-type') ?? '';
  expect(type.startsWith('application/problem+json'), `${what}: Content-Type is "${type}", not application/problem+json`);
  const body = answer.body as { title?: unknown; status?: unknown; detail?: unknown; errors?: unknown } | undefined;
  expect(typeof body?.title === 'string' && body.title !== '', `${what}: problem body lacks a title`);
  expectEqual(body?.status, status, `${what}: problem status`);
  expect(typeof body?.detail === 'string', `${what}: problem body lacks a detail`);
  if (body?.errors !== undefined) expect(Array.isArray(body.errors) && body.errors.every((e) => typeof e === 'string'), `${what}: errors is not a list of strings`);
}

async function v2Template(ctx: Ctx, overrides: Record<string, unknown> = {}): Promise<any> {
  const created = await ctx.v2('createTemplate', { body: { name: ctx.name('v2t'), image: 'cc/v2:1', ...overrides } });
  expectStatus(created, 201, 'createTemplate (REST v2)');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteTemplate', { path: { id } }));
  return created.body;
}

const templateIds = async (ctx: Ctx): Promise<string[]> => {
  const list = await ctx.v2('listTemplates');
  expectStatus(list, 200, 'listTemplates');
  return (list.body.templates as { id: string }[]).map((t) => t.id);
};

defineCheck('RESTV2-AUTH-001', async (ctx) => {
  for (const [op, body] of [['listPods'], ['listTemplates'], ['createTemplate', { name: 'x', image: 'x:1' }], ['getSshKeys']] as const) {
    for (const key of [null, ctx.name("cc-invalid-key")]) {
      const answer = await ctx.v2(op, { key, ...(body ? { body } : {}) });
      expectProblem(answer, 401, `${op} ${key === null ? 'without a key' : 'with an unknown key'}`);
      expect(answer.headers.get('ratelimit') === null, `${op}: a 401 carries RateLimit (the caller is unknown)`);
    }
  }
});

defineCheck('RESTV2-AUTH-002', async (ctx) => {
  const readOnly = ctx.target.readOnlyKey!;
  const none = ctx.target.noPermissionKey!;
  const before = await templateIds(ctx);
  expectProblem(await ctx.v2('createTemplate', { key: readOnly, body: { name: ctx.name('ro'), image: 'x:1' } }), 403, 'createTemplate with a read-only key');
  expectProblem(await ctx.v2('deleteTemplate', { key: readOnly, path: { id: UNKNOWN } }), 403, 'deleteTemplate with a read-only key');
  expectProblem(await ctx.v2('listTemplates', { key: none }), 403, 'listTemplates with a key without access');
  expectProblem(await ctx.v2('listPods', { key: none }), 403, 'listPods with a key without access');
  expectStatus(await ctx.v2('listTemplates', { key: readOnly }), 200, 'listTemplates with a read-only key');
  expectEqual((await templateIds(ctx)).length, before.length, 'templates after the refused create');
}, { requires: ['readOnlyKey', 'noPermissionKey'] });

defineCheck('RESTV2-ERROR-001', async (ctx) => {
  expectProblem(await ctx.v2('getTemplate', { path: { id: UNKNOWN } }), 404, 'getTemplate of an unknown id');
  expectProblem(await ctx.v2('createTemplate', { body: { name: ctx.name('bad') } }), 422, 'createTemplate without image');
  expectProblem(await ctx.v2('listPods', { key: null }), 401, 'listPods without a key');
  const malformed = await ctx.v2('createTemplate', { rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
  expectProblem(malformed, 400, 'createTemplate with a body that is not JSON');
});

defineCheck('RESTV2-ERROR-002', async (ctx) => {
  const before = await templateIds(ctx);
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown property', { name: ctx.name('e'), image: 'x:1', ccUnknownField: 1 }, '/body/ccUnknownField'],
    ['wrong type', { name: ctx.name('e'), image: 'x:1', disk: 'fifty' }, '/body/disk'],
    ['missing required', { name: ctx.name('e') }, '/body/image'],
  ];
  for (const [what, body, path] of cases) {
    const answer = await ctx.v2('createTemplate', { body });
    expectProblem(answer, 422, `createTemplate, ${what}`);
    const errors = (answer.body.errors ?? []) as string[];
    expect(errors.some((e) => e.includes(path.replace('/body', '')) ), `createTemplate, ${what}: errors ${JSON.stringify(errors)} do not name ${path}`);
  }
  expectProblem(await ctx.v2('createTemplate', { rawBody: 'not json', headers: { 'content-type': 'application/json' } }), 400, 'createTemplate, body not JSON');
  expectEqual((await templateIds(ctx)).length, before.length, 'templates after the refused creates');
});

defineCheck('RESTV2-ERROR-003', async (ctx) => {
  // Every operation on an id (the agreement phase's allow-list names this rule for each): a valid body where one is required.
  const bodies: Record<string, unknown> = { podAction: { action: 'stop' } };
  for (const op of ctx.rule.operations ?? []) {
    const body = bodies[op] ?? (op.startsWith('update') ? { name: 'x' } : undefined);
    const path: Record<string, string> = op === 'getWorkerLogs' ? { id: UNKNOWN, workerId: UNKNOWN } : { id: UNKNOWN };
    expectProblem(await ctx.v2(op, { path, ...(body ? { body } : {}) }), 404, `${op} of an unknown id`);
  }
});

defineCheck('RESTV2-HTTP-001', async (ctx) => {
  const base = ctx.target.restV2Url!;
  const cases: [string, string, string[]][] = [
    ['PUT', '/templates', ['GET', 'POST']],
    ['DELETE', '/pods', ['GET', 'POST']],
    ['POST', `/templates/${UNKNOWN}`, ['GET', 'PATCH', 'DELETE']],
    ['PATCH', '/account/ssh-keys', ['GET', 'PUT']],
  ];
  for (const [method, path, methods] of cases) {
    // Waits out a quota the suite's own set-up calls may have used up: the 405 is what is judged.
    const answer = await ctx.v2Raw(method, path, method === 'DELETE' ? undefined : {}, { authorization: `Bearer ${ctx.target.apiKey}` });
    expectProblem(answer, 405, `${method} ${path}`);
    const allow = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim());
    for (const m of methods) expect(allow.includes(m), `${method} ${path}: Allow "${allow.join(', ')}" lacks ${m}`);
    expect(!allow.includes(method), `${method} ${path}: Allow lists the refused method`);
  }
  const options = await ctx.http.raw('OPTIONS', `${base}/templates`);
  expectStatus(options, 204, 'OPTIONS /templates without credentials');
  expect((options.headers.get('allow') ?? '').includes('POST'), 'OPTIONS /templates: Allow lacks POST');
});

/** `"minute";r=59;t=12, …` → {minute: {r, t}} (also q/w of RateLimit-Policy). */
export function parseRateFields(value: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const member of (value ?? '').split(',')) {
    const [name, ...params] = member.trim().split(';');
    if (!name) continue;
    const fields: Record<string, number> = {};
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k && v !== undefined) fields[k.trim()] = Number(v);
    }
    out[name.replace(/"/g, '')] = fields;
  }
  return out;
}

defineCheck('RESTV2-RATE-001', async (ctx) => {
  const expected = { minute: ctx.value<number>('minute'), hour: ctx.value<number>('hour'), day: ctx.value<number>('day') };
  const first = await ctx.v2('listTemplates');
  const second = await ctx.v2('getTemplate', { path: { id: UNKNOWN } });
  for (const [what, answer] of [['listTemplates (200)', first], ['getTemplate (404)', second]] as const) {
    const policy = parseRateFields(answer.headers.get('ratelimit-policy'));
    const remaining = parseRateFields(answer.headers.get('ratelimit'));
    for (const [window, quota] of Object.entries(expected)) {
      expectEqual(policy[window]?.['q'], quota, `${what}: RateLimit-Policy quota of the ${window} window`);
      expect(Number.isInteger(remaining[window]?.['r']) && Number.isInteger(remaining[window]?.['t']), `${what}: RateLimit lacks r/t of the ${window} window`);
    }
  }
  const a = parseRateFields(first.headers.get('ratelimit'));
  const b = parseRateFields(second.headers.get('ratelimit'));
  // The hour and day windows cannot reset between two requests unless a boundary passed; the minute may.
  for (const window of ['hour', 'day']) {
    if ((b[window]?.['t'] ?? 0) <= (a[window]?.['t'] ?? 0)) expectEqual(b[window]?.['r'], (a[window]?.['r'] ?? 0) - 1, `${window} remaining after one more request`);
  }
});

defineCheck('RESTV2-RATE-002', async (ctx) => {
  const probe = await ctx.v2('listTemplates', { quota: 'raw' });
  const remaining = parseRateFields(probe.headers.get('ratelimit'))['minute']?.['r'];
  expect(remaining !== undefined, 'listTemplates: RateLimit lacks the minute window');
  let refused: Answer | undefined;
  for (let i = 0; i <= remaining! + 1 && !refused; i++) {
    const answer = await ctx.v2('listTemplates', { quota: 'raw' });
    if (answer.status === 429) refused = answer;
    else expectStatus(answer, 200, `listTemplates #${i + 1} within the minute quota`);
  }
  expect(refused, `no 429 after ${remaining! + 2} requests past a minute quota with ${remaining} left`);
  expectProblem(refused, 429, 'listTemplates past the minute quota');
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= 60, `Retry-After "${refused.headers.get('retry-after')}" is not whole seconds within the minute window`);
  expectEqual(parseRateFields(refused.headers.get('ratelimit'))['minute']?.['r'], 0, 'RateLimit minute remaining on the 429');
  await ctx.pass(retryAfter * 1000);
  expectStatus(await ctx.v2('listTemplates', { quota: 'raw' }), 200, 'listTemplates once Retry-After has passed');
  return `429 after ${remaining} requests; Retry-After ${retryAfter} s`;
});

defineCheck('RESTV2-LIST-001', async (ctx) => {
  const keys: Record<string, string> = { listTemplates: 'templates', listPods: 'pods', listEndpoints: 'endpoints', listNetworkVolumes: 'networkVolumes', listRegistries: 'registries' };
  for (const op of ctx.rule.operations ?? []) {
    const answer = await ctx.v2(op);
    expectStatus(answer, 200, op);
    const key = keys[op]!;
    expect(answer.body && !Array.isArray(answer.body) && Array.isArray(answer.body[key]), `${op} did not answer {"${key}": [...]}`);
  }
});

defineCheck('RESTV2-TEMPLATE-001', async (ctx) => {
  const created = await v2Template(ctx, { ports: ['8888/http'], env: { A: '1' } });
  const defaults = { category: 'NVIDIA', public: false, serverless: false, startSsh: true, startJupyter: true, allowedCudaVersions: [] };
  for (const [k, v] of Object.entries(defaults)) expectEqual(created[k], v, `createTemplate default ${k}`);
  const got = await ctx.v2('getTemplate', { path: { id: created.id } });
  expectStatus(got, 200, 'getTemplate');
  expectEqual(got.body, created, 'getTemplate after create');
  const patched = await ctx.v2('updateTemplate', { path: { id: created.id }, body: { disk: 25 } });
  expectStatus(patched, 200, 'updateTemplate');
  expectEqual(patched.body, { ...created, disk: 25 }, 'template after PATCH {disk: 25}');
  expectStatus(await ctx.v2('deleteTemplate', { path: { id: created.id } }), 204, 'deleteTemplate');
  expectStatus(await ctx.v2('getTemplate', { path: { id: created.id } }), 404, 'getTemplate after delete');
});

defineCheck('RESTV2-TEMPLATE-002', async (ctx) => {
  const first = await v2Template(ctx);
  const second = await v2Template(ctx);
  const before = await templateIds(ctx);
  expectProblem(await ctx.v2('createTemplate', { body: { name: first.name, image: 'x:2' } }), 400, 'createTemplate with a taken name');
  expectProblem(await ctx.v2('updateTemplate', { path: { id: second.id }, body: { name: first.name } }), 400, 'updateTemplate renaming onto a taken name');
  expectProblem(await ctx.v2('createTemplate', { body: { name: ctx.name('net'), image: 'x:1', mounts: { network: [{ volumeId: 'v', path: '/w' }] } } }), 422, 'createTemplate with a network mount');
  expectEqual((await templateIds(ctx)).length, before.length, 'templates after the refused creates');
});

defineCheck('RESTV2-CROSS-001', async (ctx) => {
  const name = ctx.name('v1t');
  const v1 = await ctx.rest('createTemplate', { body: { name, imageName: 'cc/v1:1', containerDiskInGb: 12, dockerStartCmd: ['python', '-u', 'handler.py'], isServerless: true, volumeInGb: 30, volumeMountPath: '/data', ports: ['8000/http'], env: { K: 'v' } } });
  expectStatus(v1, 200, 'createTemplate (REST v1)');
  const id = String(v1.body.id);
  ctx.cleanup(() => ctx.rest('deleteTemplate', { path: { templateId: id } }));
  const v2 = await ctx.v2('getTemplate', { path: { id } });
  expectStatus(v2, 200, 'getTemplate (REST v2) of a REST v1 template');
  const want = { id, name, image: 'cc/v1:1', disk: 12, args: 'python -u handler.py', serverless: true, public: false, mounts: { persistent: { size: 30, path: '/data' } }, ports: ['8000/http'], env: { K: 'v' } };
  for (const [k, v] of Object.entries(want)) expectEqual(v2.body[k], v, `REST v2 ${k} of a REST v1 template`);
  expect((await templateIds(ctx)).includes(id), 'listTemplates (REST v2) lacks the REST v1 template');
  expectStatus(await ctx.v2('updateTemplate', { path: { id }, body: { image: 'cc/v1:2', disk: 14 } }), 200, 'updateTemplate (REST v2)');
  const back = await ctx.rest('getTemplate', { path: { templateId: id } });
  expectEqual([back.body.imageName, back.body.containerDiskInGb], ['cc/v1:2', 14], 'REST v1 imageName/containerDiskInGb after the REST v2 update');
  const made = await v2Template(ctx, { args: 'bash -c "echo hi"', public: false, serverless: true });
  const seen = await ctx.rest('getTemplate', { path: { templateId: made.id } });
  expectStatus(seen, 200, 'getTemplate (REST v1) of a REST v2 template');
  expectEqual([seen.body.imageName, seen.body.dockerStartCmd, seen.body.isServerless], ['cc/v2:1', ['bash', '-c', 'echo hi'], true], 'REST v1 view of a REST v2 template');
}, { needs: ['restV1', 'restV2'] });

defineCheck('RESTV2-CROSS-002', async (ctx) => {
  const name = ctx.name('gql');
  const saved = await ctx.gql('mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { id } }', {
    input: { name, imageName: 'cc/gql:1', dockerArgs: 'python -u handler.py', containerDiskInGb: 10, volumeInGb: 0 },
  });
  expectStatus(saved, 200, 'saveTemplate');
  const id = String(saved.body?.data?.saveTemplate?.id);
  ctx.cleanup(() => ctx.v2('deleteTemplate', { path: { id } }));
  const v2 = await ctx.v2('getTemplate', { path: { id } });
  expectStatus(v2, 200, 'getTemplate (REST v2) of a GraphQL template');
  expectEqual([v2.body.name, v2.body.image, v2.body.args], [name, 'cc/gql:1', 'python -u handler.py'], 'REST v2 view of a GraphQL template');
  expect((await templateIds(ctx)).includes(id), 'listTemplates (REST v2) lacks the GraphQL template');
}, { needs: ['graphql'] });

defineCheck('RESTV2-CROSS-003', async (ctx) => {
  const template = await v2Template(ctx, { image: ctx.target.workerImage, serverless: true, disk: 10 });
  const created = await ctx.v2('createEndpoint', { body: { name: ctx.name('v2ep'), templateId: template.id, type: 'QUEUE', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 0, max: 1 } } });
  expectStatus(created, 201, 'createEndpoint (REST v2)');
  const endpointId = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteEndpoint', { path: { id: endpointId } }));
  const v1 = await ctx.rest('getEndpoint', { path: { endpointId } });
  expectStatus(v1, 200, 'getEndpoint (REST v1) of a REST v2 endpoint');
  const jobId = await ctx.run(endpointId, { durationMs: 50 });
  await ctx.pass(1_000);
  const done = await ctx.waitForStatus(endpointId, jobId, ['COMPLETED']);
  expectEqual(done.status, 'COMPLETED', 'job on the REST v2 endpoint');
}, { needs: ['restV1', 'queueV2', 'jobs'] });
