// Minimal HTTP helpers over node:http: bounded body reading, JSON answers, the shared error body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeInTurns, parseJsonInTurns } from './json-in-turns.js';

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
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve) => {
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      resolve({ ok: false, reason: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
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
    req.on('end', () => resolve(tooLarge ? { ok: false, reason: 'too-large' } : { ok: true, raw: Buffer.concat(chunks) }));
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
    req.on('aborted', () => resolve({ ok: false, reason: 'aborted' }));
  });
}

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

function contentTypeProblem(req: IncomingMessage): JsonBody | undefined {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    return { ok: false, error: { path: '/header/content-type', message: 'must be application/json' } };
  }
  return undefined;
}

const malformed = (error: unknown): JsonBody => ({ ok: false, error: { path: '/body', message: `malformed JSON: ${(error as Error).message}` } });

/**
 * Bodies up to this size are parsed in one turn (1 MiB of the costliest JSON, 512k numbers: ~6 ms on
 * the bench machine); larger ones (queue v2's 10 MB / 20 MiB, the control API's 16 MiB) a slice per turn.
 */
export const PARSE_IN_ONE_TURN_BYTES = 1024 * 1024;

/** parseJsonBody for bodies of any allowed size: one too long for a turn is decoded and parsed a slice per turn. */
export async function parseJsonBodyInTurns(req: IncomingMessage, raw: Buffer): Promise<JsonBody> {
  if (raw.length <= PARSE_IN_ONE_TURN_BYTES) return parseJsonBody(req, raw);
  const wrongType = contentTypeProblem(req);
  if (wrongType) return wrongType;
  try {
    return { ok: true, value: await parseJsonInTurns(await decodeInTurns(raw, req), req) };
  } catch (error) {
    return malformed(error);
  }
}

/** Decoded query parameters (src/contract/query-style.ts decides how lists travel, from the spec's style/explode). */
export { parseQuery } from '../contract/query-style.js';
