// JSON written, read and copied a slice per event-loop turn (turns.ts), for values too large for one turn:
// a job's 20 MB input or result, a /stream backlog, a wide billing window, a long list. Small values take
// the ordinary one-turn path (JSON.stringify / JSON.parse) and cost nothing extra.
import type { ServerResponse } from 'node:http';
import { nextTurn } from './turns.js';

/**
 * JSON values (array items and object members, counted recursively; a string counts one per 512
 * characters) serialised per turn: about 2–5 ms of JSON.stringify on the bench machine.
 */
export const JSON_NODES_PER_TURN = 20_000;

/** JSON values in `value`, counting stops past `limit` (a long string counts one per 512 characters). */
export function jsonNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const v = stack.pop();
    count += typeof v === 'string' ? 1 + (v.length >> 9) : 1;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) for (let i = 0; i < v.length && count + stack.length <= limit; i++) stack.push(v[i]);
    else for (const key in v) stack.push((v as Record<string, unknown>)[key]);
  }
  return count;
}

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === null || proto === Object.prototype;
};

/** JSON values of one member: primitives without a call (arrays of millions of numbers stay fast). */
const nodesOf = (item: unknown, limit: number): number =>
  item === null || (typeof item !== 'object' && typeof item !== 'string') ? 1 : jsonNodes(item, limit);

/** Waits for the owner's next turn; the budget starts again. */
async function freshTurn(owner: object, budget: { left: number }): Promise<void> {
  await nextTurn(owner);
  budget.left = JSON_NODES_PER_TURN;
}

/** The longest run of array members from `from` that fits in `room` nodes: its end (exclusive) and its node count. */
function fittingRun(items: readonly unknown[], from: number, room: number): { end: number; nodes: number } {
  let nodes = 0;
  let end = from;
  for (; end < items.length; end++) {
    const k = nodesOf(items[end], room - nodes);
    if (nodes + k > room) break;
    nodes += k;
  }
  return { end, nodes };
}

/**
 * JSON text of `value` in pieces, about JSON_NODES_PER_TURN values per turn: a value that fits is
 * written whole; a larger array is written a run of items at a time, a larger object a member at a
 * time, and a member too large for one turn is entered in turn. Objects with toJSON (Date) and class
 * instances are written whole, as JSON.stringify writes them.
 */
export async function writeJsonInTurns(
  value: unknown, write: (text: string) => void, owner: object, budget = { left: JSON_NODES_PER_TURN }, ancestors = new Set<object>(),
): Promise<void> {
  const nodes = nodesOf(value, JSON_NODES_PER_TURN);
  if (nodes <= JSON_NODES_PER_TURN || value === null || typeof value !== 'object' || !(Array.isArray(value) || isPlain(value))) {
    if (nodes > budget.left) await freshTurn(owner, budget);
    budget.left -= nodes;
    write(JSON.stringify(value) ?? 'null');
    return;
  }
  // A value entered here is too large for JSON.stringify in one piece: cycles are caught as it catches them.
  if (ancestors.has(value)) throw new TypeError('Converting circular structure to JSON');
  ancestors.add(value);
  await writeMembers(value, write, owner, budget, ancestors);
  ancestors.delete(value);
}

async function writeMembers(value: object, write: (text: string) => void, owner: object, budget: { left: number }, ancestors: Set<object>): Promise<void> {
  if (Array.isArray(value)) {
    write('[');
    let i = 0;
    while (i < value.length) {
      if (budget.left <= 0) await freshTurn(owner, budget);
      const run = fittingRun(value, i, budget.left);
      if (run.end > i) {
        write(`${i > 0 ? ',' : ''}${JSON.stringify(value.slice(i, run.end)).slice(1, -1)}`);
        budget.left -= run.nodes;
        i = run.end;
      } else if (budget.left < JSON_NODES_PER_TURN) {
        await freshTurn(owner, budget);
      } else {
        if (i > 0) write(',');
        await writeJsonInTurns(value[i], write, owner, budget, ancestors);
        i++;
      }
    }
    write(']');
    return;
  }
  write('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    write(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    await writeJsonInTurns(item, write, owner, budget, ancestors);
  }
  write('}');
}

/** Whether `body` is too large to serialise in one turn. */
export const needsTurns = (body: unknown): boolean => jsonNodes(body, JSON_NODES_PER_TURN) > JSON_NODES_PER_TURN;

/** Writes `body` as a JSON answer a slice per turn (chunked transfer), then ends `res`; `owner` is the work its turns belong to. */
export async function sendJsonInTurns(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}, owner: object = res): Promise<void> {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  if (res.req.method === 'HEAD') return void res.end();
  let pending = '';
  await writeJsonInTurns(body, (text) => {
    pending += text;
    if (pending.length >= 64 * 1024) {
      res.write(pending);
      pending = '';
    }
  }, owner);
  res.end(pending);
}

/** Characters of JSON text parsed by one JSON.parse call (about 1–3 ms) or scanned for member boundaries per turn. */
export const JSON_CHARS_PER_TURN = 256 * 1024;
const SCAN_CHARS_PER_TURN = 4 * JSON_CHARS_PER_TURN;

const OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d, QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Follows the structure of the array or object opening at `start` (strings, nesting, top-level commas) and
 * cuts its members into runs: consecutive members whose text fits JSON_CHARS_PER_TURN together ([from, to)
 * between top-level commas), or one member longer than that on its own. Only the structure is followed (an
 * empty member is refused); JSON.parse checks each run. `scan` is synchronous, so V8 optimises its loop (in
 * the async caller it ran ~100× slower, ~140 ns a character).
 */
class MemberScanner {
  readonly runs: [number, number][] = [];
  members = 0;
  /** The index of the closing bracket, once found. */
  close = -1;
  private readonly closer: number;
  private depth = 0;
  private inString = false;
  private sawValue = false;
  private runFrom: number;
  private memberFrom: number;
  private nextQuote = -1;
  private nextBackslash = -1;
  /** Plain characters of the current string scanned one by one since its start or the last jump. */
  private plainRun = 0;

  constructor(private readonly text: string, private readonly start: number) {
    this.closer = text.charCodeAt(start) === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT;
    this.runFrom = this.memberFrom = start + 1;
  }

  /** Scans [from, min(to, end of text)); returns where it stopped (the text's length once done or exhausted). */
  scan(from: number, to: number): number {
    const text = this.text;
    const end = Math.min(to, text.length);
    let i = from;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) this.inString = false;
        else if (++this.plainRun === LONG_STRING_RUN) {
          // A long string value (a 10 MiB prompt, a 16 MiB secret: most of a big body) is crossed natively to
          // its next quote or backslash. Both positions are kept, so no character is searched twice.
          this.plainRun = 0;
          if (this.nextQuote < i) this.nextQuote = indexOrEnd(text, '"', i);
          if (this.nextBackslash < i) this.nextBackslash = indexOrEnd(text, '\\', i);
          i = Math.min(this.nextQuote, this.nextBackslash, end) - 1; // the loop's i++ lands on it
        }
        continue;
      }
      if (c === QUOTE) {
        this.inString = this.sawValue = true;
        this.plainRun = 0;
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        this.depth++;
        this.sawValue = true;
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        if (this.depth > 0) this.depth--;
        else {
          if (c !== this.closer) throw new SyntaxError(`Unexpected '${String.fromCharCode(c)}' at position ${i}`);
          if (this.sawValue || this.runs.length > 0 || this.memberFrom > this.start + 1) this.memberEnds(i);
          if (this.runFrom < i) this.runs.push([this.runFrom, i]);
          this.close = i;
          return text.length;
        }
      } else if (c === COMMA && this.depth === 0) this.memberEnds(i);
      else if (!isSpace(c)) this.sawValue = true;
    }
    return i;
  }

  /** The member [memberFrom, end) is complete: close the run before it when the run would grow too long. */
  private memberEnds(end: number): void {
    if (!this.sawValue) throw new SyntaxError(`Unexpected token at position ${end}`);
    this.members++;
    if (end - this.runFrom > JSON_CHARS_PER_TURN && this.memberFrom > this.runFrom) {
      this.runs.push([this.runFrom, this.memberFrom - 1]);
      this.runFrom = this.memberFrom;
    }
    if (end - this.memberFrom > JSON_CHARS_PER_TURN) {
      this.runs.push([this.memberFrom, end]);
      this.runFrom = end + 1;
    }
    this.memberFrom = end + 1;
    this.sawValue = false;
  }
}

/** Plain characters of a string scanned one at a time before the rest is searched natively (short strings stay cheap). */
const LONG_STRING_RUN = 32;

/** The index of `char` in `text` from `from` on, or the text's length when there is none. */
function indexOrEnd(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? text.length : at;
}

/** The member runs of the array or object opening at `start` and its closing bracket, a turn per SCAN_CHARS_PER_TURN characters. */
async function memberRuns(text: string, start: number, owner: object): Promise<{ runs: [number, number][]; close: number; members: number }> {
  const scanner = new MemberScanner(text, start);
  let at = scanner.scan(start + 1, start + SCAN_CHARS_PER_TURN);
  while (at < text.length) {
    await nextTurn(owner);
    at = scanner.scan(at, at + SCAN_CHARS_PER_TURN);
  }
  if (scanner.close === -1) throw new SyntaxError('Unexpected end of JSON input');
  return { runs: scanner.runs, close: scanner.close, members: scanner.members };
}

/** Sets a parsed member as JSON.parse does: an own property, `__proto__` included. */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** The value of JSON text `text[start, end)`: JSON.parse when it fits a turn, else its members a run at a time. */
async function parseSpan(text: string, start: number, end: number, owner: object): Promise<unknown> {
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  const first = text.charCodeAt(start);
  if (end - start <= JSON_CHARS_PER_TURN || (first !== OPEN_ARRAY && first !== OPEN_OBJECT)) {
    await nextTurn(owner);
    return JSON.parse(text.slice(start, end));
  }
  const { runs, close, members } = await memberRuns(text, start, owner);
  if (text.slice(close + 1, end).trim() !== '') throw new SyntaxError(`Unexpected non-whitespace character after JSON at position ${close + 1}`);
  const array = first === OPEN_ARRAY;
  // Sized once: growing a list of millions by push would copy it whole in a single turn, several times.
  const out: unknown[] | Record<string, unknown> = array ? new Array<unknown>(members) : {};
  let filled = 0;
  for (const [from, to] of runs) {
    if (to - from <= JSON_CHARS_PER_TURN) {
      // A run of members that fits one turn, parsed natively as one array or object.
      await nextTurn(owner);
      const parsed = JSON.parse(array ? `[${text.slice(from, to)}]` : `{${text.slice(from, to)}}`) as unknown[] | Record<string, unknown>;
      if (Array.isArray(out)) for (const item of parsed as unknown[]) out[filled++] = item;
      else for (const key of Object.keys(parsed)) setMember(out, key, (parsed as Record<string, unknown>)[key]);
    } else if (Array.isArray(out)) {
      out[filled++] = await parseSpan(text, from, to, owner);
    } else {
      const colon = keyEnd(text, from, to);
      setMember(out, JSON.parse(text.slice(from, colon)) as string, await parseSpan(text, colon + 1, to, owner));
    }
  }
  return out;
}

/** Index of the colon after an object member's key (a JSON string). */
function keyEnd(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== QUOTE) throw new SyntaxError(`Expected a property name at position ${i}`);
  for (i++; i < to && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
  for (i++; i < to && isSpace(text.charCodeAt(i)); i++);
  if (text.charCodeAt(i) !== COLON) throw new SyntaxError(`Expected ':' after property name at position ${i}`);
  return i;
}

/** JSON.parse of `text`, a slice per turn when it is too long for one (the same value, the same SyntaxError kind). */
export function parseJsonInTurns(text: string, owner: object): unknown | Promise<unknown> {
  if (text.length <= JSON_CHARS_PER_TURN) return JSON.parse(text);
  return parseSpan(text, 0, text.length, owner);
}

/** UTF-8 bytes decoded a slice per turn. */
export async function decodeInTurns(bytes: Buffer, owner: object): Promise<string> {
  if (bytes.length <= SCAN_CHARS_PER_TURN) return bytes.toString('utf8');
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for (let at = 0; at < bytes.length; at += SCAN_CHARS_PER_TURN) {
    if (at > 0) await nextTurn(owner);
    text += decoder.decode(bytes.subarray(at, at + SCAN_CHARS_PER_TURN), { stream: at + SCAN_CHARS_PER_TURN < bytes.length });
  }
  return text;
}

/**
 * A deep copy of a JSON value such as a parsed body (structuredClone of it), a slice per turn when
 * large: runs of members that fit JSON_NODES_PER_TURN are cloned natively, larger members entered.
 */
export async function cloneJsonInTurns<T>(value: T, owner: object, budget = { left: JSON_NODES_PER_TURN }): Promise<T> {
  const nodes = nodesOf(value, JSON_NODES_PER_TURN);
  if (nodes <= JSON_NODES_PER_TURN || value === null || typeof value !== 'object') {
    if (nodes > budget.left) await freshTurn(owner, budget);
    budget.left -= nodes;
    return structuredClone(value);
  }
  if (!Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setMember(out, key, await cloneJsonInTurns((value as Record<string, unknown>)[key], owner, budget));
    return out as T;
  }
  const out = new Array<unknown>(value.length);
  for (let i = 0; i < value.length;) {
    const run = fittingRun(value, i, budget.left);
    if (run.end > i) {
      const cloned = structuredClone(value.slice(i, run.end));
      for (let k = 0; k < cloned.length; k++) out[i + k] = cloned[k];
      budget.left -= run.nodes;
      i = run.end;
    } else if (budget.left < JSON_NODES_PER_TURN) {
      await freshTurn(owner, budget);
    } else {
      out[i] = await cloneJsonInTurns(value[i], owner, budget);
      i++;
    }
  }
  return out as T;
}
