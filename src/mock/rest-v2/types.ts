// Reply shapes of the REST v2 handlers: JSON (problem+json for errors) or a Server-Sent Events stream.
import type { ServerResponse } from 'node:http';
import type { MockCore, RequestContext } from '../core.js';

export interface V2Reply {
  status: number;
  body?: unknown;
  /** Default application/json; problem answers use application/problem+json. */
  contentType?: string;
  headers?: Record<string, string>;
  /** An event stream: writes to `res` after the head (status 200, text/event-stream) and ends it. */
  stream?: (res: ServerResponse) => void;
}

export interface V2RequestContext extends RequestContext {
  /** Last-Event-ID request header (SSE resume), when sent. */
  lastEventId?: string;
}

export type V2Handler = (core: MockCore, ctx: V2RequestContext) => V2Reply | Promise<V2Reply>;

export const json = (status: number, body: unknown): V2Reply => ({ status, body });
export const noContent = (): V2Reply => ({ status: 204 });
