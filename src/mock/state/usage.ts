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
 * Billed ms that fall in [start, end). `totalMs` is the authoritative total; what the segments do not
 * explain (e.g. usage from before a restart that kept only totals) is spread evenly over `lifetime`.
 */
export function msWithin(segments: readonly UsageSegment[], totalMs: number, lifetime: { from: number; to: number }, start: number, end: number): number {
  let ms = 0;
  let explained = 0;
  for (const s of segments) {
    explained += s.ms;
    ms += share(s.from, s.to, s.ms, start, end);
  }
  const rest = totalMs - explained;
  if (rest > 0) ms += share(lifetime.from, lifetime.to, rest, start, end);
  return ms;
}

/** The part of `amount`, spread evenly over [from, to], inside [start, end). */
export function share(from: number, to: number, amount: number, start: number, end: number): number {
  if (to <= from) return from >= start && from < end ? amount : 0;
  const overlap = Math.min(to, end) - Math.max(from, start);
  return overlap > 0 ? (amount * overlap) / (to - from) : 0;
}
