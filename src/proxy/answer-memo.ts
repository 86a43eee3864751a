// What judging an answer body finds from its bytes alone — the parsed JSON, the schema issues of its
// operation and status, the object ids it carries — kept for the last answer of each operation and status.
// Clients poll: a job's /status, a pod, a list read again and again answer the same bytes, and those are
// then compared (memcmp), not parsed and validated again. Everything that depends on the request (its
// key, headers, validity, secrets) is judged per exchange as before; only pure functions of the body are reused.
import type { ValidationIssue } from '../validation/index.js';
import { isTruncated, type CapturedBody } from './exchange.js';

/** Operation-and-status answers remembered at most (the oldest is forgotten first). */
export const MEMO_MAX_ANSWERS = 256;
/** Longer bodies are not remembered (at most MEMO_MAX_ANSWERS × this many bytes are held: 4 MiB). */
export const MEMO_MAX_BODY_BYTES = 16 * 1024;

export type Parsed = { ok: true; value: unknown } | { ok: false };

/** One answer body as the judge sees it; `issues` and `ids` are filled the first time they are needed. */
export interface ParsedAnswer {
  /** undefined: not judged (truncated or not recorded). */
  parsed: Parsed | undefined;
  /** validateResponse's issues for the memo key's operation and status. */
  issues?: ValidationIssue[];
  /** Object ids the answer carries (cross-account check). */
  ids?: readonly string[];
}

export class AnswerMemo {
  private readonly byKey = new Map<string, { bytes: Buffer; answer: ParsedAnswer }>();
  hits = 0;

  get size(): number {
    return this.byKey.size;
  }

  /** The answer for `key` (surface, operation, status) when its body is byte-for-byte the last one seen there; else parses and remembers it. */
  answerOf(key: string, body: CapturedBody, parse: (body: CapturedBody) => Parsed | undefined): ParsedAnswer {
    if (!body.recorded || isTruncated(body) || body.bytes.length > MEMO_MAX_BODY_BYTES) return { parsed: parse(body) };
    const known = this.byKey.get(key);
    if (known && known.bytes.equals(body.bytes)) {
      this.hits++;
      return known.answer;
    }
    const answer: ParsedAnswer = { parsed: parse(body) };
    this.byKey.delete(key);
    if (this.byKey.size >= MEMO_MAX_ANSWERS) this.byKey.delete(this.byKey.keys().next().value!);
    // A copy: the captured chunk may share a larger buffer that should not stay alive.
    this.byKey.set(key, { bytes: Buffer.from(body.bytes), answer });
    return answer;
  }
}
