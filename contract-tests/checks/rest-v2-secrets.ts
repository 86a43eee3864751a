// REST v2 account secrets: RESTV2-SECRET-*. The value is write-only: every value here comes from
// ctx.secret(), so the suite's answer scan fails any check whose target echoes one, and the checks also
// look for it themselves where the rule is about it (002).
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';
import { expectProblem } from './rest-v2-core.js';

/** Names start with a letter; ctx.name() gives `cc-<prefix>-<run>-<n>`, which fits the pattern. */
const secretName = (ctx: Ctx, prefix = 'secret') => ctx.name(prefix);

async function v2Secret(ctx: Ctx, extra: Record<string, unknown> = {}): Promise<{ body: any; name: string; value: string }> {
  const name = secretName(ctx);
  const value = ctx.secret('secret value');
  const created = await ctx.v2('createSecret', { body: { name, value, ...extra } });
  expectStatus(created, 201, 'createSecret');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteSecret', { path: { id } }));
  return { body: created.body, name, value };
}

async function secretList(ctx: Ctx, name?: string): Promise<any[]> {
  const answer = await ctx.v2('listSecrets', name === undefined ? {} : { query: { name } });
  expectStatus(answer, 200, `listSecrets${name === undefined ? '' : `?name=${name}`}`);
  return answer.body.secrets as any[];
}

/** The refused create left no secret of that name behind. */
async function expectNoSecretNamed(ctx: Ctx, name: string, what: string): Promise<void> {
  expectEqual((await secretList(ctx, name)).length, 0, `${what}: secrets named ${name} afterwards`);
}

defineCheck('RESTV2-SECRET-001', async (ctx) => {
  const { body, name } = await v2Secret(ctx);
  expectEqual(Object.keys(body).sort(), [...ctx.value<string[]>('fields')].sort(), 'createSecret answer fields');
  expectEqual([body.name, body.description], [name, null], 'createSecret name and description');
  expect(typeof body.id === 'string' && body.id !== '' && !Number.isNaN(Date.parse(body.createdAt)), `createSecret id and createdAt: ${JSON.stringify(body)}`);
  expectEqual(body.valueLastUpdatedAt, body.createdAt, 'valueLastUpdatedAt of a new secret');
  const got = await ctx.v2('getSecret', { path: { id: body.id } });
  expectStatus(got, 200, 'getSecret');
  expectEqual(got.body, body, 'getSecret vs createSecret');
  expectEqual((await secretList(ctx)).find((s) => s.id === body.id), body, 'listSecrets entry');
  const other = await v2Secret(ctx, { description: 'cc second secret' });
  expectEqual(other.body.description, 'cc second secret', 'createSecret description');
  expectEqual(await secretList(ctx, name.toUpperCase()), [body], 'listSecrets?name= in another case');
  expectEqual(await secretList(ctx, `${name}-none`), [], 'listSecrets?name= of no secret');
}, { shares: [] });

defineCheck('RESTV2-SECRET-002', async (ctx) => {
  const { body, name, value } = await v2Secret(ctx, { description: 'cc write-only' });
  const answers: [string, Answer][] = [
    ['getSecret', await ctx.v2('getSecret', { path: { id: body.id } })],
    ['listSecrets', await ctx.v2('listSecrets')],
    ['listSecrets?name=', await ctx.v2('listSecrets', { query: { name } })],
  ];
  const rotated = ctx.secret('secret value');
  answers.push(['updateSecret', await ctx.v2('updateSecret', { path: { id: body.id }, body: { value: rotated } })]);
  answers.push(['createSecret of a taken name', await ctx.v2('createSecret', { body: { name, value: ctx.secret('secret value') } })]);
  const refusedValue = ctx.secret('secret value');
  answers.push(['createSecret with a bad name', await ctx.v2('createSecret', { body: { name: '9-starts-with-a-digit', value: refusedValue } })]);
  answers.push(['updateSecret with a name', await ctx.v2('updateSecret', { path: { id: body.id }, body: { name: 'renamed', value: refusedValue } })]);
  for (const [what, answer] of answers) {
    expect(answer.status < 500, `${what}: HTTP ${answer.status}`);
    const text = JSON.stringify(answer.body ?? null);
    expect(!text.includes('"value"'), `${what}: the answer carries a value field`);
    for (const v of [value, rotated, refusedValue]) expect(!text.includes(v), `${what}: the answer carries a secret value`);
  }
}, { shares: [] });

defineCheck('RESTV2-SECRET-003', async (ctx) => {
  const { body, name } = await v2Secret(ctx);
  for (const taken of [name, name.toUpperCase()]) {
    expectProblem(await ctx.v2('createSecret', { body: { name: taken, value: ctx.secret('secret value') } }), ctx.value<number>('taken'), `createSecret named ${taken} while ${name} exists`);
  }
  expectEqual((await secretList(ctx, name)).map((s) => s.id), [body.id], 'secrets of that name after the refusals');
  expectProblem(await ctx.v2('updateSecret', { path: { id: body.id }, body: { name: `${name}-renamed` } }), ctx.value<number>('immutable'), 'updateSecret sending a name');
  expectEqual((await ctx.v2('getSecret', { path: { id: body.id } })).body.name, name, 'name after the refused rename');
}, { shares: [] });

defineCheck('RESTV2-SECRET-004', async (ctx) => {
  const status = ctx.value<number>('status');
  const value = () => ctx.secret('secret value');
  const long = `a${'b'.repeat(ctx.value<number>('nameMaxLength'))}`;
  const bad: [string, Record<string, unknown>][] = [
    [`a name of ${long.length} characters`, { name: long, value: value() }],
    ['a name starting with a digit', { name: `9${secretName(ctx)}`, value: value() }],
    ['a name with a space', { name: `cc bad ${ctx.name('n')}`, value: value() }],
    ['a name starting with RUNPOD', { name: `RUNPOD_${secretName(ctx).replace(/-/g, '_')}`, value: value() }],
    ['a name starting with runpod (lower case)', { name: `runpod-${secretName(ctx)}`, value: value() }],
    ['an empty value', { name: secretName(ctx), value: '' }],
    // 32768 two-byte characters: within maxLength as characters, over the byte bound.
    ['a description over 65535 bytes of UTF-8', { name: secretName(ctx), value: value(), description: 'é'.repeat(ctx.value<number>('descriptionMaxBytes') / 2 + 1) }],
  ];
  for (const [what, body] of bad) {
    const answer = await ctx.v2('createSecret', { body });
    // A target that wrongly stores it still gets it deleted again.
    if (answer.status === 201) ctx.cleanup(() => ctx.v2('deleteSecret', { path: { id: String(answer.body.id) } }));
    expectProblem(answer, status, `createSecret with ${what}`);
    if (typeof body['name'] === 'string' && (body['name'] as string).length <= 191) await expectNoSecretNamed(ctx, body['name'] as string, what);
  }
  const { body } = await v2Secret(ctx);
  expectProblem(await ctx.v2('updateSecret', { path: { id: body.id }, body: {} }), status, 'updateSecret with {}');
  expectProblem(await ctx.v2('updateSecret', { path: { id: body.id }, body: { value: '' } }), status, 'updateSecret with an empty value');
  expectEqual((await ctx.v2('getSecret', { path: { id: body.id } })).body, body, 'the secret after the refused updates');
}, { shares: [] });

defineCheck('RESTV2-SECRET-005', async (ctx) => {
  const { body } = await v2Secret(ctx, { description: 'cc before' });
  await ctx.pass(1_000);
  const rotated = await ctx.v2('updateSecret', { path: { id: body.id }, body: { value: ctx.secret('secret value') } });
  expectStatus(rotated, 200, 'updateSecret with a value');
  expectEqual([rotated.body.createdAt, rotated.body.description], [body.createdAt, 'cc before'], 'createdAt and description after a rotation');
  expect(Date.parse(rotated.body.valueLastUpdatedAt) > Date.parse(body.valueLastUpdatedAt), `valueLastUpdatedAt did not move: ${body.valueLastUpdatedAt} → ${rotated.body.valueLastUpdatedAt}`);
  const described = await ctx.v2('updateSecret', { path: { id: body.id }, body: { description: 'cc after' } });
  expectStatus(described, 200, 'updateSecret with a description');
  expectEqual([described.body.description, described.body.valueLastUpdatedAt], ['cc after', rotated.body.valueLastUpdatedAt], 'a description change');
  const cleared = await ctx.v2('updateSecret', { path: { id: body.id }, body: { description: '' } });
  expectStatus(cleared, 200, 'updateSecret clearing the description');
  expectEqual(cleared.body.description, null, 'description after ""');
  expectEqual((await ctx.v2('getSecret', { path: { id: body.id } })).body, cleared.body, 'getSecret after the updates');
  expectProblem(await ctx.v2('updateSecret', { path: { id: 'cc-no-such-secret' }, body: { description: 'x' } }), 404, 'updateSecret of an unknown id');
}, { shares: ['clock'] });

defineCheck('RESTV2-SECRET-006', async (ctx) => {
  const { body, name } = await v2Secret(ctx);
  const deleted = await ctx.v2('deleteSecret', { path: { id: body.id } });
  expectStatus(deleted, 204, 'deleteSecret');
  expect(deleted.text === '', 'deleteSecret answered a body');
  expectProblem(await ctx.v2('getSecret', { path: { id: body.id } }), 404, 'getSecret after the delete');
  expectProblem(await ctx.v2('deleteSecret', { path: { id: body.id } }), 404, 'deleteSecret again');
  expect(!(await secretList(ctx)).some((s) => s.id === body.id), 'listSecrets still lists the deleted secret');
  const again = await ctx.v2('createSecret', { body: { name, value: ctx.secret('secret value') } });
  expectStatus(again, 201, 'createSecret with the deleted secret\'s name');
  ctx.cleanup(() => ctx.v2('deleteSecret', { path: { id: again.body.id } }));
}, { shares: [] });
