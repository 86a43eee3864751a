// Route matching by method + OpenAPI path template, compiled once from the operations table.
import type { OperationInfo, Surface } from './types.js';

interface CompiledRoute {
  op: OperationInfo;
  /** Literal segment or `{name}`; a trailing multi-segment parameter takes the rest of the path. */
  segments: { literal?: string; param?: string }[];
  multiSegmentTail: boolean;
}

export interface RouteMatch {
  op: OperationInfo;
  params: Record<string, string>;
}

/** Methods operations are routed by; HEAD and OPTIONS are answered by the server for every path. */
const ROUTED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Path parameters that may contain `/` (x-multi-segment). */
const MULTI_SEGMENT_PARAMS = new Set(['openaiPath']);

export class Router {
  private readonly routes = new Map<string, CompiledRoute[]>();

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
      };
      const key = `${op.surface} ${op.method}`;
      const list = this.routes.get(key) ?? [];
      list.push(route);
      this.routes.set(key, list);
    }
  }

  /**
   * `path` is relative to the surface base, e.g. `/status/abc`. `'method'` = path exists with another
   * method. HEAD is routed to the GET operation (the server sends no body).
   */
  match(surface: Surface, method: string, path: string): RouteMatch | 'method' | undefined {
    const parts = path.split('/').filter(Boolean);
    const found = this.matchMethod(surface, method === 'HEAD' ? 'GET' : method, parts);
    if (found) return found;
    for (const other of ROUTED_METHODS) {
      if (other !== method && this.matchMethod(surface, other, parts)) return 'method';
    }
    return undefined;
  }

  /** The `Allow` value of a path (RFC 9110 §10.2.1), e.g. `GET, HEAD, OPTIONS`; undefined for an unknown path. */
  allow(surface: Surface, path: string): string | undefined {
    const parts = path.split('/').filter(Boolean);
    const methods: string[] = [];
    for (const method of ROUTED_METHODS) {
      if (!this.matchMethod(surface, method, parts)) continue;
      methods.push(method);
      if (method === 'GET') methods.push('HEAD');
    }
    return methods.length === 0 ? undefined : [...methods, 'OPTIONS'].join(', ');
  }

  private matchMethod(surface: Surface, method: string, parts: string[]): RouteMatch | undefined {
    const list = this.routes.get(`${surface} ${method}`);
    if (!list) return undefined;
    outer: for (const route of list) {
      const n = route.segments.length;
      if (route.multiSegmentTail ? parts.length < n : parts.length !== n) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < n; i++) {
        const seg = route.segments[i]!;
        const part = parts[i]!;
        if (seg.literal !== undefined) {
          if (seg.literal !== part) continue outer;
        } else if (route.multiSegmentTail && i === n - 1) {
          params[seg.param!] = parts.slice(i).map(safeDecode).join('/');
        } else {
          params[seg.param!] = safeDecode(part);
        }
      }
      return { op: route.op, params };
    }
    return undefined;
  }
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
