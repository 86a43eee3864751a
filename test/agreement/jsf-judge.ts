// Shared by the independent-judge tests: operations of an OpenAPI document with every local $ref
// inlined (so json-schema-faker, which nobody here wrote, needs no resolver of ours), a seeded random
// source, how a request is sent and its answer read, and what counts as a schema refusal (the mock
// refusing what its validators found invalid).
import { readFileSync } from 'node:fs';

export type Json = Record<string, unknown>;

export interface Operation {
  operationId: string;
  method: string;
  /** As in the document (REST v2: with /v2). */
  path: string;
  params: Json[];
  body?: unknown;
  statuses: number[];
}

export const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;

/** `node` with every local $ref of `doc` inlined. */
export function inline(doc: Json, node: unknown, depth = 0): unknown {
  if (depth > 40) throw new Error('schema nesting too deep');
  if (Array.isArray(node)) return node.map((n) => inline(doc, n, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Json;
  if (typeof $ref === 'string') {
    let target: unknown = doc;
    for (const key of $ref.slice(2).split('/')) target = (target as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
    return inline(doc, { ...(target as Json), ...rest }, depth + 1);
  }
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(doc, v, depth + 1)]));
}

export const operationsOf = (doc: Json): Operation[] => Object.entries(doc['paths'] as Record<string, Json>).flatMap(([path, item]) =>
  Object.entries(item).filter(([, op]) => (op as Json)['operationId']).map(([method, raw]) => {
    const op = inline(doc, raw) as Json;
    const body = ((op['requestBody'] as Json | undefined)?.['content'] as Record<string, Json> | undefined)?.['application/json']?.['schema'];
    return {
      operationId: String(op['operationId']), method: method.toUpperCase(), path, body,
      params: ((op['parameters'] as Json[] | undefined) ?? []).filter((p) => p['in'] === 'query' || p['in'] === 'path'),
      statuses: Object.keys(op['responses'] as Json).map(Number),
    };
  }));

export interface SentAnswer {
  status: number;
  body: unknown;
  type: string;
}

/** Most a judged request may take (nothing here holds longer; runsync ends with its 50 ms job). */
const REQUEST_TIMEOUT_MS = 10_000;

/** Sends a request with the Bearer key; a Server-Sent Events answer is judged on status and type only. */
export async function send(key: string, method: string, url: string, body?: unknown): Promise<SentAnswer> {
  const res = await fetch(url, {
    method, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  // A log stream follows new lines for a while: its status and headers are the answer.
  if (type.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: undefined, type };
  }
  const text = await res.text();
  return { status: res.status, body: text && type.includes('json') ? JSON.parse(text) : undefined, type };
}

/** Deterministic: a run reproduces. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32);
}
