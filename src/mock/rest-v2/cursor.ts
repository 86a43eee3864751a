// Cursor pagination of REST v2 lists (listEndpointBuilds, listEndpointReleases): items newest first, each
// with a numeric key that decreases down the list. A cursor is opaque to callers — base64url JSON naming
// the operation, the endpoint and the limit it was issued for, and the key of the page's last item — so a
// page resumes after that item even when newer items arrived meanwhile. Malformed or foreign → 422.
import { problem } from './problem.js';
import type { V2Reply } from './types.js';

interface CursorBody {
  op: string;
  id: string;
  limit: number;
  after: number;
}

export interface Page<T> {
  items: T[];
  pagination: { nextCursor: string | null; hasNextPage: boolean };
}

const encode = (body: CursorBody): string => Buffer.from(JSON.stringify(body)).toString('base64url');

function decode(cursor: string): CursorBody | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
    const ok = typeof body.op === 'string' && typeof body.id === 'string' && Number.isInteger(body.limit) && Number.isInteger(body.after);
    return ok ? (body as CursorBody) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A 422 for a cursor that is no cursor at all, checked before the list's owner is looked up: the answer
 * is then the same whether the endpoint exists, is another account's, or never existed.
 */
export function malformedCursor(query: Record<string, unknown>): V2Reply | undefined {
  return typeof query['cursor'] === 'string' && !decode(query['cursor'])
    ? problem(422, 'malformed cursor: pass pagination.nextCursor through verbatim', ['/query/cursor: is not a cursor this list issued'])
    : undefined;
}

/** One page of `items` (newest first, `keyOf` decreasing) for the query's cursor and limit, or a 422. */
export function pageOf<T>(items: readonly T[], keyOf: (item: T) => number, scope: { op: string; id: string }, query: Record<string, unknown>, defaultLimit: number): Page<T> | V2Reply {
  const limit = query['limit'] === undefined ? defaultLimit : Number(query['limit']);
  let start = 0;
  if (typeof query['cursor'] === 'string') {
    const cursor = decode(query['cursor']);
    if (!cursor) return problem(422, 'malformed cursor: pass pagination.nextCursor through verbatim', ['/query/cursor: is not a cursor this list issued']);
    if (cursor.op !== scope.op || cursor.id !== scope.id || cursor.limit !== limit) {
      return problem(422, `the cursor was issued for another list (${cursor.op} of ${cursor.id}, limit ${cursor.limit})`, ['/query/cursor: belongs to another operation, endpoint or limit']);
    }
    start = items.findIndex((item) => keyOf(item) < cursor.after);
    if (start === -1) start = items.length;
  }
  const page = items.slice(start, start + limit);
  const hasNextPage = start + page.length < items.length;
  const last = page.at(-1);
  return {
    items: page,
    pagination: { nextCursor: hasNextPage && last !== undefined ? encode({ ...scope, limit, after: keyOf(last) }) : null, hasNextPage },
  };
}

export const isReply = (value: unknown): value is V2Reply => typeof (value as V2Reply).status === 'number';
