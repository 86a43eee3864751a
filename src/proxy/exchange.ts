// One request/answer pair as the proxy saw it or a HAR recorded it: the unit every judgement works on.
import type { RuleLevel } from '../contract/levels.js';

/**
 * Bytes of each body (request and answer) kept for judging: 1 MiB, the REST v1 request limit, so every
 * valid REST v1 body is judged whole. Longer bodies still flow through unchanged and are scanned for
 * secrets end to end; only their schema is "not judged: body over N bytes".
 */
export const MAX_CAPTURED_BODY_BYTES = 1024 * 1024;

export interface CapturedBody {
  /** The first MAX_CAPTURED_BODY_BYTES bytes (or fewer). */
  bytes: Buffer;
  /** Bytes that passed in total (may exceed bytes.length). */
  totalBytes: number;
  /** False when the body was not recorded at all (HAR without content text). */
  recorded: boolean;
}

export interface Exchange {
  method: string;
  /** Absolute URL of the upstream request (path and query as sent). */
  url: string;
  /** Lower-case header names; repeated headers joined with ", ". */
  requestHeaders: Record<string, string>;
  requestBody: CapturedBody;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: CapturedBody;
}

export interface Violation {
  surface: string;
  operationId: string;
  ruleId: string;
  level: RuleLevel;
  /** Names the operation, status and JSON path; never a secret value. */
  message: string;
}

export const emptyBody = (recorded = true): CapturedBody => ({ bytes: Buffer.alloc(0), totalBytes: 0, recorded });

export const isTruncated = (body: CapturedBody) => body.totalBytes > body.bytes.length;

/** Flattens node's or fetch's headers into lower-case name → value (repeats joined like RFC 9110 §5.3). */
export function headerRecord(pairs: Iterable<readonly [string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]}, ${value}` : value;
  }
  return out;
}

/** headerRecord of a raw header list such as IncomingMessage.rawHeaders, in one loop (no pair generator: this runs per exchange). */
export function rawHeaderRecord(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = lowerName(raw[i]!);
    const value = raw[i + 1]!;
    out[key] = key in out ? `${out[key]}, ${value}` : value;
  }
  return out;
}

/** Lower-case forms of header names seen (Date, Connection, Keep-Alive … arrive capitalised on every answer): made once, not per exchange. */
const LOWER_NAMES = new Map<string, string>();
const MAX_LOWER_NAMES = 256;

function lowerName(name: string): string {
  let lower = LOWER_NAMES.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (LOWER_NAMES.size < MAX_LOWER_NAMES) LOWER_NAMES.set(name, lower);
  }
  return lower;
}

/** Pairs of a raw header list such as IncomingMessage.rawHeaders ([name, value, name, value, …]). */
export function* rawPairs(raw: readonly string[]): Generator<[string, string]> {
  for (let i = 0; i + 1 < raw.length; i += 2) yield [raw[i]!, raw[i + 1]!];
}

/** Keeps the first MAX_CAPTURED_BODY_BYTES bytes of a stream and counts the rest. */
export class BodyCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= MAX_CAPTURED_BODY_BYTES) return;
    const room = MAX_CAPTURED_BODY_BYTES - this.kept;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** Bytes kept so far (what a waiting judgement holds). */
  get keptBytes(): number {
    return this.kept;
  }

  body(): CapturedBody {
    return { bytes: this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks), totalBytes: this.total, recorded: true };
  }
}
