// GraphQL templates and secrets, registry auths, billing and write-only secrets: GQL-TEMPLATE-*,
// GQL-ERROR-*, GQL-SECRET-*, REST-REGAUTH-*, REST-BILLING-*, SECRET-*.
import { readFileSync } from 'node:fs';
import { defineCheck } from '../../src/conform/registry.js';
import { errorsOf, expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';
import { packageFile } from '../../src/contract/package-files.js';
import { restRead, REST_VIEW, templatesNamed } from './rest-view.js';

const FIELDS = 'id name imageName containerDiskInGb volumeInGb isServerless dockerArgs env { key value } ports readme volumeMountPath containerRegistryAuthId';
const SAVE = `mutation Save($input: SaveTemplateInput) { saveTemplate(input: $input) { ${FIELDS} } }`;
const GET = `query Get($id: String!) { podTemplate(id: $id) { ${FIELDS} } }`;
const DELETE = 'mutation Del($name: String) { deleteTemplate(templateName: $name) }';
const SECRET_CREATE = 'mutation S($input: SecretCreateInput!) { secretCreate(input: $input) { id name description } }';
const SECRET_DELETE = 'mutation D($id: ID!) { secretDelete(id: $id) }';

function failed(answer: Answer, what: string): void {
  expect(answer.status === 200 || answer.status === 400, `${what}: expected HTTP 200 with errors[], got ${answer.status}`);
  expect(Array.isArray(answer.body?.errors) && answer.body.errors.length > 0, `${what} did not fail with an errors[] entry`);
}

async function save(ctx: Ctx, input: Record<string, unknown>): Promise<Answer> {
  const answer = await ctx.gql(SAVE, { input });
  const created = answer.body?.data?.saveTemplate;
  if (created?.id && input['id'] === undefined) ctx.cleanup(() => ctx.deleteTemplateEventually(created.id));
  return answer;
}

async function saveOk(ctx: Ctx, input: Record<string, unknown>): Promise<any> {
  const answer = await save(ctx, input);
  expectStatus(answer, 200, 'saveTemplate');
  const t = answer.body?.data?.saveTemplate;
  expect(t && !answer.body.errors, `saveTemplate failed: ${errorsOf(answer)}`);
  return t;
}

const base = (ctx: Ctx, extra: Record<string, unknown> = {}) => ({ name: ctx.name('gql'), imageName: 'repo/gql:1', containerDiskInGb: 10, volumeInGb: 5, ...extra });

/** Templates named `name`, as REST lists them (REST v1 when given, else REST v2). */
const count = templatesNamed;

defineCheck('GQL-TEMPLATE-001', async (ctx) => {
  const input = base(ctx, { dockerArgs: 'python run.py', ports: '8888/http,22/tcp', env: [{ key: 'A', value: '1' }], readme: '# hi', volumeMountPath: '/data' });
  const t = await saveOk(ctx, input);
  expect(typeof t.id === 'string' && t.id !== '', 'saveTemplate answered no id');
  for (const [k, v] of Object.entries(input)) expectEqual(t[k], v, `saveTemplate ${k}`);
}, { shares: [] });

defineCheck('GQL-TEMPLATE-002', async (ctx) => {
  for (const missing of ctx.value<string[]>('required')) {
    const input: Record<string, unknown> = base(ctx);
    delete input[missing];
    failed(await save(ctx, input), `saveTemplate without ${missing}`);
    expectEqual(await count(ctx, input['name'] as string ?? ''), 0, `templates named like the refused save (${missing} missing)`);
  }
}, { shares: [], needs: REST_VIEW });

defineCheck('GQL-TEMPLATE-003', async (ctx) => {
  const t = await saveOk(ctx, base(ctx, { isServerless: true, volumeInGb: 0 }));
  expectEqual([t.isServerless, t.volumeInGb], [true, 0], 'saveTemplate serverless fields');
  const read = await ctx.gql(GET, { id: t.id });
  expectEqual([read.body.data?.podTemplate?.isServerless, read.body.data?.podTemplate?.volumeInGb], [true, 0], 'podTemplate serverless fields');
}, { shares: [] });

defineCheck('GQL-TEMPLATE-004', async (ctx) => {
  const auth = await ctx.registryAuth();
  const t = await saveOk(ctx, base(ctx, { containerRegistryAuthId: auth.id }));
  expectEqual(t.containerRegistryAuthId, auth.id, 'saveTemplate containerRegistryAuthId');
  failed(await save(ctx, base(ctx, { containerRegistryAuthId: 'cc-no-such-auth' })), 'saveTemplate with an unknown containerRegistryAuthId');
}, { shares: [], needs: ['rest', 'graphql'] });

defineCheck('GQL-TEMPLATE-005', async (ctx) => {
  const t = await saveOk(ctx, base(ctx, { readme: '# keep?', dockerArgs: 'a b', volumeMountPath: '/x' }));
  const replaced = await saveOk(ctx, { id: t.id, name: t.name, imageName: 'repo/gql:2', containerDiskInGb: 20, volumeInGb: 5 });
  expectEqual([replaced.id, replaced.imageName, replaced.containerDiskInGb], [t.id, 'repo/gql:2', 20], 'modified template');
  const read = (await ctx.gql(GET, { id: t.id })).body.data?.podTemplate;
  expect(read, 'podTemplate of the modified template answered null');
  for (const k of ['readme', 'dockerArgs', 'volumeMountPath']) expect(read[k] !== t[k], `${k} was kept (${JSON.stringify(read[k])}) although the modify input left it out`);
}, { shares: [] });

defineCheck('GQL-TEMPLATE-006', async (ctx) => {
  const t = await saveOk(ctx, base(ctx));
  for (const missing of ctx.value<string[]>('required')) {
    const input: Record<string, unknown> = { id: t.id, name: t.name, imageName: 'repo/changed:9', containerDiskInGb: 99, volumeInGb: 5 };
    delete input[missing];
    failed(await save(ctx, input), `saveTemplate modify without ${missing}`);
  }
  const read = (await ctx.gql(GET, { id: t.id })).body.data?.podTemplate;
  expectEqual([read?.imageName, read?.containerDiskInGb], [t.imageName, t.containerDiskInGb], 'template after refused modifies');
}, { shares: [] });

defineCheck('GQL-TEMPLATE-007', async (ctx) => {
  const a = await saveOk(ctx, base(ctx));
  const b = await saveOk(ctx, base(ctx));
  failed(await save(ctx, base(ctx, { name: a.name })), 'saveTemplate create with a used name');
  expectEqual(await count(ctx, a.name), 1, 'templates with the duplicated name');
  failed(await save(ctx, { id: b.id, name: a.name, imageName: b.imageName, containerDiskInGb: 10, volumeInGb: 5 }), 'saveTemplate renaming onto a used name');
}, { shares: [], needs: REST_VIEW });

defineCheck('GQL-TEMPLATE-008', async (ctx) => {
  const input = base(ctx, { id: 'cc-no-such-template' });
  failed(await save(ctx, input), 'saveTemplate with an unknown id');
  expectEqual(await count(ctx, input['name'] as string), 0, 'templates created by the refused save');
}, { shares: [], needs: REST_VIEW });

defineCheck('GQL-TEMPLATE-009', async (ctx) => {
  for (const ports of ['8888/ftp', '8888', 'http/8888', '8888/http;22/tcp']) failed(await save(ctx, base(ctx, { ports })), `saveTemplate with ports ${ports}`);
}, { shares: [] });

defineCheck('GQL-TEMPLATE-010', async (ctx) => {
  const t = await saveOk(ctx, base(ctx));
  const answer = await ctx.gql(DELETE, { name: t.name });
  expectStatus(answer, 200, 'deleteTemplate');
  expect(!answer.body.errors, `deleteTemplate failed: ${errorsOf(answer)}`);
  expectEqual(answer.body.data, { deleteTemplate: null }, 'deleteTemplate answer');
  expectEqual((await ctx.gql(GET, { id: t.id })).body.data?.podTemplate, null, 'podTemplate after delete');
}, { shares: [] });

defineCheck('GQL-TEMPLATE-011', async (ctx) => {
  const t = await saveOk(ctx, base(ctx, { isServerless: true, volumeInGb: 0 }));
  await ctx.endpoint({ templateId: t.id });
  failed(await ctx.gql(DELETE, { name: t.name }), 'deleteTemplate while an endpoint uses it');
  expect((await ctx.gql(GET, { id: t.id })).body.data?.podTemplate?.id === t.id, 'the template is gone after the refused delete');
}, { shares: ['clock'], needs: ['rest'] }); // the template's delete delay is let pass on the clock at cleanup

defineCheck('GQL-TEMPLATE-012', async (ctx) => {
  failed(await ctx.gql(DELETE, { name: ctx.name('never-created') }), 'deleteTemplate of an unknown name');
}, { shares: [] });

defineCheck('GQL-TEMPLATE-013', async (ctx) => {
  const g = await saveOk(ctx, base(ctx));
  const viaRest = await restRead(ctx, 'template', g.id);
  expect(viaRest.status === 200, `${viaRest.surface} getTemplate of a GraphQL template answered ${viaRest.status}`);
  expectEqual([viaRest.id, viaRest.name, viaRest.image], [g.id, g.name, g.imageName], `${viaRest.surface} view of the GraphQL template`);
  const r = await ctx.template();
  const made = await restRead(ctx, 'template', r.id);
  const viaGql = (await ctx.gql(GET, { id: r.id })).body.data?.podTemplate;
  expectEqual([viaGql?.id, viaGql?.name, viaGql?.imageName], [r.id, r.name, made.image], `GraphQL view of the ${made.surface} template`);
}, { shares: [], needs: ['graphql', ...REST_VIEW] });

defineCheck('GQL-ERROR-001', async (ctx) => {
  const s = await ctx.secretResource();
  const answers = [
    await save(ctx, { name: ctx.name('x'), imageName: 'x:1', containerDiskInGb: 1, volumeInGb: 0, id: 'cc-none' }),
    await ctx.gql(DELETE, { name: ctx.name('never') }),
    await ctx.gql(SECRET_DELETE, { id: 'cc-no-such-secret' }),
    await ctx.gql(SECRET_CREATE, { input: { name: s.name, value: s.value } }),
  ];
  for (const [i, a] of answers.entries()) {
    expectStatus(a, 200, `failing GraphQL operation #${i + 1}`);
    expect(Array.isArray(a.body.errors) && a.body.errors.every((e: { message?: unknown }) => typeof e.message === 'string' && e.message !== ''), `failing operation #${i + 1} has no errors[] with messages`);
  }
  return 'secret values are scanned in every answer';
}, { shares: [] });

defineCheck('GQL-SECRET-001', async (ctx) => {
  const value = ctx.secret('secret value');
  const name = ctx.name('secret');
  const answer = await ctx.gql(SECRET_CREATE, { input: { name, value } });
  const s = answer.body?.data?.secretCreate;
  expect(s?.id, `secretCreate failed: ${errorsOf(answer)}`);
  ctx.cleanup(() => ctx.gql(SECRET_DELETE, { id: s.id }));
  expectEqual([s.name, s.description], [name, null], 'secretCreate name/description');
}, { shares: [] });

defineCheck('GQL-SECRET-002', async (ctx) => {
  for (const input of [{ value: ctx.secret('secret value') }, { name: ctx.name('secret') }]) {
    const answer = await ctx.gql(SECRET_CREATE, { input });
    const created = answer.body?.data?.secretCreate;
    if (created?.id) ctx.cleanup(() => ctx.gql(SECRET_DELETE, { id: created.id }));
    expect(answer.status === 200 || answer.status === 400, `secretCreate without ${'name' in input ? 'value' : 'name'}: HTTP ${answer.status}`);
    expect(Array.isArray(answer.body?.errors) && !created, `secretCreate without ${'name' in input ? 'value' : 'name'} did not fail`);
  }
}, { shares: [] });

defineCheck('GQL-SECRET-003', async (ctx) => {
  const value = ctx.secret('secret value');
  const created = (await ctx.gql(SECRET_CREATE, { input: { name: ctx.name('secret'), value } })).body?.data?.secretCreate;
  expect(created?.id, 'secretCreate failed');
  const first = await ctx.gql(SECRET_DELETE, { id: created.id });
  expect(!first.body.errors, `secretDelete failed: ${errorsOf(first)}`);
  expectEqual(first.body.data, { secretDelete: null }, 'secretDelete answer');
  failed(await ctx.gql(SECRET_DELETE, { id: created.id }), 'secretDelete of an already deleted id');
}, { shares: [] });

// ---- registry auths ------------------------------------------------------------------------------

defineCheck('REST-REGAUTH-001', async (ctx) => {
  const name = ctx.name('auth');
  const answer = await ctx.rest('createContainerRegistryAuth', { body: { name, username: 'u', password: ctx.secret('registry password') } });
  expectStatus(answer, 200, 'createContainerRegistryAuth');
  ctx.cleanup(() => ctx.rest('deleteContainerRegistryAuth', { path: { containerRegistryAuthId: answer.body.id } }));
  expectEqual(Object.keys(answer.body).sort(), ['id', 'name'], 'createContainerRegistryAuth answer keys');
  expectEqual(answer.body.name, name, 'createContainerRegistryAuth name');
}, { shares: [] });

defineCheck('REST-REGAUTH-002', async (ctx) => {
  const ok = { name: ctx.name('auth'), username: 'u', password: ctx.secret('registry password') };
  for (const missing of ['name', 'username', 'password']) {
    const { [missing]: _, ...body } = ok as Record<string, unknown>;
    expectStatus(await ctx.rest('createContainerRegistryAuth', { body }), 400, `createContainerRegistryAuth without ${missing}`);
  }
}, { shares: [] });

defineCheck('REST-REGAUTH-003', async (ctx) => {
  const a = await ctx.registryAuth();
  const dup = await ctx.rest('createContainerRegistryAuth', { body: { name: a.name, username: 'v', password: ctx.secret('registry password') } });
  if (dup.status === 200) ctx.cleanup(() => ctx.rest('deleteContainerRegistryAuth', { path: { containerRegistryAuthId: dup.body.id } }));
  expectStatus(dup, 400, 'createContainerRegistryAuth with a duplicate name');
  const list = (await ctx.rest('listContainerRegistryAuths')).body as { name: string }[];
  expectEqual(list.filter((x) => x.name === a.name).length, 1, 'registry auths with that name');
}, { shares: [] });

defineCheck('REST-REGAUTH-004', async (ctx) => {
  const a = await ctx.registryAuth();
  const got = await ctx.rest('getContainerRegistryAuth', { path: { containerRegistryAuthId: a.id } });
  expectStatus(got, 200, 'getContainerRegistryAuth');
  expectEqual([got.body.id, got.body.name], [a.id, a.name], 'getContainerRegistryAuth');
  const list = (await ctx.rest('listContainerRegistryAuths')).body as { id: string }[];
  expect(list.some((x) => x.id === a.id), 'listContainerRegistryAuths does not contain it');
}, { shares: [] });

defineCheck('REST-REGAUTH-005', async (ctx) => {
  const created = await ctx.rest('createContainerRegistryAuth', { body: { name: ctx.name('auth'), username: 'u', password: ctx.secret('registry password') } });
  expectStatus(created, 200, 'createContainerRegistryAuth');
  const del = await ctx.rest('deleteContainerRegistryAuth', { path: { containerRegistryAuthId: created.body.id } });
  expectStatus(del, 204, 'deleteContainerRegistryAuth');
  expect(del.text === '', 'deleteContainerRegistryAuth answered 204 with a body');
  expectStatus(await ctx.rest('getContainerRegistryAuth', { path: { containerRegistryAuthId: created.body.id } }), 404, 'getContainerRegistryAuth after delete');
}, { shares: [] });

defineCheck('REST-REGAUTH-006', async (ctx) => {
  expectStatus(await ctx.rest('deleteContainerRegistryAuth', { path: { containerRegistryAuthId: 'cc-no-such-auth' } }), 400, 'deleteContainerRegistryAuth of an unknown id');
}, { shares: [] });

// ---- billing -------------------------------------------------------------------------------------

for (const [id, op] of [['REST-BILLING-001', 'getPodBilling'], ['REST-BILLING-002', 'getEndpointBilling'], ['REST-BILLING-003', 'getNetworkVolumeBilling']] as const) {
  defineCheck(id, async (ctx) => {
    const answer = await ctx.rest(op);
    expectStatus(answer, 200, op);
    expect(Array.isArray(answer.body), `${op} did not answer an array`);
  }, { shares: [] });
}

defineCheck('REST-BILLING-004', async (ctx) => {
  for (const op of ctx.rule.operations ?? []) {
    for (const bucketSize of ctx.value<string[]>('bucketSizes')) expectStatus(await ctx.rest(op, { query: { bucketSize } }), 200, `${op} bucketSize=${bucketSize}`);
    expectStatus(await ctx.rest(op, { query: { bucketSize: 'fortnight' } }), 400, `${op} bucketSize=fortnight`);
    expectStatus(await ctx.rest(op, { query: { startTime: 'yesterday' } }), 400, `${op} startTime=yesterday`);
  }
}, { shares: [] });

// ---- secrets never returned ------------------------------------------------------------------------

defineCheck('SECRET-001', async (ctx) => {
  const a = await ctx.registryAuth(); // the create answer is scanned too
  await ctx.rest('getContainerRegistryAuth', { path: { containerRegistryAuthId: a.id } });
  await ctx.rest('listContainerRegistryAuths');
  await ctx.rest('createContainerRegistryAuth', { body: { name: a.name, username: 'u', password: a.password } }); // duplicate → error answer
  await ctx.rest('createContainerRegistryAuth', { body: { name: 5, username: 'u', password: a.password } });
  return 'password scanned in create, get, list and error answers';
});

defineCheck('SECRET-002', async (ctx) => {
  const schema = readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8');
  const secretType = /type Secret \{([\s\S]*?)\n\}/.exec(schema)?.[1] ?? '';
  expect(!/^\s*value\s*:/m.test(secretType), 'the Secret type declares a value field');
  const s = await ctx.secretResource();
  const probe = await ctx.gql(`mutation { secretCreate(input: {name: "${ctx.name('s')}", value: "${ctx.secret('secret value')}"}) { id value } }`);
  expect(probe.status !== 200 || Array.isArray(probe.body?.errors), 'selecting Secret.value did not fail');
  await ctx.gql(SECRET_CREATE, { input: { name: s.name, value: s.value } }); // duplicate → error answer, scanned
}, { shares: [] });

defineCheck('SECRET-003', async (ctx) => {
  const accessSecret = ctx.secret('s3 accessSecret');
  const s3Config = { accessId: 'cc-access', accessSecret, bucketName: 'cc-bucket', endpointUrl: 'https://s3.example.test' };
  const endpointId = await ctx.endpoint();
  const id = await ctx.run(endpointId, { durationMs: 100, stream: ['a'] }, { s3Config });
  await ctx.queue(endpointId, 'streamJob', { path: { jobId: id } });
  await ctx.finish(endpointId, id, 100);
  await ctx.queue(endpointId, 'streamJob', { path: { jobId: id } });
  const sync = await ctx.queue(endpointId, 'runJobSync', { body: { input: { mock: { durationMs: 0 } }, s3Config }, query: { wait: 5000 } });
  expectStatus(sync, 200, 'runJobSync');
  await ctx.queue(endpointId, 'runJob', { body: { input: {}, s3Config: { ...s3Config, endpointUrl: 'not a url' } } });
  return 'accessSecret scanned in run, runsync, status, stream and error answers (webhook body: WEBHOOK-002)';
}, { shares: [], needs: ['jobs'], requires: [] });

defineCheck('SECRET-004', async (ctx) => {
  // Reports are written after the run; the runner scans them (see src/conform/index.ts). Here: the
  // embedded mock's request log must not carry keys (it never logs query strings or bodies).
  const lines: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  const mock = ctx.target.embedded!;
  const wasLogging = mock.core.options.log;
  (mock.core.options as { log: boolean }).log = true;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    await ctx.registryAuth();
    await ctx.secretResource();
    await ctx.gql('query { podTemplate(id: "x") { id } }');
  } finally {
    process.stderr.write = original;
    (mock.core.options as { log: boolean }).log = wasLogging;
  }
  const text = lines.join('');
  for (const [value, label] of ctx.http.secrets.entries()) expect(!text.includes(value), `the mock's log contains a ${label}`);
  return `${lines.length} log lines scanned; reports are scanned after writing`;
}, { needs: ['rest', 'graphql'], requires: ['embedded'] });
