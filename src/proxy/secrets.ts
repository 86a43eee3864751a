// Secrets the client sent (API key, registry passwords, secret values, s3 accessSecret), learned from
// requests and searched for in every answer — body streamed end to end and headers — and redacted from
// every report. The book is bounded: the newest MAX_SECRETS values are kept.
import { Kind, parse, type ObjectValueNode, type ValueNode } from 'graphql';
import { secretFieldNames } from './spec-facts.js';

/** Secrets kept per proxy session or traffic file; the oldest is forgotten beyond this. */
export const MAX_SECRETS = 256;
/** Shorter values would match ordinary text (ids, words); they are neither searched nor redacted. */
export const MIN_SECRET_LENGTH = 8;

export type SecretKind = 'API key' | 'registry password' | 's3 accessSecret' | 'secret value' | string;

/** A secret found in an answer: what it was and where (body or a header). */
export interface Leak {
  kind: SecretKind;
  where: 'body' | { header: string };
}

/** REST v2 createSecret/updateSecret `value` (x-secret) is the same kind as GraphQL secretCreate's. */
const KIND_OF_FIELD: Record<string, SecretKind> = { password: 'registry password', accessSecret: 's3 accessSecret', value: 'secret value' };

interface Needle { text: string; bytes: Buffer; kind: SecretKind }

export class SecretBook {
  private readonly values = new Map<string, SecretKind>();
  private needleCache: Needle[] | undefined;
  private kindCache: SecretKind[] | undefined;
  private longest = 0;

  /** The value added last with its kind: the API key comes with every request and is then already the newest. */
  private newest: { value: string; kind: SecretKind } | undefined;

  add(value: unknown, kind: SecretKind): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
    if (this.newest !== undefined && this.newest.value === value && this.newest.kind === kind) return;
    this.newest = { value, kind };
    const known = this.values.get(value) === kind;
    // Re-inserting keeps a secret in use (the API key) newest, so it is the last one forgotten.
    this.values.delete(value);
    this.values.set(value, kind);
    if (known) return;
    if (this.values.size > MAX_SECRETS) this.values.delete(this.values.keys().next().value!);
    this.needleCache = undefined;
    this.kindCache = undefined;
  }

  /** The kinds of secret known so far (each is searched for in every answer). */
  kinds(): readonly SecretKind[] {
    return (this.kindCache ??= [...new Set(this.values.values())]);
  }

  /** Values of one kind, so the judge can name where a leaked secret sits. */
  valuesOf(kind: SecretKind): string[] {
    return [...this.values].filter(([, k]) => k === kind).map(([v]) => v);
  }

  get size(): number {
    return this.values.size;
  }

  /** Each secret as sent and as it reads inside a JSON string (quotes, backslashes, control characters escaped). */
  needles(): readonly Needle[] {
    if (this.needleCache) return this.needleCache;
    const list: Needle[] = [];
    for (const [value, kind] of this.values) {
      list.push({ text: value, bytes: Buffer.from(value), kind });
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) list.push({ text: escaped, bytes: Buffer.from(escaped), kind });
    }
    this.longest = list.reduce((m, n) => Math.max(m, n.bytes.length), 0);
    return (this.needleCache = list);
  }

  longestNeedle(): number {
    this.needles();
    return this.longest;
  }

  /** Kinds of the secrets in a text (a header value, a captured body). */
  find(text: string | Buffer): SecretKind[] {
    const kinds: SecretKind[] = [];
    for (const needle of this.needles()) {
      if (!kinds.includes(needle.kind) && (typeof text === 'string' ? text.includes(needle.text) : text.includes(needle.bytes))) kinds.push(needle.kind);
    }
    return kinds;
  }

  /** Every known secret replaced by "[redacted <kind>]"; nothing else changes. */
  redact(text: string): string {
    let out = text;
    const byLength = [...this.values].sort((a, b) => b[0].length - a[0].length);
    for (const [value, kind] of byLength) {
      for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) if (out.includes(form)) out = out.split(form).join(`[redacted ${kind}]`);
    }
    return out;
  }

  /** Learns the secrets of one request: bearer key, ?api_key=, x-secret body fields, secretCreate values. */
  learnRequest(headers: Record<string, string>, searchParams: URLSearchParams, body: unknown): void {
    const authorization = headers['authorization']?.trim();
    if (authorization) this.add(this.keyOf(authorization), 'API key');
    for (const key of searchParams.getAll('api_key')) this.add(key, 'API key');
    if (body !== undefined) this.learnBody(body, secretFieldNames(), 0);
    const graphql = body as { query?: unknown; variables?: unknown } | undefined;
    if (graphql && typeof graphql.query === 'string') this.learnGraphql(graphql.query, graphql.variables);
  }

  /** The last Authorization value and its key: a client sends the same one with every request. */
  private lastAuthorization: { header: string; key: string } | undefined;

  private keyOf(authorization: string): string {
    if (this.lastAuthorization?.header === authorization) return this.lastAuthorization.key;
    const key = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim() ?? authorization;
    this.lastAuthorization = { header: authorization, key };
    return key;
  }

  private learnBody(node: unknown, fields: ReadonlySet<string>, depth: number): void {
    if (!node || typeof node !== 'object' || depth > 32) return;
    for (const [key, value] of Object.entries(node)) {
      // `value` is x-secret only as the top-level field of createSecret/updateSecret; nested, it is an env
      // pair's {key, value} (GraphQL saveEndpoint's template env), not a secret. secretCreate: learnGraphql.
      if (typeof value === 'string' && fields.has(key) && (key !== 'value' || depth === 0)) this.add(value, KIND_OF_FIELD[key] ?? key);
      else this.learnBody(value, fields, depth + 1);
    }
  }

  /** secretCreate(input: {value: …}): the value may be inline, a variable, or inside a variable object. */
  private learnGraphql(query: string, variables: unknown): void {
    let document;
    try {
      document = parse(query, { maxTokens: 10_000 });
    } catch {
      return;
    }
    const vars = (variables && typeof variables === 'object' ? variables : {}) as Record<string, unknown>;
    const valueOf = (node: ValueNode | undefined): unknown => (node?.kind === Kind.VARIABLE ? vars[node.name.value] : node?.kind === Kind.STRING ? node.value : undefined);
    const visitSelections = (selections: readonly any[], depth: number): void => {
      if (depth > 32) return;
      for (const selection of selections) {
        if (selection.kind === Kind.FIELD && selection.name.value === 'secretCreate') {
          const input = selection.arguments?.find((a: { name: { value: string } }) => a.name.value === 'input')?.value as ValueNode | undefined;
          if (input?.kind === Kind.OBJECT) this.add(valueOf((input as ObjectValueNode).fields.find((f) => f.name.value === 'value')?.value), 'secret value');
          else this.add((valueOf(input) as { value?: unknown } | undefined)?.value, 'secret value');
        }
        if (selection.selectionSet) visitSelections(selection.selectionSet.selections, depth + 1);
      }
    };
    for (const definition of document.definitions) if ('selectionSet' in definition && definition.selectionSet) visitSelections(definition.selectionSet.selections, 0);
  }
}

/**
 * Searches a body chunk by chunk without keeping it: the tail of the previous chunk (one byte short of
 * the longest secret) is searched again with the next, so a secret split across chunks is found.
 */
export class StreamScanner {
  /** The previous chunk as given (chunks are not reused once emitted): its tail is copied only if another chunk follows. */
  private previous: Buffer | undefined;
  readonly found = new Set<SecretKind>();

  constructor(private readonly book: SecretBook) {}

  feed(chunk: Buffer): void {
    const needles = this.book.needles();
    if (needles.length === 0) return;
    const keep = this.book.longestNeedle() - 1;
    const previous = this.previous;
    const hay = previous && keep > 0 ? Buffer.concat([previous.subarray(Math.max(0, previous.length - keep)), chunk]) : chunk;
    for (const needle of needles) if (!this.found.has(needle.kind) && hay.includes(needle.bytes)) this.found.add(needle.kind);
    this.previous = hay;
  }

  leaks(): Leak[] {
    const leaks: Leak[] = [];
    for (const kind of this.found) leaks.push({ kind, where: 'body' });
    return leaks;
  }
}

/** Secrets in answer headers (a key echoed in a header is as bad as in the body). */
export function headerLeaks(book: SecretBook, headers: Record<string, string>): Leak[] {
  const leaks: Leak[] = [];
  for (const [name, value] of Object.entries(headers)) for (const kind of book.find(value)) leaks.push({ kind, where: { header: name } });
  return leaks;
}

/** The JSON Pointer of the first string in `node` containing `needle`, for messages. */
export function pointerOf(node: unknown, needle: string, at = '', depth = 0): string | undefined {
  if (typeof node === 'string') return node.includes(needle) ? at || '/' : undefined;
  if (node && typeof node === 'object' && depth < 64) {
    for (const [k, v] of Object.entries(node)) {
      const hit = pointerOf(v, needle, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
      if (hit) return hit;
    }
  }
  return undefined;
}
