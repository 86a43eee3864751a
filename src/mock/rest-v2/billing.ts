// REST v2 billing ×6, derived from what exists (billing-meters.ts) over the query's window
// (billing-window.ts). Per-resource lists carry one record per resource and bucket it existed in;
// listBilling and listEndpointBilling one record per bucket. Deleted resources are no longer billed.
// A wide window costs milliseconds per resource (a series of up to 8784 buckets each): every resource's
// series is computed in a turn of its own and records are built BUCKETS_PER_TURN at a time (turns.ts),
// so other requests are answered between them (docs/mock.md "Bounded work").
import type { MockCore } from '../core.js';
import { clusterMeters, podMeters, serverlessMeters, volumeMeters, type Meter } from './billing-meters.js';
import { billingWindow, isoSeconds, type BillingWindow } from './billing-window.js';
import { inSlices, nextTurn } from '../turns.js';
import { problem } from './problem.js';
import { json, type V2Handler, type V2Reply } from './types.js';

/** Most records one per-resource billing answer carries; a larger answer is refused (400) to narrow the query. */
export const MAX_BILLING_RECORDS = 10_000;
/** Buckets turned into records per event-loop turn (about 1 ms each slice). */
export const BUCKETS_PER_TURN = 1_000;

const round = (n: number): number => Math.round(n * 10_000) / 10_000;
const isReply = (v: unknown): v is V2Reply => typeof (v as V2Reply).status === 'number';

function roundAll(amounts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(amounts).map(([k, v]) => [k, round(v)]));
}

function addInto(sum: Record<string, number>, amounts: Record<string, number>): void {
  for (const [k, v] of Object.entries(amounts)) sum[k] = (sum[k] ?? 0) + v;
}

function queryEcho(window: BillingWindow, filter?: [string, unknown]): Record<string, unknown> {
  const echo: Record<string, unknown> = {
    startTime: isoSeconds(window.edges[0]!), endTime: isoSeconds(window.edges[window.edges.length - 1]!), bucketSize: window.bucketSize,
  };
  if (filter) echo[filter[0]] = typeof filter[1] === 'string' ? filter[1] : null;
  return echo;
}

/** One record per resource and bucket the resource existed in, with metadata (per-resource lists). */
async function perResource(
  core: MockCore, query: Record<string, unknown>, meters: (core: MockCore) => Meter[],
  idName: string, filterName: string, uniqueName: string, zero: Record<string, number>,
): Promise<V2Reply> {
  const window = billingWindow(query, core.clock.now());
  if (isReply(window)) return window;
  const wanted = query[filterName];
  const chosen = meters(core).filter((m) => wanted === undefined || m.id === wanted);
  const records: Record<string, unknown>[] = [];
  const totals: Record<string, number> = { ...zero };
  const ids = new Set<string>();
  const buckets = window.edges.length - 1;
  const turns = {};
  for (const [index, meter] of chosen.entries()) {
    if (index > 0) await nextTurn(turns);
    // Buckets the resource existed in (one created this instant exists in the bucket holding now).
    const existed = [...Array(buckets).keys()].filter((i) => meter.from < window.edges[i + 1]! && Math.max(meter.to, meter.from + 1) > window.edges[i]!);
    if (existed.length === 0) continue;
    if (records.length + existed.length > MAX_BILLING_RECORDS) {
      const detail = `the answer would exceed ${MAX_BILLING_RECORDS} records; shorten the window, choose a larger bucketSize or filter by ${filterName}`;
      return problem(400, detail, [`/query/${filterName}: too many records without it`]);
    }
    const series = meter.series(window.edges);
    ids.add(meter.id);
    await inSlices(existed.length, BUCKETS_PER_TURN, turns, (k) => {
      const i = existed[k]!;
      addInto(totals, series[i]!);
      records.push({ startTime: isoSeconds(window.edges[i]!), endTime: isoSeconds(window.edges[i + 1]!), [idName]: meter.id, ...roundAll(series[i]!) });
    });
  }
  return json(200, {
    records,
    metadata: { query: queryEcho(window, [filterName, wanted]), recordCount: records.length, [uniqueName]: ids.size, totals: roundAll(totals) },
  });
}

const ALL_ZERO = {
  totalAmount: 0, podGpuAmount: 0, podCpuAmount: 0, podDiskAmount: 0, serverlessGpuAmount: 0, serverlessCpuAmount: 0,
  serverlessDiskAmount: 0, serverlessFeeAmount: 0, storageStandardAmount: 0, storageHighPerformanceAmount: 0,
  endpointAmount: 0, clusterGpuAmount: 0, clusterDiskAmount: 0, clusterNetworkingAmount: 0,
};

/** Every component of listBilling per bucket, summed over every resource (one resource per turn). */
async function allAmounts(core: MockCore, edges: readonly number[], turns: object): Promise<Record<string, number>[]> {
  const out = edges.slice(1).map(() => ({ ...ALL_ZERO }) as Record<string, number>);
  const sum = async (list: Meter[], pairs: [string, string][]) => {
    for (const m of list) {
      await nextTurn(turns);
      m.series(edges).forEach((a, i) => {
        for (const [from, to] of pairs) out[i]![to]! += a[from] ?? 0;
        out[i]!['totalAmount']! += a['totalAmount'] ?? 0;
      });
    }
  };
  await sum(podMeters(core), [['gpuAmount', 'podGpuAmount'], ['cpuAmount', 'podCpuAmount'], ['diskAmount', 'podDiskAmount']]);
  await sum(serverlessMeters(core), [['gpuAmount', 'serverlessGpuAmount'], ['cpuAmount', 'serverlessCpuAmount'], ['diskAmount', 'serverlessDiskAmount'], ['feeAmount', 'serverlessFeeAmount']]);
  await sum(volumeMeters(core), [['standardAmount', 'storageStandardAmount'], ['highPerformanceAmount', 'storageHighPerformanceAmount']]);
  await sum(clusterMeters(core), [['gpuAmount', 'clusterGpuAmount'], ['diskAmount', 'clusterDiskAmount'], ['networkingAmount', 'clusterNetworkingAmount']]);
  return out;
}

/** One record per bucket (listBilling, listEndpointBilling). */
async function perBucket(
  core: MockCore, query: Record<string, unknown>, amounts: (edges: readonly number[], turns: object) => Promise<Record<string, number>[]> | Record<string, number>[], zero: Record<string, number>,
): Promise<V2Reply> {
  const window = billingWindow(query, core.clock.now());
  if (isReply(window)) return window;
  const turns = {};
  const totals: Record<string, number> = { ...zero };
  const perBucketAmounts = await amounts(window.edges, turns);
  const records: Record<string, unknown>[] = [];
  await inSlices(perBucketAmounts.length, BUCKETS_PER_TURN, turns, (i) => {
    const a = perBucketAmounts[i]!;
    addInto(totals, a);
    records.push({ startTime: isoSeconds(window.edges[i]!), endTime: isoSeconds(window.edges[i + 1]!), ...roundAll(a) });
  });
  return json(200, { records, metadata: { query: queryEcho(window), recordCount: records.length, totals: roundAll(totals) } });
}

const listBilling: V2Handler = (core, { query }) => perBucket(core, query, (edges, turns) => allAmounts(core, edges, turns), ALL_ZERO);

export const billingHandlersV2: Record<string, V2Handler> = {
  listBilling,
  listPodBilling: (core, { query }) =>
    perResource(core, query, podMeters, 'podId', 'podId', 'uniquePodCount', { totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0 }),
  listServerlessBilling: (core, { query }) =>
    perResource(core, query, serverlessMeters, 'serverlessId', 'serverlessId', 'uniqueServerlessCount', { totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0, feeAmount: 0 }),
  // RunPod's public endpoints: the mock hosts none, so every bucket costs 0.
  listEndpointBilling: (core, { query }) => perBucket(core, query, (edges) => edges.slice(1).map(() => ({ totalAmount: 0 })), { totalAmount: 0 }),
  listNetworkVolumeBilling: (core, { query }) =>
    perResource(core, query, volumeMeters, 'networkVolumeId', 'networkVolumeId', 'uniqueNetworkVolumeCount', { totalAmount: 0, standardAmount: 0, highPerformanceAmount: 0 }),
  listClusterBilling: (core, { query }) =>
    perResource(core, query, clusterMeters, 'clusterId', 'clusterId', 'uniqueClusterCount', { totalAmount: 0, gpuAmount: 0, diskAmount: 0, networkingAmount: 0 }),
};
