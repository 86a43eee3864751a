// What each existing resource costs within a time range, on the mock clock, with REST v1's prices
// (src/mock/rest/billing.ts, render.ts), so that over a window covering a resource's life REST v1 and
// REST v2 bill it the same total. Usage segments (state/usage.ts) place the cost in time.
import type { MockCore } from '../core.js';
import { ENDPOINT_PRICE_PER_SECOND, VOLUME_PRICE_PER_GB_MONTH } from '../rest/billing.js';
import { podHourlyCost } from '../rest/render.js';
import { msPerBucket, spreadInto, type UsageSegment } from '../state/usage.js';
import type { ClusterRecord, PodRecord } from '../types.js';
import { volumeTier } from './network-volumes.js';

const HOUR_MS = 3_600_000;
/** REST v1 bills storage per 30-day month. */
const MONTH_MS = 30 * 24 * HOUR_MS;

/** One billed resource: its id, the span it existed, and its unrounded amounts per bucket of `edges`. */
export interface Meter {
  id: string;
  from: number;
  to: number;
  series(edges: readonly number[]): Record<string, number>[];
}

/** Compute cost of one pod per bucket: GPU or CPU by its compute type; disk is not billed (as in REST v1). */
function podCompute(core: MockCore, pod: PodRecord, edges: readonly number[]): { gpu: number; cpu: number }[] {
  const now = core.clock.now();
  const segments = [...((pod['usage'] as UsageSegment[] | undefined) ?? [])];
  let totalMs = (pod.billedMs as number | undefined) ?? 0;
  if (typeof pod.runningSince === 'number') {
    segments.push({ from: pod.runningSince, to: now, ms: now - pod.runningSince });
    totalMs += now - pod.runningSince;
  }
  const cost = podHourlyCost(pod) / HOUR_MS;
  const cpu = pod['computeType'] === 'CPU';
  return msPerBucket(segments, totalMs, { from: pod.createdAt, to: now }, edges).map((ms) => (cpu ? { gpu: 0, cpu: ms * cost } : { gpu: ms * cost, cpu: 0 }));
}

const inCluster = (pod: PodRecord): boolean => typeof pod['clusterId'] === 'string' && pod['clusterId'] !== '';

/** Pods outside clusters (a cluster's member pods are billed under the cluster). */
export function podMeters(core: MockCore): Meter[] {
  const now = core.clock.now();
  return [...core.store.pods.values()].filter((p) => !inCluster(p)).map((pod) => ({
    id: pod.id, from: pod.createdAt, to: now,
    series: (edges) => podCompute(core, pod, edges).map(({ gpu, cpu }) => ({ gpuAmount: gpu, cpuAmount: cpu, diskAmount: 0, totalAmount: gpu + cpu })),
  }));
}

/** Serverless endpoints: worker time on jobs at REST v1's per-second price; no disk or fee in the mock. */
export function serverlessMeters(core: MockCore): Meter[] {
  const now = core.clock.now();
  return [...core.store.endpoints.values()].map((e) => {
    const from = Date.parse(e.createdAt);
    const cpu = e['computeType'] === 'CPU';
    return {
      id: e.id, from, to: now,
      series: (edges) => msPerBucket(core.engine.usageOf(e.id), core.engine.executionMsOf(e.id), { from, to: now }, edges).map((ms) => {
        const amount = (ms / 1000) * ENDPOINT_PRICE_PER_SECOND;
        return { gpuAmount: cpu ? 0 : amount, cpuAmount: cpu ? amount : 0, diskAmount: 0, feeAmount: 0, totalAmount: amount };
      }),
    };
  });
}

/** Network volumes: size × REST v1's storage price for the time they exist (one price for both tiers). */
export function volumeMeters(core: MockCore): Meter[] {
  const now = core.clock.now();
  return [...core.store.networkVolumes.values()].map((v) => ({
    id: v.id, from: v.createdAt, to: now,
    series(edges) {
      const amounts = new Array<number>(edges.length - 1).fill(0);
      spreadInto(amounts, edges, v.createdAt, now, (v.size * VOLUME_PRICE_PER_GB_MONTH * (now - v.createdAt)) / MONTH_MS);
      const high = volumeTier(v) === 'HIGH_PERFORMANCE';
      return amounts.map((a) => ({ standardAmount: high ? 0 : a, highPerformanceAmount: high ? a : 0, totalAmount: a }));
    },
  }));
}

/** The store's clusters (none when the store keeps none). */
const clustersOf = (core: MockCore): ClusterRecord[] => [...(core.store.clusters?.values() ?? [])];

/** Clusters: their member pods' compute; no disk or networking cost in the mock. */
export function clusterMeters(core: MockCore): Meter[] {
  const now = core.clock.now();
  return clustersOf(core).map((c) => ({
    id: c.id, from: c.createdAt, to: now,
    series(edges) {
      const gpu = new Array<number>(edges.length - 1).fill(0);
      for (const pod of core.store.pods.values()) {
        if (pod['clusterId'] !== c.id) continue;
        podCompute(core, pod, edges).forEach((p, i) => (gpu[i]! += p.gpu + p.cpu));
      }
      return gpu.map((g) => ({ gpuAmount: g, diskAmount: 0, networkingAmount: 0, totalAmount: g }));
    },
  }));
}
