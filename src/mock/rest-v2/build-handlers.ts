// REST v2 builds of an endpoint: listEndpointBuilds (the 100 most recent, newest first, not paginated, as the
// API reference states), getEndpointBuild (any kept build) and getEndpointBuildLogs (SSE, like worker logs),
// over the mock's BuildBook (builds.ts).
import type { MockCore } from '../core.js';
import type { BuildRecord } from './builds.js';
import { cursorOf, logStream } from './logs.js';
import type { LogSourceName } from './log-lines.js';
import { problem } from './problem.js';
import { json, type V2Handler, type V2Reply } from './types.js';

/** Builds listEndpointBuilds answers at most: the most recent ones (RESTV2-PAGE-001). */
export const BUILDS_LIST_MAX = 100;
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString().replace('.000Z', 'Z'));

export function renderBuild(b: BuildRecord): Record<string, unknown> {
  return {
    id: b.id, status: b.status, commitHash: b.commitHash, commitMessage: b.commitMessage, branch: b.branch,
    commitDate: iso(b.commitDate), imageName: b.imageName, startedAt: iso(b.startedAt), completedAt: iso(b.completedAt), error: b.error,
  };
}

function buildOf(core: MockCore, params: Record<string, string>): BuildRecord | V2Reply {
  const endpointId = params['id']!;
  // One answer whether the endpoint is unknown or has no such build: a 404 tells nothing apart.
  const build = core.store.endpoints.has(endpointId) ? core.builds.get(endpointId, params['buildId']!) : undefined;
  return build ?? problem(404, `no build ${params['buildId']} of endpoint ${endpointId}`);
}

export const buildHandlers: Record<string, V2Handler> = {
  listEndpointBuilds: (core, { params }) => {
    const endpointId = params['id']!;
    if (!core.store.endpoints.has(endpointId)) return problem(404, `endpoint ${endpointId} not found`);
    return json(200, { builds: core.builds.list(endpointId).slice(0, BUILDS_LIST_MAX).map(renderBuild) });
  },
  getEndpointBuild: (core, { params }) => {
    const build = buildOf(core, params);
    return 'status' in build && typeof build.status === 'number' ? (build as V2Reply) : json(200, renderBuild(build as BuildRecord));
  },
  getEndpointBuildLogs: (core, ctx) => {
    const build = buildOf(core, ctx.params);
    if ('status' in build && typeof build.status === 'number') return build as V2Reply;
    const cursor = cursorOf(ctx);
    if ('status' in cursor) return cursor;
    const b = build as BuildRecord;
    return logStream(core, b.log, () => core.builds.isLive(b) && core.store.endpoints.has(b.endpointId), ctx.query['source'] as LogSourceName | undefined, cursor);
  },
};
