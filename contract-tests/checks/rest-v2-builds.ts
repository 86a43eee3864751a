// REST v2 builds and cursor pages: RESTV2-BUILD-*, RESTV2-PAGE-001. Builds start only from a push to the
// endpoint's repository: against the embedded mock (or a target with --control-url) a push is simulated
// through the control API; against another target the checks read whatever builds exist.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';
import { expectProblem } from './rest-v2-core.js';
import { expectEventShape, readLog } from './rest-v2-logs.js';

const STATES = ['PENDING', 'BUILDING', 'UPLOADING', 'TESTING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TEST_FAILED'];
const UNKNOWN = 'cc-unknown-build-404';

async function v2Endpoint(ctx: Ctx): Promise<string> {
  const created = await ctx.v2('createEndpoint', {
    body: { name: ctx.name('builds'), type: 'QUEUE', image: ctx.target.workerImage, gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 0, max: 1 } },
  });
  expectStatus(created, 201, 'createEndpoint (REST v2)');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.v2('deleteEndpoint', { path: { id } }));
  return id;
}

/** Simulates `count` pushes when the target can (control API); answers how many it made. */
async function push(ctx: Ctx, endpointId: string, count: number, outcome?: string): Promise<number> {
  const controlUrl = ctx.target.controlUrl;
  if (!controlUrl) return 0;
  for (let i = 0; i < count; i++) {
    const answer = await ctx.http.raw('POST', `${controlUrl}/endpoints/${encodeURIComponent(endpointId)}/builds`, { commitMessage: `cc push ${i + 1}`, ...(outcome ? { outcome } : {}) });
    expectStatus(answer, 201, 'control API: simulated push');
  }
  return count;
}

async function allPages(ctx: Ctx, op: 'listEndpointBuilds' | 'listEndpointReleases', id: string, limit: number): Promise<{ items: any[]; pages: number; firstCursor: string | null }> {
  const key = op === 'listEndpointBuilds' ? 'builds' : 'releases';
  const items: any[] = [];
  let cursor: string | null = null;
  let firstCursor: string | null = null;
  let pages = 0;
  do {
    const answer: Answer = await ctx.v2(op, { path: { id }, query: { limit, ...(cursor ? { cursor } : {}) } });
    expectStatus(answer, 200, `${op} page ${pages + 1}`);
    const page = answer.body[key] as any[];
    expect(page.length <= limit, `${op} page ${pages + 1} holds ${page.length} items, limit ${limit}`);
    const { nextCursor, hasNextPage } = (answer.body.pagination ?? {}) as { nextCursor: string | null; hasNextPage: boolean };
    expectEqual(hasNextPage, nextCursor !== null, `${op} page ${pages + 1}: hasNextPage vs nextCursor`);
    items.push(...page);
    cursor = nextCursor;
    if (pages === 0) firstCursor = nextCursor;
    pages++;
    expect(pages <= 50, `${op}: more than 50 pages`);
  } while (cursor);
  return { items, pages, firstCursor };
}

defineCheck('RESTV2-BUILD-001', async (ctx) => {
  const id = await v2Endpoint(ctx);
  const pushed = await push(ctx, id, 2);
  const list = await ctx.v2('listEndpointBuilds', { path: { id } });
  expectStatus(list, 200, 'listEndpointBuilds');
  const builds = list.body.builds as any[];
  expectEqual(builds.length, pushed, 'builds after the simulated pushes');
  expectEqual(list.body.pagination, { nextCursor: null, hasNextPage: false }, 'pagination of a one-page list');
  for (const b of builds) expect(typeof b.id === 'string' && STATES.includes(b.status), `build ${JSON.stringify(b)}: id and status`);
  if (pushed === 2) expectEqual(builds.map((b) => b.commitMessage), ['cc push 2', 'cc push 1'], 'builds newest first');
  for (const b of builds) {
    const one = await ctx.v2('getEndpointBuild', { path: { id, buildId: b.id } });
    expectStatus(one, 200, 'getEndpointBuild of a listed build');
    expectEqual(one.body, b, 'getEndpointBuild vs its list entry');
  }
  expectProblem(await ctx.v2('listEndpointBuilds', { path: { id: 'cc-no-such-endpoint' } }), 404, 'listEndpointBuilds of an unknown endpoint');
  return pushed === 0 ? 'no control API: the new endpoint\'s empty list was checked' : undefined;
});

defineCheck('RESTV2-BUILD-002', async (ctx) => {
  const id = await v2Endpoint(ctx);
  const state = async (buildId: string) => (await ctx.v2('getEndpointBuild', { path: { id, buildId } })).body;
  const first = (await ctx.http.raw('POST', `${ctx.target.controlUrl}/endpoints/${id}/builds`, { commitHash: 'c0ffee1' })).body;
  expectEqual(first.status, 'PENDING', 'a new build');
  const seen = new Set<string>([first.status]);
  for (let i = 0; i < 30 && !['COMPLETED', 'FAILED', 'CANCELLED', 'TEST_FAILED'].includes([...seen].at(-1)!); i++) {
    await ctx.pass(5_000);
    seen.add((await state(first.id)).status);
  }
  expectEqual([...seen], ['PENDING', 'BUILDING', 'UPLOADING', 'TESTING', 'COMPLETED'], 'states the build went through');
  const done = await state(first.id);
  expect(done.startedAt !== null && done.completedAt !== null && done.error === null, `completed build ${JSON.stringify(done)}`);
  const releases = (await ctx.v2('listEndpointReleases', { path: { id } })).body;
  const latest = releases.releases[0];
  expectEqual([latest.source, latest.buildId], ['GIT_BUILD', first.id], 'the newest release after a completed build');
  expectEqual(latest.diff.find((d: { field: string }) => d.field === 'image')?.new, done.imageName, 'the release runs the build\'s image');
  for (const outcome of ['FAILED', 'TEST_FAILED']) {
    const failed = (await ctx.http.raw('POST', `${ctx.target.controlUrl}/endpoints/${id}/builds`, { outcome })).body;
    await ctx.pass(120_000);
    const end = await state(failed.id);
    expect(end.status === outcome && typeof end.error === 'string' && end.error !== '', `${outcome} build: ${JSON.stringify(end)}`);
  }
  expectEqual((await ctx.v2('listEndpointReleases', { path: { id } })).body.endpointVersion, releases.endpointVersion, 'releases after failed builds');
}, { requires: ['embedded'] });

defineCheck('RESTV2-BUILD-003', async (ctx) => {
  const [a, b] = [await v2Endpoint(ctx), await v2Endpoint(ctx)];
  await push(ctx, b, 1);
  const other = ((await ctx.v2('listEndpointBuilds', { path: { id: b } })).body.builds as { id: string }[])[0]?.id;
  expectProblem(await ctx.v2('getEndpointBuild', { path: { id: a, buildId: UNKNOWN } }), 404, 'getEndpointBuild of an unknown build');
  if (other) expectProblem(await ctx.v2('getEndpointBuild', { path: { id: a, buildId: other } }), 404, 'getEndpointBuild of another endpoint\'s build');
  expectProblem(await ctx.v2('getEndpointBuild', { path: { id: 'cc-no-such-endpoint', buildId: other ?? UNKNOWN } }), 404, 'getEndpointBuild of an unknown endpoint');
  return other ? undefined : 'no control API: another endpoint\'s build was not checked';
});

defineCheck('RESTV2-BUILD-004', async (ctx) => {
  const id = await v2Endpoint(ctx);
  if ((await push(ctx, id, 1)) === 0) return 'no control API and no build to read: only the 404 was checked';
  const build = ((await ctx.v2('listEndpointBuilds', { path: { id } })).body.builds as { id: string }[])[0]!;
  if (ctx.controlled) await ctx.pass(10_000);
  const logs = await readLog(ctx, 'getEndpointBuildLogs', { id, buildId: build.id }, { query: { tail: 100 }, max: 3 });
  expectStatus(logs, 200, 'getEndpointBuildLogs');
  expect(logs.events.length > 0, 'getEndpointBuildLogs sent no event');
  expectEventShape(logs.events, 'getEndpointBuildLogs');
  expectProblem(await readLog(ctx, 'getEndpointBuildLogs', { id, buildId: UNKNOWN }, { max: 1 }), 404, 'getEndpointBuildLogs of an unknown build');
  return undefined;
});

defineCheck('RESTV2-PAGE-001', async (ctx) => {
  const id = await v2Endpoint(ctx);
  await push(ctx, id, 5);
  for (let i = 1; i <= 4; i++) expectStatus(await ctx.v2('updateEndpoint', { path: { id }, body: { env: { CC_PAGE: String(i) } } }), 200, `updateEndpoint #${i}`);
  const status = ctx.value<number>('status');
  for (const op of ['listEndpointBuilds', 'listEndpointReleases'] as const) {
    const whole = await ctx.v2(op, { path: { id } });
    const key = op === 'listEndpointBuilds' ? 'builds' : 'releases';
    const all = (whole.body[key] as { id: string }[]).map((x) => x.id);
    const paged = await allPages(ctx, op, id, 2);
    expectEqual(paged.items.map((x) => x.id), all, `${op}: the pages of 2 joined vs the whole list`);
    if (paged.firstCursor) {
      expectProblem(await ctx.v2(op, { path: { id }, query: { limit: 3, cursor: paged.firstCursor } }), status, `${op} with a cursor issued for limit 2`);
      const other = await v2Endpoint(ctx);
      expectProblem(await ctx.v2(op, { path: { id: other }, query: { limit: 2, cursor: paged.firstCursor } }), status, `${op} with another endpoint's cursor`);
      const foreignOp = op === 'listEndpointBuilds' ? 'listEndpointReleases' : 'listEndpointBuilds';
      expectProblem(await ctx.v2(foreignOp, { path: { id }, query: { limit: 2, cursor: paged.firstCursor } }), status, `${foreignOp} with a cursor of ${op}`);
    }
    expectProblem(await ctx.v2(op, { path: { id }, query: { cursor: 'cc-not-a-cursor!' } }), status, `${op} with a malformed cursor`);
  }
});
