// REST v2 has a contract and validators but no behaviour yet (issue 12): the bundled spec covers every public
// operation and documents the v2 error and rate-limit model on each; its examples validate under the generated
// restV2 validators. Mock behaviour is checked by the RESTV2-* rules (contract-tests/checks/rest-v2-*.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatIssues, validate, validateSchema } from '../src/validation/index.js';
import { createAjv } from '../scripts/generators/validators.js';
import { documentedExtensions } from '../scripts/generators/extensions.js';

type Json = Record<string, unknown>;
const root = new URL('../', import.meta.url);
const spec = JSON.parse(readFileSync(new URL('generated/rest-v2/openapi.json', root), 'utf8')) as {
  paths: Record<string, Record<string, Json>>;
  components: { responses?: Record<string, Json>; schemas: Record<string, Json> };
};

/** The committed list of the operations: `| operationId | METHOD | `path` | tag |`, their count in the heading. */
const table = readFileSync(new URL('specs/rest-v2/OPERATIONS.md', root), 'utf8');
const stated = Number(/^# REST v2 operations \((\d+):/.exec(table)?.[1]);
const expected = table
  .split('\n')
  .map((line) => /^\| (\w+) \| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| ([\w-]+) \|$/.exec(line))
  .filter((m): m is RegExpExecArray => m !== null)
  .map(([, operationId, method, path, tag]) => ({ operationId, method: method!.toLowerCase(), path, tag }));

const methods = ['get', 'put', 'post', 'patch', 'delete'];
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  methods.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Json })),
);

function resolve(node: unknown): Json {
  let current = node as Json;
  while (typeof current?.$ref === 'string') {
    const parts = (current.$ref as string).slice(2).split('/');
    current = parts.reduce<unknown>((n, p) => (n as Json)[p.replace(/~1/g, '/')], spec) as Json;
  }
  return current;
}
const responsesOf = (op: Json) => op.responses as Record<string, Json>;

describe('REST v2 spec (contract and validators)', () => {
  it('OPERATIONS.md lists as many operations as its heading states (53 public + 3 builds + 5 secrets + 6 sandboxes, at least)', () => {
    expect(stated).toBeGreaterThanOrEqual(67);
    expect(expected).toHaveLength(stated);
    expect(new Set(expected.map((e) => e.operationId)).size).toBe(stated);
  });

  it('the bundled spec has exactly these operations, at their method and path, under their tag', () => {
    const actual = operations.map(({ path, method, op }) => ({ operationId: op.operationId, method, path, tag: (op.tags as string[])[0] }));
    const byId = (a: { operationId: unknown }, b: { operationId: unknown }) => String(a.operationId).localeCompare(String(b.operationId));
    expect(actual.sort(byId)).toEqual([...expected].sort(byId));
  });

  it('every path starts with /v2 and the server is https://api.runpod.io', () => {
    expect(Object.keys(spec.paths).every((p) => p.startsWith('/v2/'))).toBe(true);
    expect((spec as unknown as { servers: { url: string }[] }).servers.map((s) => s.url)).toEqual(['https://api.runpod.io']);
  });

  it.each(operations.map((o) => [o.op.operationId as string, o] as const))(
    '%s documents 401, 403 and 429 as problem+json; 429 carries Retry-After and RateLimit',
    (_id, { op }) => {
      for (const status of ['401', '403', '429', '500']) {
        const response = resolve(responsesOf(op)[status]);
        const content = response.content as Record<string, { schema: Json }>;
        expect(Object.keys(content), status).toEqual(['application/problem+json']);
        const problem = resolve(content['application/problem+json']!.schema);
        expect(problem.required).toEqual(['title', 'status', 'detail']);
      }
      const tooMany = resolve(responsesOf(op)['429']);
      expect(Object.keys(tooMany.headers as Json)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit', 'RateLimit-Policy']));
      expect(resolve((tooMany.headers as Json)['Retry-After']).required).toBe(true);
    },
  );

  it.each(operations.map((o) => [o.op.operationId as string, o] as const))(
    '%s: every success answer documents RateLimit and RateLimit-Policy',
    (_id, { op }) => {
      const successes = Object.entries(responsesOf(op)).filter(([status]) => status.startsWith('2'));
      expect(successes.length).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        expect(Object.keys(resolve(response).headers as Json), status).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
      }
    },
  );

  it('scopes follow REST v1: read for GET, write otherwise', () => {
    for (const { method, op } of operations) {
      expect(op['x-required-scope'], String(op.operationId)).toBe(method === 'get' ? 'read' : 'write');
    }
  });

  it('405 carries Allow', () => {
    for (const { op } of operations) {
      const notAllowed = resolve(responsesOf(op)['405']);
      expect(Object.keys(notAllowed.headers as Json), String(op.operationId)).toContain('Allow');
    }
  });

  it('list operations answer a wrapped list (an object whose property is the array), never a bare array', () => {
    const lists = operations.filter(({ op }) => /^list/.test(String(op.operationId)));
    expect(lists.length).toBeGreaterThan(0);
    for (const { op } of lists) {
      const ok = resolve(responsesOf(op)['200']);
      const schema = resolve((ok.content as Record<string, { schema: Json }>)['application/json']!.schema);
      expect(schema.type, String(op.operationId)).toBe('object');
      const arrays = Object.values((schema.properties ?? {}) as Record<string, Json>).filter((p) => resolve(p).type === 'array');
      expect(arrays.length, String(op.operationId)).toBeGreaterThan(0);
    }
  });

  it('pod actions are start, stop, restart and terminate (no reset); logs are an SSE stream with bounded tail', () => {
    expect(resolve(spec.components.schemas.PodAction).enum).toEqual(['start', 'stop', 'restart', 'terminate']);
    for (const path of ['/v2/pods/{id}/logs', '/v2/serverless/{id}/workers/{workerId}/logs']) {
      const op = spec.paths[path]!.get as Json;
      expect(Object.keys(resolve(responsesOf(op)['200']).content as Json)).toEqual(['text/event-stream']);
      const params = (op.parameters as Json[]).map(resolve);
      const tail = params.find((p) => p.name === 'tail')!.schema as Json;
      expect(tail).toMatchObject({ minimum: 0, maximum: 5000, default: 100 });
      expect(params.find((p) => p.name === 'Last-Event-ID')?.in).toBe('header');
    }
  });

  it('every operation has generated validators (params, body when it takes one, every documented status)', () => {
    const v2 = validate.restV2 as Record<string, { body?: unknown; params: unknown; responses: Record<string, unknown> }>;
    expect(Object.keys(v2).sort()).toEqual(expected.map((e) => e.operationId).sort());
    for (const { op } of operations) {
      const v = v2[op.operationId as string]!;
      expect(typeof v.params).toBe('function');
      expect(Object.keys(v.responses).sort()).toEqual(Object.keys(responsesOf(op)).sort());
      for (const [status, response] of Object.entries(responsesOf(op))) {
        const types = Object.keys((resolve(response).content ?? {}) as Json);
        // JSON and problem+json answers are validated; text/event-stream and body-less answers are not.
        const json = types.some((t) => t === 'application/json' || t === 'application/problem+json');
        expect(typeof v.responses[status], `${op.operationId as string} ${status}`).toBe(json ? 'function' : 'object');
      }
    }
  });

  it('every object-level schema example validates under its own schema', () => {
    const withExample = Object.entries(spec.components.schemas).filter(([, schema]) => 'example' in schema || 'examples' in schema);
    expect(withExample.length).toBeGreaterThan(20);
    for (const [name, schema] of withExample) {
      const values = 'examples' in schema ? (schema.examples as unknown[]) : [schema.example];
      for (const value of values) {
        const issues = validateSchema('restV2', name, value);
        expect(issues, `${name}: ${formatIssues(issues)}`).toEqual([]);
      }
    }
  });

  it('every property-level example validates under its property schema (same Ajv settings as the generator)', async () => {
    const base = 'https://compute-contract.dev/test/restV2.json';
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== 'object') return node;
      return Object.fromEntries(
        Object.entries(node).map(([k, v]) => [
          k,
          k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/') ? `${base}/defs/${v.slice('#/components/schemas/'.length)}` : rewrite(v),
        ]),
      );
    };
    const ajv = createAjv(await documentedExtensions());
    for (const [name, schema] of Object.entries(spec.components.schemas)) ajv.addSchema({ ...(rewrite(schema) as Json), $id: `${base}/defs/${name}` });
    let checked = 0;
    const visit = (where: string, schema: Json, top: boolean): void => {
      // A boolean schema (`false`: the field must be absent, as in createSandbox's one-of) has no example.
      if (typeof schema !== 'object' || schema === null) return;
      if (!top && 'example' in schema) {
        const { example, ...rest } = schema;
        const check = ajv.compile(rewrite(rest) as Json);
        expect(check(example), `${where}: ${ajv.errorsText(check.errors)}`).toBe(true);
        checked++;
      }
      for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) visit(`${where}.${key}`, property, false);
      for (const key of ['allOf', 'oneOf', 'anyOf']) ((schema[key] ?? []) as Json[]).forEach((member, i) => visit(`${where}.${key}[${i}]`, member, true));
      if (schema.items) visit(`${where}[]`, schema.items as Json, false);
    };
    for (const [name, schema] of Object.entries(spec.components.schemas)) visit(name, schema, true);
    expect(checked).toBeGreaterThan(300);
  });

  it('every media-type example (shared answers and operations) validates under its schema', () => {
    const media: [string, Json][] = [];
    for (const [name, response] of Object.entries(spec.components.responses ?? {})) {
      for (const [type, m] of Object.entries((response.content ?? {}) as Record<string, Json>)) media.push([`${name} ${type}`, m]);
    }
    for (const { path, method, op } of operations) {
      const body = op.requestBody ? resolve(op.requestBody) : undefined;
      for (const [type, m] of Object.entries((body?.content ?? {}) as Record<string, Json>)) media.push([`${method} ${path} body ${type}`, m]);
      for (const [status, r] of Object.entries(responsesOf(op))) {
        if ((r as Json).$ref) continue; // shared answers are checked once above
        for (const [type, m] of Object.entries((r.content ?? {}) as Record<string, Json>)) media.push([`${method} ${path} ${status} ${type}`, m]);
      }
    }
    let checked = 0;
    for (const [where, m] of media) {
      const values = [
        ...('example' in m ? [m.example] : []),
        ...Object.values((m.examples ?? {}) as Record<string, Json>).map((e) => resolve(e).value),
      ];
      const ref = (m.schema as Json | undefined)?.$ref as string | undefined;
      if (!values.length || !ref?.startsWith('#/components/schemas/')) continue;
      for (const value of values) {
        const issues = validateSchema('restV2', ref.slice('#/components/schemas/'.length), value);
        expect(issues, `${where}: ${formatIssues(issues)}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('every component schema states its provenance', () => {
    for (const [name, schema] of Object.entries(spec.components.schemas)) {
      expect(['seed', 'observed', 'assumed'], name).toContain(schema['x-source']);
    }
  });
});
