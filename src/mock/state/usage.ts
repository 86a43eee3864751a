// Billed usage as time segments, so billing can be split into time buckets (REST v2 billing) while
// the totals stay the REST v1 figures (billedMs). Bounded: past MAX_USAGE_SEGMENTS the two oldest
// segments merge into one spanning both (its ms spread evenly), which keeps every total exact.

export interface UsageSegment {
  from: number;
  to: number;
  /** Billed ms within [from, to] (less than to − from only for merged segments). */
  ms: number;
}

/** Most segments kept per pod or endpoint. */
export const MAX_USAGE_SEGMENTS = 256;

export function recordUsage(segments: UsageSegment[], from: number, to: number): void {
  if (to <= from) return;
  segments.push({ from, to, ms: to - from });
  if (segments.length > MAX_USAGE_SEGMENTS) {
    const [a, b] = segments.splice(0, 2) as [UsageSegment, UsageSegment];
    segments.unshift({ from: a.from, to: b.to, ms: a.ms + b.ms });
  }
}

/** The segment list kept on a record under `key` (created on first use). */
export function usageOn(record: Record<string, unknown>, key = 'usage'): UsageSegment[] {
  const existing = record[key];
  if (Array.isArray(existing)) return existing as UsageSegment[];
  const created: UsageSegment[] = [];
  record[key] = created;
  return created;
}

/**
 * Billed ms per bucket of `edges` (bucket i is [edges[i], edges[i + 1])). `totalMs` is the authoritative
 * total; what the segments do not explain (e.g. usage from before a restart that kept only totals) is
 * spread evenly over `lifetime`. Each segment visits only the buckets it overlaps.
 */
export function msPerBucket(segments: readonly UsageSegment[], totalMs: number, lifetime: { from: number; to: number }, edges: readonly number[]): number[] {
  const out = new Array<number>(Math.max(0, edges.length - 1)).fill(0);
  let explained = 0;
  for (const s of segments) {
    explained += s.ms;
    spreadInto(out, edges, s.from, s.to, s.ms);
  }
  const rest = totalMs - explained;
  if (rest > 0) spreadInto(out, edges, lifetime.from, lifetime.to, rest);
  return out;
}

/** Adds `amount`, spread evenly over [from, to], to the buckets of `edges` it overlaps. */
export function spreadInto(out: number[], edges: readonly number[], from: number, to: number, amount: number): void {
  // First bucket ending after `from` (binary search: edges ascend).
  let lo = 0;
  let hi = out.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edges[mid + 1]! <= from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < out.length && edges[i]! <= to; i++) {
    if (to <= from) {
      if (from >= edges[i]! && from < edges[i + 1]!) out[i]! += amount;
      return;
    }
    const overlap = Math.min(to, edges[i + 1]!) - Math.max(from, edges[i]!);
    if (overlap > 0) out[i]! += (amount * overlap) / (to - from);
  }
}
