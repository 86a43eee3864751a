// One resource seen through two surfaces, and GraphQL errors that name what the caller sent:
// GQL-TEMPLATE-014 (dockerArgs ⇄ dockerStartCmd), GQL-ERROR-002 (only secret values are hidden).
import { defineCheck } from '../../src/conform/registry.js';
import { errorsOf, expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';

const SAVE = 'mutation Save($input: SaveTemplateInput) { saveTemplate(input: $input) { id name dockerArgs } }';
const GET = 'query Get($id: String!) { podTemplate(id: $id) { id dockerArgs } }';
const SECRET_CREATE = 'mutation S($input: SecretCreateInput!) { secretCreate(input: $input) { id } }';
const SECRET_DELETE = 'mutation D($id: ID!) { secretDelete(id: $id) }';

async function saveOk(ctx: Ctx, input: Record<string, unknown>): Promise<{ id: string; name: string; dockerArgs: string | null }> {
  const answer = await ctx.gql(SAVE, { input: { imageName: ctx.target.workerImage, containerDiskInGb: 10, volumeInGb: 0, ...input } });
  const saved = answer.body?.data?.saveTemplate;
  expect(saved?.id && !answer.body.errors, `saveTemplate failed: ${errorsOf(answer)}`);
  if (input['id'] === undefined) ctx.cleanup(() => ctx.deleteTemplateEventually(saved.id));
  return saved;
}

const messageOf = (answer: { body: any }) => String(answer.body?.errors?.[0]?.message ?? '');

defineCheck('GQL-TEMPLATE-014', async (ctx) => {
  const args = 'python -u handler.py --name "my model"';
  const saved = await saveOk(ctx, { name: ctx.name('args'), dockerArgs: args });
  const rest = await ctx.rest('getTemplate', { path: { templateId: saved.id } });
  expectStatus(rest, 200, 'getTemplate of a GraphQL-saved template');
  expectEqual(rest.body.dockerStartCmd, ['python', '-u', 'handler.py', '--name', 'my model'], 'REST v1 dockerStartCmd of dockerArgs');
  expectEqual((await ctx.gql(GET, { id: saved.id })).body.data?.podTemplate?.dockerArgs, args, 'podTemplate dockerArgs as saved');

  const encoded = await saveOk(ctx, { name: ctx.name('args'), dockerArgs: JSON.stringify({ cmd: ['run'], entrypoint: ['/init'] }) });
  const decoded = (await ctx.rest('getTemplate', { path: { templateId: encoded.id } })).body;
  expectEqual([decoded.dockerStartCmd, decoded.dockerEntrypoint], [['run'], ['/init']], 'REST v1 start command of the {"cmd","entrypoint"} encoding');

  const created = await ctx.template({ dockerStartCmd: ['python', 'serve.py', '--port', '8000'] });
  expectEqual((await ctx.gql(GET, { id: created.id })).body.data?.podTemplate?.dockerArgs, 'python serve.py --port 8000', 'podTemplate dockerArgs of a REST v1 dockerStartCmd');
}, { needs: ['graphql', 'restV1'] });

defineCheck('GQL-ERROR-002', async (ctx) => {
  const name = ctx.name('named');
  await saveOk(ctx, { name });
  const duplicate = await ctx.gql(SAVE, { input: { name, imageName: ctx.target.workerImage, containerDiskInGb: 10, volumeInGb: 0 } });
  expect(messageOf(duplicate).includes(name), `duplicate saveTemplate error does not name '${name}': ${messageOf(duplicate)}`);

  const missing = ctx.name('missing');
  const del = await ctx.gql('mutation Del($name: String) { deleteTemplate(templateName: $name) }', { name: missing });
  expect(messageOf(del).includes(missing), `deleteTemplate error does not name '${missing}': ${messageOf(del)}`);

  const secretName = ctx.name('secret');
  const first = await ctx.gql(SECRET_CREATE, { input: { name: secretName, value: ctx.secret('secret value') } });
  const id = first.body?.data?.secretCreate?.id;
  expect(id, `secretCreate failed: ${errorsOf(first)}`);
  ctx.cleanup(() => ctx.gql(SECRET_DELETE, { id }));
  // The second value is a registered secret: the HTTP layer fails the check if any answer carries it.
  const again = await ctx.gql(SECRET_CREATE, { input: { name: secretName, value: ctx.secret('secret value') } });
  expect(messageOf(again).includes(secretName), `duplicate secretCreate error does not name '${secretName}': ${messageOf(again)}`);
  await ctx.gql(SECRET_CREATE, { input: { name: ctx.name('secret'), value: ctx.secret('secret value'), bogus: 1 } });
  return 'template and secret names visible; secret values scanned in every answer';
});
