// REST v2 sandboxes: RESTV2-SANDBOX-*. Every sandbox a check creates carries a label unique to the check
// (so lists are read through it, never account-wide) and is terminated by a cleanup. A sandbox accepts
// commands and streams logs only once its container has started (10 to 30 s after RUNNING on the real
// service): `ready` waits for that by retrying a harmless command on 409.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { expectProblem } from './rest-v2-core.js';
import { expectEventShape, readLog } from './rest-v2-logs.js';

const UNKNOWN = 'cc-unknown-sandbox-404';
const IMAGE = 'python:3.12-slim';
const SHARED = { shares: ['clock', 'restV2-quota'] } as const;
const seconds = (iso: string): number => Date.parse(iso) / 1000;

/** A label value unique to this check's sandboxes. */
const tag = (ctx: Ctx): string => ctx.name('sbx').replace(/[^A-Za-z0-9-]/g, '-');

async function sandbox(ctx: Ctx, body: Record<string, unknown> = {}): Promise<any> {
  const created = await ctx.v2('createSandbox', { body: { ...(body['templateId'] === undefined ? { imageName: IMAGE } : {}), ...body } });
  expectStatus(created, 201, 'createSandbox');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('terminateSandbox', { path: { id } }));
  return created.body;
}

/** Waits (2 s steps, at most 60 s) until the sandbox runs a command; answers the first command's result. */
async function ready(ctx: Ctx, id: string): Promise<any> {
  for (let i = 0; i < 30; i++) {
    const answer = await ctx.v2('runSandboxCommand', { path: { id }, body: { command: ['true'] } });
    if (answer.status !== 409) {
      expectStatus(answer, 200, 'runSandboxCommand ["true"] once the container has started');
      return answer.body;
    }
    await ctx.pass(2_000);
  }
  throw new Error(`sandbox ${id} did not accept a command within 60 s`);
}

const get = async (ctx: Ctx, id: string): Promise<any> => {
  const answer = await ctx.v2('getSandbox', { path: { id } });
  expectStatus(answer, 200, 'getSandbox');
  return answer.body;
};

const listIds = async (ctx: Ctx, query: Record<string, string | string[]>, what: string): Promise<string[]> => {
  const answer = await ctx.v2('listSandboxes', { query });
  expectStatus(answer, 200, what);
  return (answer.body.sandboxes as { id: string }[]).map((s) => s.id).sort();
};

defineCheck('RESTV2-SANDBOX-001', async (ctx) => {
  const label = tag(ctx);
  const created = await sandbox(ctx, { labels: { cc: label } });
  // The mock stays CREATING for 5 s of its clock; a real service "usually" answers CREATING too.
  if (ctx.controlled) expectEqual(created.state, 'CREATING', 'state of a new sandbox');
  if (created.state === 'CREATING') expect(created.compute === undefined, `a CREATING sandbox has no compute: ${JSON.stringify(created.compute)}`);
  expectEqual([created.idleTimeoutSeconds, created.maxLifetimeSeconds], [ctx.value('idleTimeoutSeconds'), ctx.value('maxLifetimeSeconds')], 'default timeouts');
  expect(typeof created.name === 'string' && created.name !== '', `a generated name: ${JSON.stringify(created.name)}`);
  expectEqual(seconds(created.idleExpiresAt) - seconds(created.lastActivityAt), created.idleTimeoutSeconds, 'idleExpiresAt − lastActivityAt');
  expectEqual(seconds(created.expiresAt) - seconds(created.createdAt), created.maxLifetimeSeconds, 'expiresAt − createdAt');
  expectEqual([created.templateId, created.imageName, created.terminationReason, created.terminatedAt], [null, IMAGE, null, null], 'source and termination of a new sandbox');
  const read = await get(ctx, created.id);
  expectEqual([read.id, read.name, read.createdAt, read.labels], [created.id, created.name, created.createdAt, { cc: label }], 'getSandbox vs the created sandbox');
  let running = read;
  for (let i = 0; i < 30 && running.state === 'CREATING'; i++) {
    await ctx.pass(2_000);
    running = await get(ctx, created.id);
  }
  expectEqual(running.state, 'RUNNING', 'state after creation');
  const c = running.compute ?? {};
  expect(['vcpuCount', 'memoryInGb', 'containerDiskInGb', 'costPerHr'].every((k) => typeof c[k] === 'number'), `compute of a RUNNING sandbox: ${JSON.stringify(running.compute)}`);
  expectEqual(await listIds(ctx, { labels: [`cc=${label}`] }, 'listSandboxes'), [created.id], 'listSandboxes by the check\'s label');
}, SHARED);

defineCheck('RESTV2-SANDBOX-002', async (ctx) => {
  const label = tag(ctx);
  const labels = { cc: label };
  const malformed = ctx.value<number>('malformed');
  const unknownName = ctx.value<number>('unknownName');
  const template = await ctx.v2('createTemplate', { body: { name: ctx.name('sbx-t'), image: IMAGE } });
  expectStatus(template, 201, 'createTemplate (REST v2)');
  const templateId = String(template.body.id);
  ctx.cleanup(() => ctx.v2('deleteTemplate', { path: { id: templateId } }));
  const refused = (body: Record<string, unknown>) => ctx.v2('createSandbox', { body: { labels, ...body } });
  expectProblem(await refused({ imageName: IMAGE, templateId }), malformed, 'createSandbox with templateId and imageName');
  expectProblem(await refused({}), malformed, 'createSandbox with neither templateId nor imageName');
  expectProblem(await refused({ imageName: IMAGE, ccUnknownField: true }), malformed, 'createSandbox with an unknown field');
  expectProblem(await refused({ templateId: 'cc-unknown-template' }), unknownName, 'createSandbox with an unknown templateId');
  expectProblem(await refused({ imageName: IMAGE, cpuFlavorId: 'cc-no-such-flavor' }), unknownName, 'createSandbox with an unknown cpuFlavorId');
  expectEqual(await listIds(ctx, { labels: [`cc=${label}`] }, 'listSandboxes after refusals'), [], 'sandboxes the refused creates left');
  const fromTemplate = await sandbox(ctx, { templateId, labels });
  expectEqual([fromTemplate.templateId, fromTemplate.imageName], [templateId, null], 'a sandbox from a template');
}, SHARED);

defineCheck('RESTV2-SANDBOX-003', async (ctx) => {
  const [idleMax, lifeMax] = [ctx.value<number>('idleTimeoutMax'), ctx.value<number>('maxLifetimeMax')];
  const above = await sandbox(ctx, { idleTimeoutSeconds: idleMax + 1_800, maxLifetimeSeconds: lifeMax + 13_600 });
  expectEqual([above.idleTimeoutSeconds, above.maxLifetimeSeconds], [idleMax, lifeMax], 'timeouts above the maxima, as applied');
  expectEqual(seconds(above.expiresAt) - seconds(above.createdAt), lifeMax, 'expiresAt of a clamped lifetime');
  const at = await sandbox(ctx, { idleTimeoutSeconds: idleMax, maxLifetimeSeconds: lifeMax });
  expectEqual([at.idleTimeoutSeconds, at.maxLifetimeSeconds], [idleMax, lifeMax], 'timeouts at the maxima');
  const below = await sandbox(ctx, { idleTimeoutSeconds: 300, maxLifetimeSeconds: 900 });
  expectEqual([below.idleTimeoutSeconds, below.maxLifetimeSeconds], [300, 900], 'timeouts below the maxima');
}, SHARED);

defineCheck('RESTV2-SANDBOX-004', async (ctx) => {
  const label = tag(ctx);
  const { id } = await sandbox(ctx, { labels: { cc: label } });
  expectStatus(await ctx.v2('terminateSandbox', { path: { id } }), ctx.value<number>('status'), 'terminateSandbox');
  const ended = await get(ctx, id);
  expectEqual(ended.state, 'TERMINATED', 'state after terminateSandbox');
  expect(typeof ended.terminationReason === 'string' && typeof ended.terminatedAt === 'string', `terminationReason and terminatedAt: ${ended.terminationReason}, ${ended.terminatedAt}`);
  expect(ended.compute === undefined, `a TERMINATED sandbox has no compute: ${JSON.stringify(ended.compute)}`);
  expectEqual(await listIds(ctx, { labels: [`cc=${label}`] }, 'listSandboxes'), [], 'listSandboxes without state (TERMINATED left out)');
  expectEqual(await listIds(ctx, { state: 'TERMINATED', labels: [`cc=${label}`] }, 'listSandboxes state=TERMINATED'), [id], 'listSandboxes state=TERMINATED');
  await ctx.pass(1_000);
  expectStatus(await ctx.v2('terminateSandbox', { path: { id } }), ctx.value<number>('status'), 'terminateSandbox again');
  const again = await get(ctx, id);
  expectEqual([again.terminationReason, again.terminatedAt], [ended.terminationReason, ended.terminatedAt], 'termination after a second terminateSandbox');
  expectProblem(await ctx.v2('terminateSandbox', { path: { id: UNKNOWN } }), 404, 'terminateSandbox of an unknown id');
  expectProblem(await ctx.v2('getSandbox', { path: { id: UNKNOWN } }), 404, 'getSandbox of an unknown id');
}, SHARED);

defineCheck('RESTV2-SANDBOX-005', async (ctx) => {
  // Idle: 60 s without activity after a command.
  const idle = await sandbox(ctx, { idleTimeoutSeconds: 60 });
  await ready(ctx, idle.id);
  const before = await get(ctx, idle.id);
  await ctx.pass(5_000);
  expectStatus(await ctx.v2('runSandboxCommand', { path: { id: idle.id }, body: { command: ['true'] } }), 200, 'runSandboxCommand');
  const active = await get(ctx, idle.id);
  expect(seconds(active.lastActivityAt) > seconds(before.lastActivityAt), `a command moves lastActivityAt (${before.lastActivityAt} → ${active.lastActivityAt})`);
  expectEqual(seconds(active.idleExpiresAt) - seconds(active.lastActivityAt), 60, 'idleExpiresAt − lastActivityAt after a command');
  await ctx.pass(50_000);
  expectEqual((await get(ctx, idle.id)).state, 'RUNNING', 'state 50 s after the last command (idle timeout 60 s)');
  await ctx.pass(15_000);
  const idled = await get(ctx, idle.id);
  expectEqual(idled.state, 'TERMINATED', 'state 65 s after the last command');
  expect(typeof idled.terminationReason === 'string' && seconds(idled.terminatedAt) >= seconds(active.idleExpiresAt), `terminated at idleExpiresAt ${active.idleExpiresAt}: ${idled.terminatedAt} (${idled.terminationReason})`);
  // Lifetime: 60 s from creation, however active.
  const short = await sandbox(ctx, { maxLifetimeSeconds: 60 });
  await ready(ctx, short.id);
  await ctx.pass(30_000);
  await ctx.v2('runSandboxCommand', { path: { id: short.id }, body: { command: ['true'] } });
  await ctx.pass(35_000);
  const expired = await get(ctx, short.id);
  expectEqual(expired.state, 'TERMINATED', 'state past expiresAt');
  expect(typeof expired.terminationReason === 'string' && seconds(expired.terminatedAt) >= seconds(short.expiresAt), `terminated at expiresAt ${short.expiresAt}: ${expired.terminatedAt} (${expired.terminationReason})`);
  expect(expired.terminationReason !== idled.terminationReason, `the lifetime and the idle timeout give different reasons (${expired.terminationReason})`);
}, { ...SHARED, realWaitMs: 240_000 });

defineCheck('RESTV2-SANDBOX-006', async (ctx) => {
  const label = tag(ctx);
  const staging = await sandbox(ctx, { labels: { cc: label, env: 'staging' } });
  const prod = await sandbox(ctx, { labels: { cc: label, env: 'prod' } });
  const cc = `cc=${label}`;
  const by = (...labels: string[]) => listIds(ctx, { labels }, `listSandboxes labels=${labels.join('&labels=')}`);
  expectEqual(await by(cc), [staging.id, prod.id].sort(), 'one label both carry');
  expectEqual(await by(cc, 'env=staging'), [staging.id], 'two labels: every one must match');
  expectEqual(await by(cc, 'env=dev'), [], 'a label value neither carries');
  const state = (await get(ctx, staging.id)).state;
  expect((await listIds(ctx, { state, labels: [`cc=${label}`] }, `listSandboxes state=${state}`)).includes(staging.id), `state=${state} lists a sandbox in that state`);
  expectStatus(await ctx.v2('terminateSandbox', { path: { id: prod.id } }), 204, 'terminateSandbox');
  expectEqual(await listIds(ctx, { state: 'TERMINATED', labels: [`cc=${label}`] }, 'listSandboxes state=TERMINATED'), [prod.id], 'state=TERMINATED');
  const invalid = ctx.value<number>('invalidFilter');
  expectProblem(await ctx.v2('listSandboxes', { query: { labels: ['cc-without-equals'] } }), invalid, 'listSandboxes with a label filter without "="');
  expectProblem(await ctx.v2('listSandboxes', { query: { state: 'CC_NO_SUCH_STATE' } }), invalid, 'listSandboxes with an unknown state');
}, SHARED);

defineCheck('RESTV2-SANDBOX-007', async (ctx) => {
  const { id } = await sandbox(ctx);
  expectEqual(await ready(ctx, id), { output: '', error: null }, 'runSandboxCommand ["true"]');
  const run = async (command: unknown[]) => {
    const answer = await ctx.v2('runSandboxCommand', { path: { id }, body: { command } });
    expectStatus(answer, 200, `runSandboxCommand ${JSON.stringify(command)}`);
    return answer.body as { output: string; error: string | null };
  };
  expectEqual(await run(['echo', 'hello']), { output: 'hello\n', error: null }, 'runSandboxCommand ["echo", "hello"]');
  const failed = await run(['false']);
  expect(typeof failed.error === 'string' && failed.error !== '', `["false"] reports an error: ${JSON.stringify(failed)}`);
  const missing = await run(['cc-no-such-command']);
  expect(typeof missing.error === 'string' && missing.error !== '', `an unknown command reports an error: ${JSON.stringify(missing)}`);
  const invalid = ctx.value<number>('invalidBody');
  expectProblem(await ctx.v2('runSandboxCommand', { path: { id }, body: {} }), invalid, 'runSandboxCommand without command');
  expectProblem(await ctx.v2('runSandboxCommand', { path: { id }, body: { command: [] } }), invalid, 'runSandboxCommand with an empty argv');
  expectStatus(await ctx.v2('terminateSandbox', { path: { id } }), 204, 'terminateSandbox');
  expectProblem(await ctx.v2('runSandboxCommand', { path: { id }, body: { command: ['true'] } }), ctx.value<number>('terminated'), 'runSandboxCommand in a terminated sandbox');
  expectProblem(await ctx.v2('runSandboxCommand', { path: { id: UNKNOWN }, body: { command: ['true'] } }), 404, 'runSandboxCommand in an unknown sandbox');
}, SHARED);

defineCheck('RESTV2-SANDBOX-008', async (ctx) => {
  const { id } = await sandbox(ctx);
  await ready(ctx, id);
  const logs = await readLog(ctx, 'getSandboxLogs', { id }, { query: { tail: 100 }, max: 3 });
  expectStatus(logs, 200, 'getSandboxLogs');
  expect(logs.events.length > 0, 'getSandboxLogs sent no event');
  expectEventShape(logs.events, 'getSandboxLogs');
  expectStatus(await ctx.v2('terminateSandbox', { path: { id } }), 204, 'terminateSandbox');
  expectProblem(await readLog(ctx, 'getSandboxLogs', { id }, { max: 1 }), ctx.value<number>('terminated'), 'getSandboxLogs of a terminated sandbox');
  expectProblem(await readLog(ctx, 'getSandboxLogs', { id: UNKNOWN }, { max: 1 }), 404, 'getSandboxLogs of an unknown sandbox');
}, SHARED);
