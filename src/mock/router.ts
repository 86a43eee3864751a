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

  /** `path` is relative to the surface base, e.g. `/status/abc`. `'method'` = path exists with another method. */
  match(surface: Surface, method: string, path: string): RouteMatch | 'method' | undefined {
    const parts = path.split('/').filter(Boolean);
    const found = this.matchMethod(surface, method, parts);
    if (found) return found;
    for (const other of ['GET', 'POST', 'PATCH', 'DELETE']) {
      if (other !== method && this.matchMethod(surface, other, parts)) return 'method';
    }
    return undefined;
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
