// The time window of a REST v2 billing query: startTime/endTime (30 days ago / now when left out) or
// lastN, cut into UTC buckets of bucketSize (weeks start on Sunday, like REST v1's billing buckets).
// startTime moves back to the start of its bucket; endTime forward to the end of its bucket.
import { problem } from './problem.js';
import type { V2Reply } from './types.js';

export type BucketSize = 'hour' | 'day' | 'week' | 'month' | 'year';

/** Most buckets one query may span (the lastN maximum: a leap year of hours). */
export const MAX_BILLING_BUCKETS = 8784;
const DEFAULT_SPAN_MS = 30 * 24 * 3_600_000;
/** Billing begins at the epoch and ends before year 10000: every window edge is an RFC 3339 date-time (assumed). */
const FIRST_MS = 0;
const END_MS = Date.UTC(10_000, 0, 1);

export interface BillingWindow {
  bucketSize: BucketSize;
  /** Bucket boundaries, epoch ms: bucket i is [edges[i], edges[i + 1]). */
  edges: number[];
}

export function bucketFloor(t: number, size: BucketSize): number {
  const d = new Date(t);
  d.setUTCMinutes(0, 0, 0);
  if (size !== 'hour') d.setUTCHours(0);
  if (size === 'week') d.setUTCDate(d.getUTCDate() - d.getUTCDay());
  if (size === 'month' || size === 'year') d.setUTCDate(1);
  if (size === 'year') d.setUTCMonth(0);
  return d.getTime();
}

/** Start of the bucket after the one starting at `t`. */
export function bucketNext(t: number, size: BucketSize, steps = 1): number {
  const d = new Date(t);
  if (size === 'hour') d.setUTCHours(d.getUTCHours() + steps);
  if (size === 'day') d.setUTCDate(d.getUTCDate() + steps);
  if (size === 'week') d.setUTCDate(d.getUTCDate() + 7 * steps);
  if (size === 'month') d.setUTCMonth(d.getUTCMonth() + steps);
  if (size === 'year') d.setUTCFullYear(d.getUTCFullYear() + steps);
  return d.getTime();
}

export const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Resolves the query's window, or the 400 that refuses it. */
export function billingWindow(query: Record<string, unknown>, now: number): BillingWindow | V2Reply {
  const bucketSize = (query['bucketSize'] as BucketSize | undefined) ?? 'day';
  const lastN = query['lastN'] === undefined ? undefined : Number(query['lastN']);
  const sentTimes = ['startTime', 'endTime'].filter((k) => query[k] !== undefined);
  if (lastN !== undefined && sentTimes.length > 0) {
    return problem(400, `lastN excludes ${sentTimes.join(' and ')}`, sentTimes.map((k) => `/query/${k}: not together with lastN`));
  }
  let start: number;
  let end: number;
  if (lastN !== undefined) {
    end = bucketNext(bucketFloor(now, bucketSize), bucketSize);
    start = bucketNext(end, bucketSize, -lastN);
    if (!(start >= FIRST_MS)) return problem(400, `the last ${lastN} ${bucketSize} buckets reach back before 1970-01-01T00:00:00Z, where billing begins`, ['/query/lastN: reaches back before 1970-01-01T00:00:00Z']);
  } else {
    const startTime = query['startTime'] === undefined ? now - DEFAULT_SPAN_MS : Date.parse(String(query['startTime']));
    const endTime = query['endTime'] === undefined ? now : Date.parse(String(query['endTime']));
    start = bucketFloor(startTime, bucketSize);
    const endFloor = bucketFloor(endTime, bucketSize);
    end = endFloor === endTime ? endTime : bucketNext(endFloor, bucketSize);
    if (!Number.isFinite(start) || !Number.isFinite(end)) return problem(400, 'startTime or endTime is out of range', ['/query/startTime: not a representable time']);
    if (start >= end) return problem(400, 'startTime must be before endTime', ['/query/endTime: must be after startTime']);
    if (start < FIRST_MS) return problem(400, 'the window starts before 1970-01-01T00:00:00Z, where billing begins', ['/query/startTime: before 1970-01-01T00:00:00Z']);
    if (end > END_MS) return problem(400, 'the window ends after the year 9999', ['/query/endTime: after 9999-12-31T23:59:59Z']);
  }
  const edges = [start];
  while (edges[edges.length - 1]! < end) {
    if (edges.length > MAX_BILLING_BUCKETS) {
      const detail = `the window spans more than ${MAX_BILLING_BUCKETS} ${bucketSize} buckets; choose a larger bucketSize or a shorter window`;
      return problem(400, detail, ['/query/bucketSize: too many buckets for the window']);
    }
    edges.push(bucketNext(edges[edges.length - 1]!, bucketSize));
  }
  return { bucketSize, edges };
}
