// Requests per operation: an arbitrary of spec-valid requests (path and query parameters, body or
// GraphQL variables), and every single-point violation of one such request. Ids of resources that
// must exist are placeholders, filled in when the request is sent (see ./fixtures.ts).
import fc from 'fast-check';
import { schemaArbitrary } from './schema-arbitrary.js';
import { type Schema } from './schema.js';
import type { OperationModel } from './spec-model.js';
import { findViolations, type ViolationKind } from './violations.js';
import { placeholder, reference, type Role, type ResourceKind } from './references.js';

export type BodyMode = 'json' | 'none' | 'empty' | 'raw';

export interface RequestCase {
  op: OperationModel;
  path: Record<string, string>;
  query: Record<string, unknown>;
  /** JSON body (GraphQL: the variables); sent according to bodyMode. */
  body?: unknown;
  bodyMode: BodyMode;
  rawBody?: string;
}

export interface InvalidCase extends RequestCase {
  violation: { kind: ViolationKind; pointer: string; detail: string };
}

export interface GenerationContext {
  /** Appends a run-unique suffix to a value of an `x-unique` property. */
  unique: (value: string, maxLength?: number) => string;
  /** Loopback URL the target may call for `webhook` (omitted from requests when absent). */
  webhookUrl?: string;
  /** Keys never generated in free-form objects. */
  reservedKeys: readonly string[];
  /** The index-th of distinct valid samples of a schema (deterministic), for growing arrays past their maximum. */
  sample: (schema: Schema, op: OperationModel, index: number) => unknown;
}

/** A path segment a URL keeps as it is (not empty, not a dot segment). */
const segmentOk = (segment: string) => segment !== '' && segment !== '.' && segment !== '..';

/** How often a reference slot gets a random (most likely unknown) id instead of an existing one. */
const UNKNOWN_REFERENCE_WEIGHT = 1;
const KNOWN_REFERENCE_WEIGHT = 9;

function referenceOr(ref: { kind: ResourceKind; role: Role } | undefined, base: fc.Arbitrary<unknown>, schema: Schema): fc.Arbitrary<unknown> | undefined {
  if (!ref) return undefined;
  const id = placeholder(ref.kind, ref.role);
  const known = schema.type === 'array' ? fc.constant([id]) : fc.constant(id);
  return fc.oneof({ weight: KNOWN_REFERENCE_WEIGHT, arbitrary: known }, { weight: UNKNOWN_REFERENCE_WEIGHT, arbitrary: base });
}

export function overridesFor(op: OperationModel, ctx: GenerationContext) {
  return (name: string, schema: Schema, base: fc.Arbitrary<unknown>, at: string): fc.Arbitrary<unknown> | undefined => {
    if (name === 'webhook') return ctx.webhookUrl ? fc.constant(ctx.webhookUrl) : fc.constant(undefined);
    const ref = referenceOr(reference(op, 'body', name, at), base, schema);
    if (ref) return ref;
    if (schema['x-unique'] && (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string')))) {
      return base.map((v) => (typeof v === 'string' ? ctx.unique(v, schema.maxLength) : v));
    }
    return undefined;
  };
}

export function validCaseArbitrary(op: OperationModel, ctx: GenerationContext): fc.Arbitrary<RequestCase> {
  const options = { resolve: op.resolve, override: overridesFor(op, ctx), reservedKeys: ctx.reservedKeys };
  const pathModel: Record<string, fc.Arbitrary<string>> = {};
  const queryModel: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredQuery: string[] = [];
  for (const p of op.params) {
    const base = schemaArbitrary(p.schema, options);
    if (p.in === 'path') {
      // '', '.', '..' and slashes name another route once a URL is normalised: not a value of this parameter.
      const safe = (base as fc.Arbitrary<string>).filter((v) => (p.multiSegment ? v.split('/') : [v]).every(segmentOk) && (p.multiSegment || !v.includes('/')));
      pathModel[p.name] = (referenceOr(reference(op, 'path', p.name), safe, p.schema) ?? safe) as fc.Arbitrary<string>;
    } else {
      queryModel[p.name] = base;
      if (p.required) requiredQuery.push(p.name);
    }
  }
  const body = bodyArbitrary(op, options);
  const exclusive = EXCLUSIVE_PROPERTIES[`${op.surface}:${op.operationId}`];
  return fc.record({
    path: fc.record(pathModel),
    query: fc.record(queryModel, { requiredKeys: requiredQuery }),
    body,
    keep: fc.nat(15),
  }).map(({ path, query, body: b, keep }) => ({ op, path, query, ...(exclusive ? mostlyOneOf(b, exclusive, keep) : b) }));
}

/**
 * Pairs of properties (dotted paths) a rule stated in prose wants at most one of: RESTV2-POD-002 and
 * RESTV2-ENDPOINT-002 (gpu or cpu; allowed CUDA versions or a minimum), RESTV2-POD-002/006 (a persistent or a network mount; no persistent
 * mount on a CPU pod). A spec-valid body may carry both, and the rule then refuses it (allow-listed);
 * most draws keep one, so the operation's success path is exercised as often as its refusal.
 */
const MOUNTS: [string, string] = ['mounts.persistent', 'mounts.network'];
const EXCLUSIVE_PROPERTIES: Record<string, readonly (readonly [string, string])[]> = {
  'restV2:createPod': [['gpu', 'cpu'], MOUNTS, ['cpu', 'mounts.persistent']],
  'restV2:updatePod': [MOUNTS],
  'restV2:createCluster': [MOUNTS],
  'restV2:createEndpoint': [['gpu', 'cpu'], ['gpu.allowedCudaVersions', 'gpu.minCudaVersion']],
  'restV2:updateEndpoint': [['gpu', 'cpu'], ['gpu.allowedCudaVersions', 'gpu.minCudaVersion']],
};

function mostlyOneOf(b: { body?: unknown; bodyMode: BodyMode }, pairs: readonly (readonly [string, string])[], keep: number): { body?: unknown; bodyMode: BodyMode } {
  if (keep === 0 || !b.body || typeof b.body !== 'object' || Array.isArray(b.body)) return b;
  let body = b.body as Record<string, unknown>;
  for (const [i, pair] of pairs.entries()) {
    if (pair.every((path) => valueAt(body, path) !== undefined)) body = without(body, pair[(keep >> i) % 2]!.split('.'));
  }
  return { ...b, body };
}

function valueAt(body: Record<string, unknown>, path: string): unknown {
  let node: unknown = body;
  for (const key of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/** A copy of `node` without the property at `path` (an emptied parent object stays, `{}`). */
function without(node: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  const { [head!]: child, ...others } = node;
  if (rest.length === 0) return others;
  return { ...others, [head!]: without(child as Record<string, unknown>, rest) };
}

function bodyArbitrary(op: OperationModel, options: Parameters<typeof schemaArbitrary>[1]): fc.Arbitrary<{ body?: unknown; bodyMode: BodyMode }> {
  if (!op.body) return fc.constant({ bodyMode: 'none' as const });
  const json = schemaArbitrary(op.body.schema, options).map((body) => ({ body, bodyMode: 'json' as const }));
  if (op.body.required) return json;
  // Optional body: no body, an empty body and a generated one (e.g. {}) are all valid.
  return fc.oneof(fc.constant({ bodyMode: 'none' as const }), fc.constant({ bodyMode: 'empty' as const }), json);
}

/** Every single-point violation of a valid request, each naming the JSON path it breaks. */
export function violationsOf(c: RequestCase, ctx: GenerationContext): InvalidCase[] {
  return violationMakers(c, ctx).map((v) => v.make());
}

/** A single-point violation of a request, and how to make the request that carries it. */
export interface ViolationMaker {
  violation: InvalidCase['violation'];
  make: () => InvalidCase;
}

/**
 * The violations of a request, each with a function making it: they are counted without being made, and a
 * run picks one (`pickViolation`), so the copies of the request the others need are not made.
 */
export function violationMakers(c: RequestCase, ctx: GenerationContext): ViolationMaker[] {
  const out: ViolationMaker[] = [];
  const add = (violation: InvalidCase['violation'], make: (violation: InvalidCase['violation']) => InvalidCase) => out.push({ violation, make: () => make(violation) });
  const sample = (schema: Schema, index: number) => ctx.sample(schema, c.op, index);
  const bodyRoot = c.op.surface === 'graphql' ? '/variables' : '/body';
  for (const p of c.op.params) {
    const value = p.in === 'path' ? c.path[p.name] : c.query[p.name];
    const at = `/${p.in}/${p.name}`;
    if (value === undefined) continue;
    if (p.in === 'query' && p.required) {
      add({ kind: 'missing-required', pointer: at, detail: `required query parameter ${p.name} left out` }, (violation) => {
        const { [p.name]: _, ...rest } = c.query;
        return { ...c, query: rest, violation };
      });
    }
    for (const v of findViolations(value, p.schema, { resolve: c.op.resolve, sample, asString: true })) {
      const violation = { kind: v.kind, pointer: `${at}${v.pointer}`, detail: v.detail };
      if (p.in === 'path') {
        const text = String(v.value);
        // An empty, dot or slash-carrying segment names another route; not a violation of this parameter.
        if (!(p.multiSegment ? text.split('/') : [text]).every(segmentOk) || (!p.multiSegment && text.includes('/'))) continue;
        add(violation, () => ({ ...c, path: { ...c.path, [p.name]: text }, violation }));
      } else {
        add(violation, () => ({ ...c, query: { ...c.query, [p.name]: v.value }, violation }));
      }
    }
  }
  if (!c.op.body) return out;
  if (c.bodyMode === 'json') {
    for (const v of findViolations(c.body, c.op.body.schema, { resolve: c.op.resolve, sample })) {
      const violation = { kind: v.kind, pointer: `${bodyRoot}${v.pointer}`, detail: v.detail };
      add(violation, () => ({ ...c, body: v.value, violation }));
    }
  }
  if (c.op.body.required && c.op.surface !== 'graphql') {
    add({ kind: 'missing-body', pointer: '/body', detail: 'required body left out' }, (violation) => ({ ...c, body: undefined, bodyMode: 'none', violation }));
  }
  add({ kind: 'malformed-json', pointer: '/body', detail: 'body truncated: not JSON' }, (violation) => {
    const sent = c.op.surface === 'graphql' ? graphqlEnvelope(c.op, c.body) : c.bodyMode === 'json' ? c.body : {};
    const text = JSON.stringify(sent) ?? '';
    const malformed = text.length > 1 ? text.slice(0, -1) : '{"';
    return { ...c, rawBody: malformed, bodyMode: 'raw', violation };
  });
  return out;
}

/**
 * An arbitrary of invalid requests: a valid one and the index of the violation to apply. The
 * violations are enumerated once the placeholders are resolved (`pickViolation`), so a broken id
 * is a real id broken, not a placeholder.
 */
export function invalidSeedArbitrary(op: OperationModel, ctx: GenerationContext, valid = validCaseArbitrary(op, ctx)): fc.Arbitrary<{ base: RequestCase; choice: number }> {
  return fc.tuple(valid, fc.nat()).map(([base, choice]) => ({ base, choice }));
}

export function pickViolation(resolved: RequestCase, choice: number, ctx: GenerationContext): InvalidCase | undefined {
  const all = violationMakers(resolved, ctx);
  return all.length === 0 ? undefined : all[choice % all.length]!.make();
}

/** The HTTP body of a GraphQL request: the operation's document, its name and the variables. */
export function graphqlEnvelope(op: OperationModel, variables: unknown): { query: string; operationName: string; variables: unknown } {
  if (!op.graphql) throw new Error(`${op.operationId} is not a GraphQL operation`);
  return { query: op.graphql.document, operationName: op.graphql.operationName, variables };
}
