// Billing records derived from what exists: pods (running time x hourly cost), endpoints (job
// execution time), network volumes (size). One record per group, in the bucket holding `now`.
import type { Handler, MockCore } from '../core.js';
import { podGpuType, podHourlyCost } from './render.js';

const HOUR = 3_600_000;
export const ENDPOINT_PRICE_PER_SECOND = 0.00031;
export const VOLUME_PRICE_PER_GB_MONTH = 0.07;

function bucketStart(now: number, size: unknown): string {
  const d = new Date(now);
  d.setUTCMinutes(0, 0, 0);
  if (size !== 'hour') d.setUTCHours(0);
  if (size === 'week') d.setUTCDate(d.getUTCDate() - d.getUTCDay());
  if (size === 'month' || size === 'year') d.setUTCDate(1);
  if (size === 'year') d.setUTCMonth(0);
  return d.toISOString().replace('.000Z', 'Z');
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

function group<T>(items: T[], key: (item: T) => string, make: (key: string, items: T[]) => Record<string, unknown>) {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return [...groups].map(([k, list]) => make(k, list));
}

function podBilledMs(core: MockCore, pod: { runningSince?: unknown; billedMs?: unknown }): number {
  const running = typeof pod.runningSince === 'number' ? core.clock.now() - pod.runningSince : 0;
  return ((pod.billedMs as number | undefined) ?? 0) + running;
}

export const billingHandlers: Record<string, Handler> = {
  getPodBilling: (core, { query }) => {
    const time = bucketStart(core.clock.now(), query['bucketSize'] ?? 'day');
    const grouping = query['grouping'] === 'podId' ? 'podId' : 'gpuTypeId';
    const pods = [...core.store.pods.values()].filter(
      (p) => (query['podId'] === undefined || p.id === query['podId']) &&
        (query['gpuTypeId'] === undefined || podGpuType(p) === query['gpuTypeId']),
    );
    const body = group(pods, (p) => (grouping === 'podId' ? p.id : podGpuType(p) ?? 'CPU'), (key, list) => {
      const ms = list.reduce((sum, p) => sum + podBilledMs(core, p), 0);
      const amount = list.reduce((sum, p) => sum + (podBilledMs(core, p) / HOUR) * podHourlyCost(p), 0);
      const disk = list.reduce((sum, p) => sum + ((p['containerDiskInGb'] as number | undefined) ?? 50), 0);
      return { [grouping]: key, amount: round(amount), timeBilledMs: ms, diskSpaceBilledGb: disk, time };
    });
    return { status: 200, body };
  },
  getEndpointBilling: (core, { query }) => {
    const time = bucketStart(core.clock.now(), query['bucketSize'] ?? 'day');
    const endpoints = [...core.store.endpoints.values()].filter(
      (e) => (query['endpointId'] === undefined || e.id === query['endpointId']) &&
        (query['templateId'] === undefined || e.templateId === query['templateId']),
    );
    const grouping = query['grouping'] === 'gpuTypeId' ? 'gpuTypeId' : 'endpointId';
    const gpuOf = (e: Record<string, unknown>) => (Array.isArray(e['gpuTypeIds']) ? String(e['gpuTypeIds'][0]) : 'NVIDIA GeForce RTX 4090');
    const body = group(endpoints, (e) => (grouping === 'gpuTypeId' ? gpuOf(e) : e.id), (key, list) => {
      const ms = list.reduce((sum, e) => sum + core.engine.executionMsOf(e.id), 0);
      return { [grouping]: key, amount: round((ms / 1000) * ENDPOINT_PRICE_PER_SECOND), timeBilledMs: ms, diskSpaceBilledGb: 0, time };
    });
    return { status: 200, body };
  },
  getNetworkVolumeBilling: (core, { query }) => {
    const volumes = [...core.store.networkVolumes.values()];
    if (volumes.length === 0) return { status: 200, body: [] };
    const now = core.clock.now();
    const gb = volumes.reduce((sum, v) => sum + v.size, 0);
    const amount = volumes.reduce((sum, v) => sum + v.size * VOLUME_PRICE_PER_GB_MONTH * ((now - v.createdAt) / (30 * 24 * HOUR)), 0);
    const body = [{
      time: bucketStart(now, query['bucketSize'] ?? 'day'), amount: round(amount), diskSpaceBilledGb: gb,
      highPerformanceStorageAmount: 0, highPerformanceStorageDiskSpaceBilledGb: 0,
    }];
    return { status: 200, body };
  },
};
