// GraphQL operation limits (GRAPHQL-COST-*): one past each limit the SDL's schema description states is
// refused (errors[], no data) and one at it is served; a mutation over a limit runs nothing.
import { defineCheck } from '../../src/conform/registry.js';
import { errorsOf, expect, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';
import type { StaticGraphqlLimitName } from '../../src/contract/graphql-limits.js';
import { DOCUMENT_AT, saveTemplateOfTokens, saveTemplatesMutation } from './graphql-cost-documents.js';

const DELETE = 'mutation Del($name: String) { deleteTemplate(templateName: $name) }';
const SAVE = 'mutation Save($input: SaveTemplateInput) { saveTemplate(input: $input) { id name } }';

function expectRefused(answer: Answer, what: string): void {
  expect(answer.status === 200 || answer.status === 400, `${what}: expected HTTP 200 (or 400) with errors[], got ${answer.status}`);
  expect(Array.isArray(answer.body?.errors) && answer.body.errors.length > 0, `${what} was not refused with an errors[] entry`);
  const data = answer.body?.data;
  expect(data === undefined || data === null, `${what} was refused but answered data ${String(JSON.stringify(data)).slice(0, 120)}: it ran`);
}

function expectServed(answer: Answer, what: string): void {
  expect(answer.status === 200, `${what}: expected HTTP 200, got ${answer.status}`);
  expect(answer.body?.data && !answer.body.errors, `${what} (within the limit) was not served: ${errorsOf(answer)}`);
}

function limitCheck(id: string, limit: StaticGraphqlLimitName): void {
  defineCheck(id, async (ctx) => {
    const max = ctx.value<number>(limit);
    expectRefused(await ctx.gql(DOCUMENT_AT[limit](max + 1)), `an operation of ${limit} ${max + 1} (limit ${max})`);
    expectServed(await ctx.gql(DOCUMENT_AT[limit](max)), `an operation of ${limit} ${max}`);
  }, { shares: [] });
}

limitCheck('GRAPHQL-COST-001', 'tokens');
limitCheck('GRAPHQL-COST-002', 'depth');
limitCheck('GRAPHQL-COST-003', 'aliases');
limitCheck('GRAPHQL-COST-004', 'rootFields');
limitCheck('GRAPHQL-COST-005', 'directives');
limitCheck('GRAPHQL-COST-006', 'cost');

/** A name is free when a template can be saved under it (GQL-TEMPLATE: names are unique); that one is deleted. */
async function expectNameFree(ctx: Ctx, name: string, what: string): Promise<void> {
  const saved = await ctx.gql(SAVE, { input: { name, imageName: 'repo/limits:1', containerDiskInGb: 10, volumeInGb: 0 } });
  expect(saved.body?.data?.saveTemplate?.id && !saved.body.errors, `${what}: the name ${name} is taken afterwards, so the refused mutation ran (${errorsOf(saved)})`);
}

defineCheck('GRAPHQL-COST-007', async (ctx) => {
  const rootFields = ctx.value<number>('rootFields');
  const names = Array.from({ length: rootFields + 1 }, () => ctx.name('gqlcost'));
  const tokensName = ctx.name('gqlcost');
  // Whatever happens, the names are released (a target that ran the mutation created templates).
  for (const name of [...names, tokensName]) ctx.cleanup(() => ctx.gql(DELETE, { name }));
  expectRefused(await ctx.gql(saveTemplatesMutation(names)), `${rootFields + 1} saveTemplate root fields (limit ${rootFields})`);
  const tokens = ctx.value<number>('tokens');
  expectRefused(await ctx.gql(saveTemplateOfTokens(tokensName, tokens + 1)), `a saveTemplate of ${tokens + 1} tokens (limit ${tokens})`);
  for (const name of names) await expectNameFree(ctx, name, `after ${rootFields + 1} refused saveTemplate root fields`);
  await expectNameFree(ctx, tokensName, `after a refused saveTemplate of ${tokens + 1} tokens`);
}, { shares: [] });

defineCheck('GRAPHQL-COST-008', async (ctx) => {
  const limits = ctx.target.embedded!.core.options.limits;
  const catalog = await ctx.gql('{ gpuTypes { id } }');
  const count = (catalog.body?.data?.gpuTypes as unknown[] | undefined)?.length ?? 0;
  expect(count > 1, `gpuTypes listed ${count} GPU types; the check needs at least 2`);
  const saved = limits.graphqlRecords;
  try {
    limits.graphqlRecords = count - 1;
    const refused = await ctx.gql('{ gpuTypes { id } }');
    expectRefused(refused, `gpuTypes listing ${count} records (records limit lowered to ${count - 1})`);
    expect(/records/.test(String(refused.body.errors[0]?.message)), `the refusal does not name the records limit: ${errorsOf(refused)}`);
    limits.graphqlRecords = count;
    expectServed(await ctx.gql('{ gpuTypes { id } }'), `gpuTypes listing ${count} records (records limit ${count})`);
  } finally {
    limits.graphqlRecords = saved;
  }
}, { requires: ['embedded'] });
