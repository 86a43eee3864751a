// Route matching by method + OpenAPI path template, compiled once from the operations table.
import type { OperationInfo, Surface } from './types.js';

interface CompiledRoute {
  op: OperationInfo;
  /** Literal segment or `{name}`; a trailing multi-segment parameter takes the rest of the path. */
  segments: { literal?: string; param?: string }[];
  multiSegmentTail: boolean;
  /** Literal segments: the more, the more specific the template (computed once, not per request). */
  literals: number;
}

export interface RouteMatch {
  op: OperationInfo;
  params: Record<string, string>;
}

/** Methods operations are routed by; HEAD and OPTIONS are answered by the server for every path. */
const ROUTED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Matches remembered per surface and method (a polled `/status/{id}`, a repeated `/run` is matched once); the oldest is forgotten first. */
export const MAX_REMEMBERED_MATCHES = 256;
/** Longer paths are matched every time (the memo holds at most 256 × 1 KiB of path text per surface and method). */
export const MAX_REMEMBERED_PATH_CHARS = 1024;

type Matched = RouteMatch | 'method' | undefined;

/** A remembered match: the operation and its parameters as pairs (a fresh record is made from them per request). */
type Remembered = { op: OperationInfo; names: string[]; values: string[] } | 'method';

/** Path parameters that may contain `/` (x-multi-segment). */
const MULTI_SEGMENT_PARAMS = new Set(['openaiPath']);

export class Router {
  private readonly routes = new Map<string, CompiledRoute[]>();
  /** A surface's routes by segment count: a path tries only templates of its length. */
  private readonly byLength = new Map<string, CompiledRoute[][]>();
  /** A surface's routes ending in a multi-segment parameter (any length from theirs up). */
  private readonly withTail = new Map<string, CompiledRoute[]>();
  /** surface → method → path → what match() answered. Routes never change after construction, so nothing goes stale. */
  private readonly remembered = new Map<string, Map<string, Map<string, Remembered>>>();

  constructor(operations: readonly OperationInfo[]) {
    for (const op of operations) {
      const parts = op.path.split('/').filter(Boolean);
      const segments = parts.map((part) =>
        part.startsWith('{') && part.endsWith('}') ? { param: part.slice(1, -1) } : { literal: part },
      );
      const last = segments[segments.length - 1];
      const route: CompiledRoute = {
        op,
        segments,
        multiSegmentTail: Boolean(last?.param && MULTI_SEGMENT_PARAMS.has(last.param)),
        literals: segments.filter((s) => s.literal !== undefined).length,
      };
      const list = this.routes.get(op.surface) ?? [];
      list.push(route);
      this.routes.set(op.surface, list);
      if (route.multiSegmentTail) {
        this.withTail.set(op.surface, [...(this.withTail.get(op.surface) ?? []), route]);
      } else {
        const byLength = this.byLength.get(op.surface) ?? [];
        (byLength[segments.length] ??= []).push(route);
        this.byLength.set(op.surface, byLength);
      }
    }
  }

  /**
   * `path` is relative to the surface base, e.g. `/status/abc`. `'method'` = path exists with another
   * method. HEAD is routed to the GET operation (the server sends no body).
   */
  match(surface: Surface, method: string, path: string): Matched {
    const memo = this.memoOf(surface, method);
    const known = memo.get(path);
    if (known !== undefined) {
      if (known === 'method') return known;
      // A record of its own per request: callers may add to theirs (server.ts adds endpointId).
      const params: Record<string, string> = {};
      for (let i = 0; i < known.names.length; i++) params[known.names[i]!] = known.values[i]!;
      return { op: known.op, params };
    }
    const matched = this.matchNow(surface, method, path);
    if (matched === undefined || memo === NO_MEMO || path.length > MAX_REMEMBERED_PATH_CHARS) return matched;
    if (memo.size >= MAX_REMEMBERED_MATCHES) memo.delete(memo.keys().next().value!);
    memo.set(path, matched === 'method' ? matched : { op: matched.op, names: Object.keys(matched.params), values: Object.values(matched.params) });
    return matched;
  }

  /** Matches remembered for `surface` and `method` (tests). */
  rememberedMatches(surface: Surface, method: string): number {
    return this.remembered.get(surface)?.get(method)?.size ?? 0;
  }

  private memoOf(surface: Surface, method: string): Map<string, Remembered> {
    let bySurface = this.remembered.get(surface);
    if (bySurface === undefined) this.remembered.set(surface, (bySurface = new Map()));
    let memo = bySurface.get(method);
    if (memo === undefined) {
      // Any method string may arrive (node:http accepts every token method): only routed ones get a memo.
      memo = ROUTED_METHODS.includes(method as (typeof ROUTED_METHODS)[number]) || method === 'HEAD' ? new Map() : NO_MEMO;
      if (memo !== NO_MEMO) bySurface.set(method, memo);
    }
    return memo;
  }

  private matchNow(surface: Surface, method: string, path: string): Matched {
    const found = this.pathRoutes(surface, path);
    if (found.length === 0) return undefined;
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const f of found) if (f.op.method === wanted) return f;
    return 'method';
  }

  /** The `Allow` value of a path (RFC 9110 §10.2.1), e.g. `GET, HEAD, OPTIONS`; undefined for an unknown path. */
  allow(surface: Surface, path: string): string | undefined {
    const found = this.pathRoutes(surface, path);
    if (found.length === 0) return undefined;
    const methods: string[] = [];
    for (const method of ROUTED_METHODS) {
      if (!found.some((f) => f.op.method === method)) continue;
      methods.push(method);
      if (method === 'GET') methods.push('HEAD');
    }
    return [...methods, 'OPTIONS'].join(', ');
  }

  /**
   * The operations of the path template a concrete path names. Literal segments win over parameters
   * (OpenAPI: `/v2/registries/delegations` is not `/v2/registries/{id}`), so only the templates with
   * the most literal segments among those matching count.
   */
  private pathRoutes(surface: Surface, path: string): RouteMatch[] {
    const parts = segmentsOf(path);
    let best = -1;
    let found: RouteMatch[] = NONE;
    for (const routes of [this.byLength.get(surface)?.[parts.length], this.withTail.get(surface)]) {
      if (routes === undefined) continue;
      for (const route of routes) {
        if (route.literals < best || !literalsMatch(route, parts)) continue;
        const params = matchSegments(route, parts);
        if (!params) continue;
        const literals = route.literals;
        if (literals > best) {
          best = literals;
          found = [];
        }
        found.push({ op: route.op, params });
      }
    }
    return found;
  }
}

const NONE: RouteMatch[] = [];

/** The memo of a method no route has: never written (its size stays 0). */
const NO_MEMO = new Map<string, Remembered>();

/** The non-empty segments of a path (`/status//a/` → `status`, `a`), without split's and filter's two arrays. */
function segmentsOf(path: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path.charCodeAt(i) !== 47) continue;
    if (i > start) parts.push(path.slice(start, i));
    start = i + 1;
  }
  return parts;
}

/** The literal segments agree (checked before any parameter is decoded or any object made). */
function literalsMatch(route: CompiledRoute, parts: string[]): boolean {
  const n = route.segments.length;
  if (route.multiSegmentTail ? parts.length < n : parts.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const literal = route.segments[i]!.literal;
    if (literal !== undefined && literal !== parts[i]) return false;
  }
  return true;
}

function matchSegments(route: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  const n = route.segments.length;
  if (route.multiSegmentTail ? parts.length < n : parts.length !== n) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const seg = route.segments[i]!;
    const part = parts[i]!;
    if (seg.literal !== undefined) {
      if (seg.literal !== part) return undefined;
    } else if (route.multiSegmentTail && i === n - 1) {
      params[seg.param!] = parts.slice(i).map(safeDecode).join('/');
    } else {
      params[seg.param!] = safeDecode(part);
    }
  }
  return params;
}

function safeDecode(part: string): string {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
