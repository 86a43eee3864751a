// Which surface and operation an upstream request is: method + path against the operations table.
//
// The path is searched for each surface's anchor segment, so any base prefix works (…/v1, /rest/v2, /api/v2):
//   restV1   a `v1` segment, then a REST v1 operation path            e.g. /v1/pods/{podId}
//   restV2   a `v2` segment starting a REST v2 operation path          e.g. /v2/pods, /rest/v2/pods (mock alias)
//   queueV2  a `v2` segment, an endpoint id, then a queue operation    e.g. /v2/{endpointId}/status/{jobId}
//   graphql  a last segment `graphql`                                 e.g. /graphql
// When a path fits both REST v2 and queue v2 (/v2/pods/health: REST v2 getPod or getHealth of endpoint
// "pods"), REST v2 wins if the segment before `v2` is `rest` or the one after it names a REST v2
// resource (pods, serverless, …); otherwise queue v2. `--surface` restricts matching to one surface.
import { operations, type OperationInfo, type Surface } from '../../generated/operations.js';

export const TRAFFIC_SURFACES = ['restV1', 'restV2', 'queueV2', 'graphql'] as const;
export type TrafficSurface = (typeof TRAFFIC_SURFACES)[number];

export type Classification =
  | { kind: 'operation'; surface: Surface; op: OperationInfo; pathParams: Record<string, string> }
  | { kind: 'graphql' }
  /** A known path of the surface, with a method it does not serve (405 territory). */
  | { kind: 'method'; surface: Surface; path: string }
  | { kind: 'options' }
  | { kind: 'unmatched' };

/** Path parameters that may contain `/` (x-multi-segment). */
const MULTI_SEGMENT_PARAMS = new Set(['openaiPath']);

interface Route {
  op: OperationInfo;
  segments: { literal?: string; param?: string }[];
  multiSegmentTail: boolean;
}

const routes = new Map<Surface, Route[]>();
/** Routes by `surface method segmentCount` (multi-segment tails by `surface method *`): few tried per request. */
const index = new Map<string, Route[]>();
const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => map.set(key, [...(map.get(key) ?? []), value]);
for (const op of operations) {
  const segments = op.path.split('/').filter(Boolean).map((part) => (part.startsWith('{') && part.endsWith('}') ? { param: part.slice(1, -1) } : { literal: part }));
  const last = segments[segments.length - 1];
  const route: Route = { op, segments, multiSegmentTail: Boolean(last?.param && MULTI_SEGMENT_PARAMS.has(last.param)) };
  push(routes, op.surface, route);
  push(index, `${op.surface} ${op.method} ${route.multiSegmentTail ? '*' : segments.length}`, route);
}
// A literal beats a parameter: /v2/registries/delegations is listDelegations, not getRegistry("delegations").
const literals = (route: Route) => route.segments.filter((segment) => segment.literal !== undefined).length;
for (const bucket of index.values()) bucket.sort((a, b) => literals(b) - literals(a));
/** First segments after `v2` of REST v2 paths (pods, serverless, templates, …). */
const REST_V2_RESOURCES = new Set((routes.get('restV2') ?? []).map((r) => r.segments[1]?.literal).filter((s): s is string => Boolean(s)));

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

interface Match { route: Route; params: Record<string, string> }

function matchOne(route: Route, parts: readonly string[]): Record<string, string> | undefined {
  const n = route.segments.length;
  if (route.multiSegmentTail ? parts.length < n : parts.length !== n) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const seg = route.segments[i]!;
    if (seg.literal !== undefined) {
      if (seg.literal !== parts[i]) return undefined;
    } else if (route.multiSegmentTail && i === n - 1) params[seg.param!] = parts.slice(i).map(decode).join('/');
    else params[seg.param!] = decode(parts[i]!);
  }
  return params;
}

/** The operation of `surface` at this path and method, if any. */
function matchMethod(surface: Surface, method: string, parts: readonly string[]): Match | undefined {
  for (const key of [`${surface} ${method} ${parts.length}`, `${surface} ${method} *`]) {
    for (const route of index.get(key) ?? []) {
      const params = matchOne(route, parts);
      if (params) return { route, params };
    }
  }
  return undefined;
}

/** True when some operation of `surface` has this path (with any method). */
const hasPath = (surface: Surface, parts: readonly string[]) => (routes.get(surface) ?? []).some((route) => matchOne(route, parts) !== undefined);

interface Anchor { surface: Surface; rest: readonly string[]; restV2Hint: boolean }

// Module-level helpers, not closures: the CLI runs through tsx, whose keepNames wraps every named
// closure in a costly __name() call per creation, and this runs for every exchange.
function anchorsOf(parts: readonly string[], only: TrafficSurface | undefined): Anchor[] {
  const anchors: Anchor[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === 'v1' && (!only || only === 'restV1')) anchors.push({ surface: 'restV1', rest: parts.slice(i + 1), restV2Hint: false });
    if (parts[i] !== 'v2') continue;
    if (!only || only === 'restV2') anchors.push({ surface: 'restV2', rest: parts.slice(i), restV2Hint: parts[i - 1] === 'rest' || REST_V2_RESOURCES.has(parts[i + 1] ?? '') });
    if (parts[i - 1] !== 'rest' && i + 1 < parts.length && (!only || only === 'queueV2')) anchors.push({ surface: 'queueV2', rest: parts.slice(i + 2), restV2Hint: false });
  }
  return anchors;
}

/** REST v2 when hinted (…/rest/v2, a REST v2 resource after v2), else the other surface, else REST v2. */
function pick<T extends Anchor>(list: readonly T[]): T | undefined {
  return list.find((c) => c.surface === 'restV2' && c.restV2Hint) ?? list.find((c) => c.surface !== 'restV2') ?? list[0];
}

/** Classifications of recent paths: a client polls one job's status, or reads one pod, many times over. */
const RECENT_PATHS = 512;
const recent = new Map<string, Classification>();

/** `pathname` is the upstream path without query; `only` restricts matching to one surface. */
export function classify(method: string, pathname: string, only?: TrafficSurface): Classification {
  const key = `${only ?? ''} ${method} ${pathname}`;
  const known = recent.get(key);
  if (known) return known;
  const found = classifyPath(method, pathname, only);
  if (recent.size >= RECENT_PATHS) recent.delete(recent.keys().next().value!);
  recent.set(key, found);
  return found;
}

function classifyPath(method: string, pathname: string, only?: TrafficSurface): Classification {
  const parts = pathname.split('/').filter(Boolean);
  const upper = method.toUpperCase();
  if ((!only || only === 'graphql') && parts[parts.length - 1] === 'graphql') return upper === 'OPTIONS' ? { kind: 'options' } : { kind: 'graphql' };
  const anchors = anchorsOf(parts, only);
  if (upper !== 'OPTIONS') {
    const full: (Anchor & { match: Match })[] = [];
    for (const anchor of anchors) {
      const match = matchMethod(anchor.surface, upper === 'HEAD' ? 'GET' : upper, anchor.rest);
      if (match) full.push({ surface: anchor.surface, rest: anchor.rest, restV2Hint: anchor.restV2Hint, match }); // no spread: slow on this path
    }
    const best = pick(full);
    if (best) return { kind: 'operation', surface: best.surface, op: best.match.route.op, pathParams: best.match.params };
  }
  // Only when no operation matched: is it a known path with another method (405 territory, or OPTIONS)?
  const known = pick(anchors.filter((a) => hasPath(a.surface, a.rest)));
  if (!known) return { kind: 'unmatched' };
  return upper === 'OPTIONS' ? { kind: 'options' } : { kind: 'method', surface: known.surface, path: `/${known.rest.join('/')}` };
}

export function parseSurface(text: string): TrafficSurface | undefined {
  return (TRAFFIC_SURFACES as readonly string[]).includes(text) ? (text as TrafficSurface) : undefined;
}
