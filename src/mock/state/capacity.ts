// Global ceilings of the mock: stored jobs (per endpoint, in total) and heap. Past one the mock answers a
// documented error (429 / 503 with Retry-After) instead of growing without bound until it crashes.
// Defaults: x-max-stored-jobs of the queue v2 spec, and 80 % of V8's heap limit.
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { packageFile } from '../../contract/package-files.js';
import { graphqlLimits } from '../../contract/graphql-limits.js';
import type { Failure } from './store.js';

export interface CapacityLimits {
  /** Jobs one endpoint stores (queued, running, terminal within result retention). */
  maxJobsPerEndpoint: number;
  maxJobsTotal: number;
  /** Creates and job submissions are refused while the used heap is above this. */
  heapLimitBytes: number;
  /** Records (items of lists of objects) one GraphQL answer holds (the SDL's `records` limit). */
  graphqlRecords: number;
}

/** Seconds a refused caller is asked to wait (Retry-After). */
export const CAPACITY_RETRY_AFTER_S = 10;
const HEAP_SHARE = 0.8;

function storedJobsLimits(): { perEndpoint: number; total: number } {
  const doc = JSON.parse(readFileSync(packageFile('generated/queue-v2/openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const limit = doc.paths['/run']?.['post']?.['x-max-stored-jobs'] as { perEndpoint?: number; total?: number } | undefined;
  if (!limit?.perEndpoint || !limit.total) throw new Error('queue-v2 spec lacks x-max-stored-jobs on POST /run');
  return { perEndpoint: limit.perEndpoint, total: limit.total };
}

export function defaultCapacityLimits(): CapacityLimits {
  const jobs = storedJobsLimits();
  return {
    maxJobsPerEndpoint: jobs.perEndpoint,
    maxJobsTotal: jobs.total,
    heapLimitBytes: Math.floor(getHeapStatistics().heap_size_limit * HEAP_SHARE),
    graphqlRecords: graphqlLimits().records,
  };
}

/**
 * How long one reading of the used heap serves: reading it costs about a microsecond, which every create and job
 * submission paid; within 10 ms a /run flood grows the heap by kilobytes, far below any ceiling's precision.
 */
const HEAP_READING_MS = 10;
let heapReadAt = -Infinity;
let usedHeapBytes = 0;

function usedHeap(): number {
  const now = Date.now();
  if (now - heapReadAt >= HEAP_READING_MS || now < heapReadAt) {
    usedHeapBytes = getHeapStatistics().used_heap_size;
    heapReadAt = now;
  }
  return usedHeapBytes;
}

/** 503 while the heap is above the ceiling (CAPACITY-HEAP-001); the reading is at most 10 ms old. */
export function heapCeilingFailure(limits: CapacityLimits): Failure | undefined {
  if (usedHeap() <= limits.heapLimitBytes) return undefined;
  return {
    ok: false, status: 503, retryAfterSeconds: CAPACITY_RETRY_AFTER_S,
    message: 'Service unavailable: the mock is at its memory ceiling and stored nothing; retry later',
  };
}

/** 429 while the endpoint or the whole mock stores the most jobs it keeps (QUEUE-CAPACITY-001). */
export function jobCeilingFailure(limits: CapacityLimits, stored: { endpoint: number; total: number }): Failure | undefined {
  const full = stored.endpoint >= limits.maxJobsPerEndpoint
    ? `the endpoint stores ${stored.endpoint} jobs, its maximum`
    : stored.total >= limits.maxJobsTotal ? `the service stores ${stored.total} jobs, its maximum` : undefined;
  if (!full) return heapCeilingFailure(limits);
  return {
    ok: false, status: 429, retryAfterSeconds: CAPACITY_RETRY_AFTER_S,
    message: `Too many requests: ${full}; jobs are deleted after their ttl or result retention, or by purge-queue`,
  };
}
