// REST v2 builds and their list's bound: RESTV2-BUILD-*, RESTV2-PAGE-001. Builds start only from a push to the
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

/** Simulates `count` pushes when the target can (control API); answers the ids of the builds, oldest first. */
async function pushes(ctx: Ctx, endpointId: string, count: number, outcome?: string): Promise<string[]> {
  const controlUrl = ctx.target.controlUrl;
  if (!controlUrl) return [];
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await ctx.http.raw('POST', `${controlUrl}/endpoints/${encodeURIComponent(endpointId)}/builds`, { commitMessage: `cc push ${i + 1}`, ...(outcome ? { outcome } : {}) });
    expectStatus(answer, 201, 'control API: simulated push');
    ids.push(String(answer.body.id));
  }
  return ids;
}

const push = async (ctx: Ctx, endpointId: string, count: number): Promise<number> => (await pushes(ctx, endpointId, count)).length;

defineCheck('RESTV2-BUILD-001', async (ctx) => {
  const id = await v2Endpoint(ctx);
  const pushed = await push(ctx, id, 2);
  const list = await ctx.v2('listEndpointBuilds', { path: { id } });
  expectStatus(list, 200, 'listEndpointBuilds');
  const builds = list.body.builds as any[];
  expectEqual(builds.length, pushed, 'builds after the simulated pushes');
  expect(!('pagination' in list.body), 'listEndpointBuilds answers no pagination object (the list is not paginated)');
  for (const b of builds) expect(typeof b.id === 'string' && STATES.includes(b.status), `build ${JSON.stringify(b)}: id and status`);
  if (pushed === 2) expectEqual(builds.map((b) => b.commitMessage), ['cc push 2', 'cc push 1'], 'builds newest first');
  for (const b of builds) {
    const one = await ctx.v2('getEndpointBuild', { path: { id, buildId: b.id } });
    expectStatus(one, 200, 'getEndpointBuild of a listed build');
    // Status and times move on with the clock (other checks may advance it): the build's identity must not.
    const fixed = ({ id, commitHash, commitMessage, branch, commitDate, imageName }: Record<string, unknown>) => ({ id, commitHash, commitMessage, branch, commitDate, imageName });
    expectEqual(fixed(one.body), fixed(b), 'getEndpointBuild vs its list entry');
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
  const max = ctx.value<number>('buildsListMax');
  const pushed = await pushes(ctx, id, max + 2);
  for (let i = 1; i <= 2; i++) expectStatus(await ctx.v2('updateEndpoint', { path: { id }, body: { env: { CC_PAGE: String(i) } } }), 200, `updateEndpoint #${i}`);
  const builds = await ctx.v2('listEndpointBuilds', { path: { id } });
  expectStatus(builds, 200, 'listEndpointBuilds');
  const listed = (builds.body.builds as { id: string }[]).map((b) => b.id);
  expect(listed.length <= max, `listEndpointBuilds answered ${listed.length} builds, at most ${max}`);
  expect(!('pagination' in builds.body), 'listEndpointBuilds answers no pagination object');
  const releases = await ctx.v2('listEndpointReleases', { path: { id } });
  expectStatus(releases, 200, 'listEndpointReleases');
  expect(!('pagination' in releases.body), 'listEndpointReleases answers no pagination object');
  const versions = (releases.body.releases as { version: number }[]).map((r) => r.version);
  expect(versions.every((v, i) => i === 0 || v < versions[i - 1]!), `releases newest first: versions ${versions.join(', ')}`);
  if (pushed.length === 0) return "no control API: only the lists' shapes were checked";
  expectEqual(listed, pushed.slice(-max).reverse(), `the ${max} most recent builds, newest first`);
  for (const oldest of pushed.slice(0, 2)) {
    const one = await ctx.v2('getEndpointBuild', { path: { id, buildId: oldest } });
    expectStatus(one, 200, 'getEndpointBuild of a build older than the listed ones');
  }
  return undefined;
});
