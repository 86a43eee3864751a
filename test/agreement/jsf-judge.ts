// Shared by the independent-judge tests: operations of an OpenAPI document with every local $ref
// inlined (so json-schema-faker, which nobody here wrote, needs no resolver of ours), a seeded random
// source, how a request is sent and its answer read, and what counts as a schema refusal (the mock
// refusing what its validators found invalid).
import { readFileSync } from 'node:fs';
import { exchange } from '../../src/contract/exchange.js';

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
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Sends a request with the Bearer key; a Server-Sent Events answer is judged on status and type only. */
export async function send(key: string, method: string, url: string, body?: unknown): Promise<SentAnswer> {
  // node:http through the package's exchange (a few hundred requests per file; fetch costs more per request).
  const res = await exchange({
    method, url, timeoutMs: REQUEST_TIMEOUT_MS, maxBytes: MAX_ANSWER_BYTES,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    // A log stream follows new lines for a while: its status and headers are the answer.
    prefixOf: { contentType: 'text/event-stream', ms: 0, enough: () => true },
  });
  const type = res.headers.get('content-type') ?? '';
  if (res.partial) return { status: res.status, body: undefined, type };
  return { status: res.status, body: res.text && type.includes('json') ? JSON.parse(res.text) : undefined, type };
}

/** Deterministic: a run reproduces. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32);
}
