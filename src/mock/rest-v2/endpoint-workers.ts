// REST v2 workers and releases of an endpoint, from the job engine's worker pool and the release
// history on the endpoint record (state/releases.ts). A worker runs the release current when it
// started; an endpoint change rolls out as workers fall idle (the pool replaces stale idle workers).
import type { MockCore } from '../core.js';
import { currentRelease, releasesOf } from '../state/releases.js';
import type { EndpointRecord, Worker } from '../types.js';
import type { BuildRelease } from './build-release.js';
import { problem } from './problem.js';
import { json, type V2Handler } from './types.js';

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * Workers the endpoint wants but cannot place because none of its GPU types has capacity (control
 * API): counted as throttled. They are not workers yet, so they are not listed.
 */
function throttledCount(core: MockCore, e: EndpointRecord, workers: readonly Worker[]): number {
  const types = Array.isArray(e['gpuTypeIds']) ? (e['gpuTypeIds'] as string[]) : [];
  if (e['computeType'] === 'CPU' || types.length === 0 || types.some((t) => !core.unavailableGpuTypes.has(t))) return 0;
  const health = core.engine.health(e.id);
  const wanted = Math.min((e['workersMax'] as number | undefined) ?? 3, Math.max((e['workersMin'] as number | undefined) ?? 0, health.jobs.inProgress + health.jobs.inQueue));
  return Math.max(0, wanted - workers.length);
}

function renderWorker(core: MockCore, e: EndpointRecord, w: Worker, latest: number): Record<string, unknown> {
  const release = releasesOf(e).find((r) => r.version === w.release);
  const template = core.store.templates.get(e.templateId);
  const dataCenters = Array.isArray(e['dataCenterIds']) ? (e['dataCenterIds'] as string[]) : [];
  return {
    id: w.id,
    status: w.state === 'running' ? 'RUNNING' : 'IDLE',
    isStale: w.release < latest,
    version: w.release > 0 ? w.release : null,
    gpuCount: e['computeType'] === 'CPU' ? 0 : ((e['gpuCount'] as number | undefined) ?? 1),
    image: release?.image ?? (w.release === latest ? (template?.imageName ?? null) : null),
    uptimeSeconds: Math.max(0, Math.floor((core.clock.now() - w.createdAt) / 1000)),
    gpuTypeId: w.gpuTypeId ?? null,
    dataCenterId: dataCenters[0] ?? null,
    startedAt: iso(w.createdAt),
  };
}

const listEndpointWorkers: V2Handler = (core, { params }) => {
  const e = core.store.endpoints.get(params['id']!);
  if (!e) return problem(404, 'endpoint not found');
  const workers = core.engine.workersOf(e.id);
  const latest = currentRelease(e);
  const running = workers.filter((w) => w.state === 'running').length;
  const throttled = throttledCount(core, e, workers);
  const summary = { running, idle: workers.length - running, initializing: 0, throttled, unhealthy: 0, total: workers.length + throttled };
  return json(200, {
    workers: workers.map((w) => renderWorker(core, e, w, latest)),
    summary,
    endpointVersion: latest > 0 ? latest : null,
  });
};

const listEndpointReleases: V2Handler = (core, { params }) => {
  const e = core.store.endpoints.get(params['id']!);
  if (!e) return problem(404, 'endpoint not found');
  const workers = core.engine.workersOf(e.id);
  const latest = currentRelease(e);
  const onLatest = workers.filter((w) => w.release >= latest).length;
  // Every kept release in one answer, newest first: the API reference paginates none of them.
  const releases = ([...releasesOf(e)].reverse() as BuildRelease[]).map((r) => ({
    id: `${e.id}-r${r.version}`,
    version: r.version,
    source: r.source ?? 'MANUAL',
    buildId: r.buildId ?? null,
    createdByUserId: e.userId ?? null,
    workerCount: workers.filter((w) => w.release === r.version).length,
    createdAt: iso(r.createdAt),
    diff: r.diff,
  }));
  return json(200, {
    endpointVersion: latest > 0 ? latest : null,
    rollout: {
      inProgress: onLatest < workers.length,
      workersOnLatest: onLatest,
      workersTotal: workers.length,
      // 0 with no workers, as RolloutSummary.percentOnLatest is documented.
      percentOnLatest: workers.length === 0 ? 0 : Math.floor((onLatest * 100) / workers.length),
    },
    releases,
  });
};

export const endpointWorkerHandlers: Record<string, V2Handler> = { listEndpointWorkers, listEndpointReleases };
