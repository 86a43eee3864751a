// Minimal HTTP helpers over node:http: bounded body reading, JSON answers, the shared error body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeInTurns, parseJsonInTurns } from './json-in-turns.js';
import { rawHeader } from '../contract/raw-headers.js';

export interface ErrorDetail {
  path: string;
  message: string;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** A JSON answer whose text is made already. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers?: Record<string, string>): void {
  const all: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  if (headers) for (const key in headers) all[key] = headers[key]!;
  res.writeHead(status, all);
  res.end(text);
}

export function sendNoContent(res: ServerResponse, status = 204): void {
  res.writeHead(status);
  res.end();
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  errors?: ErrorDetail[],
  headers?: Record<string, string>,
): void {
  sendJson(res, status, errors && errors.length > 0 ? { message, errors } : { message }, headers);
}

export type BodyResult = { ok: true; raw: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/** Reads the body up to `maxBytes`; a larger body is drained and discarded so the answer still arrives. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => readBodyThen(req, maxBytes, resolve));
}

/** readBody calling `done` once, without a promise of its own (the queue's /run reads its body so). */
export function readBodyThen(req: IncomingMessage, maxBytes: number, done: (result: BodyResult) => void): void {
  const declared = Number(rawHeader(req.rawHeaders, 'content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    done(TOO_LARGE);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  // No named closure per request (under tsx each costs a __name call): the listeners check `settled` themselves.
  let settled = false;
  req.on('data', (chunk: Buffer) => {
    if (tooLarge) return;
    size += chunk.length;
    if (size > maxBytes) {
      tooLarge = true;
      chunks.length = 0;
      return;
    }
    chunks.push(chunk);
  });
  // A body that came in one chunk is that chunk (read only), not a copy of it.
  req.on('end', () => {
    if (settled) return;
    settled = true;
    done(tooLarge ? TOO_LARGE : { ok: true, raw: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
  });
  // A request cut before its end is destroyed, and a destroyed request emits 'close' (node emits its 'error' only
  // to listeners, so none is needed); after a complete body 'close' follows 'end' and finds it settled.
  req.on('close', () => {
    if (settled) return;
    settled = true;
    done(ABORTED);
  });
}

const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };
const ABORTED: BodyResult = { ok: false, reason: 'aborted' };

export type JsonBody = { ok: true; value: unknown } | { ok: false; error: ErrorDetail };

/** Parses a JSON body; an empty body is `undefined`. Content type must be application/json when a body is present. */
export function parseJsonBody(req: IncomingMessage, raw: Buffer): JsonBody {
  if (raw.length === 0) return { ok: true, value: undefined };
  const wrongType = contentTypeProblem(req);
  if (wrongType) return wrongType;
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) };
  } catch (error) {
    return malformed(error);
  }
}

/** The last Content-Type value judged and whether it is JSON: a client sends the same one on every request. */
let lastContentType: string | undefined;
let lastContentTypeIsJson = false;

/** Whether a Content-Type value names JSON (`application/json`, `…+json`; parameters and case ignored). */
export function isJsonContentType(header: string): boolean {
  if (header === lastContentType) return lastContentTypeIsJson;
  const type = header.split(';')[0]!.trim().toLowerCase();
  lastContentType = header;
  lastContentTypeIsJson = type === 'application/json' || type.endsWith('+json');
  return lastContentTypeIsJson;
}

function contentTypeProblem(req: IncomingMessage): JsonBody | undefined {
  if (isJsonContentType(rawHeader(req.rawHeaders, 'content-type') ?? '')) return undefined;
  return { ok: false, error: { path: '/header/content-type', message: 'must be application/json' } };
}

const malformed = (error: unknown): JsonBody => ({ ok: false, error: { path: '/body', message: `malformed JSON: ${(error as Error).message}` } });

/**
 * Bodies up to this size are parsed in one turn (1 MiB of the costliest JSON, 512k numbers: ~6 ms on
 * the bench machine); larger ones (queue v2's 10 MB / 20 MiB, the control API's 16 MiB) a slice per turn.
 */
export const PARSE_IN_ONE_TURN_BYTES = 1024 * 1024;

/**
 * parseJsonBody for bodies of any allowed size: one too long for a turn is decoded and parsed a slice per turn
 * (a promise); one that fits a turn is parsed now (no promise, no microtask hop).
 */
export function parseJsonBodyInTurns(req: IncomingMessage, raw: Buffer): JsonBody | Promise<JsonBody> {
  if (raw.length <= PARSE_IN_ONE_TURN_BYTES) return parseJsonBody(req, raw);
  const wrongType = contentTypeProblem(req);
  if (wrongType) return wrongType;
  return parseLargeJson(req, raw);
}

async function parseLargeJson(req: IncomingMessage, raw: Buffer): Promise<JsonBody> {
  try {
    return { ok: true, value: await parseJsonInTurns(await decodeInTurns(raw, req), req) };
  } catch (error) {
    return malformed(error);
  }
}

/** Decoded query parameters (src/contract/query-style.ts decides how lists travel, from the spec's style/explode). */
export { parseQuery } from '../contract/query-style.js';
