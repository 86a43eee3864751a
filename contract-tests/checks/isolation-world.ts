// The shared run of the ISOLATION-* rules: account A (the suite's key) sets up one object of every kind
// (the agreement phase's fixtures, made through REST v1 when given, else REST v2; REST v2's own; jobs on
// a queue endpoint), then account B (the second key) sends, for EVERY operation of the given surfaces'
// operation tables that names an object (path, body, or the queue endpoint itself), one spec-valid request naming A's objects — and the same request naming
// ids that never existed. A reads its objects before and after. Nothing here names an operation: a new
// operation in the specs is covered without a new check. The rules judge this one run (isolation.ts).
import fc from 'fast-check';
import { Fixtures } from '../../src/agreement/fixtures.js';
import { loadGraphqlOperations } from '../../src/agreement/graphql-model.js';
import { namesUnknownReference, parsePlaceholder, type ResourceKind } from '../../src/agreement/references.js';
import { validCaseArbitrary, type GenerationContext, type RequestCase } from '../../src/agreement/requests.js';
import { operationSeed, surfaceGiven } from '../../src/agreement/runner.js';
import { schemaArbitrary } from '../../src/agreement/schema-arbitrary.js';
import type { Schema } from '../../src/agreement/schema.js';
import { loadOpenApiOperations, type OperationModel } from '../../src/agreement/spec-model.js';
import { Transport, type AgreementTarget, type Answer } from '../../src/agreement/transport.js';
import type { Ctx } from '../../src/conform/context.js';
import { CheckFailure } from '../../src/conform/http.js';
import { graphqlProbes } from './isolation-graphql.js';
import { inPool, PROBES_AT_ONCE, stable, twinOf, type Probe, type ProbeKind } from './isolation-probe.js';

export type { Probe, ProbeKind } from './isolation-probe.js';



export interface ListProbe {
  label: string;
  answer: Answer | string;
  /** The id of A's B filtered by (an answer may echo B's own filter back: that is no leak). */
  filter?: string;
}

export interface World {
  probes: Probe[];
  lists: ListProbe[];
  /** Every id of A's objects (fixtures and jobs): none may show up in B's answers. */
  ownerIds: Set<string>;
  /** A's queue read back differently after B's queue requests (job counts, job statuses). */
  queueChanged?: string;
  /** Part of every name A's objects carry (`-<run tag>-`): no name of A's may show up in B's answers either. */
  nameMark: string;
}

/** Catalogue entries are public: they name nobody's object. */
const PUBLIC_KINDS: ReadonlySet<ResourceKind> = new Set(['gpuType', 'gpuTypeSpare', 'gpuPool', 'cpuType', 'dataCenter', 'cudaVersion']);
/** Query parameters that filter a list by one of the caller's objects, and the kind they name. */
const QUERY_FILTERS: Record<string, ResourceKind> = { podId: 'pod', endpointId: 'endpoint', templateId: 'template', networkVolumeId: 'networkVolume' };
const SAMPLES_PER_OPERATION = 24;
/** The request chosen per operation: generation is deterministic, so it is drawn once per process (every --prove run reuses it). */
const chosen = new Map<string, { c: RequestCase; kind: ProbeKind } | null>();
const worlds = new WeakMap<object, Promise<World>>();

/** One run per target (a --prove run per fault has its own target), started by the first rule that asks. */
export function isolationWorld(ctx: Ctx): Promise<World> {
  let pending = worlds.get(ctx.target);
  if (!pending) {
    pending = build(ctx);
    worlds.set(ctx.target, pending);
  }
  return pending;
}

function agreementTarget(ctx: Ctx, apiKey: string): AgreementTarget {
  const t = ctx.target;
  return {
    queueUrl: ctx.baseUrl('queueV2'), apiKey, ...(t.controlUrl ? { controlUrl: t.controlUrl } : {}), ...(t.controlToken ? { controlToken: t.controlToken } : {}),
    // REST v1 only when given and working (a retired one answers 410: the preflight says so, REST v2 stands in).
    ...(ctx.restSurface() === 'restV1' ? { restUrl: ctx.baseUrl('restV1') } : {}),
    ...(t.graphqlUrl !== undefined ? { graphqlUrl: t.graphqlUrl } : {}),
    ...(t.restV2Url !== undefined ? { restV2Url: t.restV2Url } : {}),
  };
}

/** Every operation of the surfaces the target gives. */
function operationsOf(target: AgreementTarget): OperationModel[] {
  const all = [...loadOpenApiOperations('restV1'), ...loadOpenApiOperations('queueV2'), ...loadOpenApiOperations('restV2'), ...loadGraphqlOperations()];
  return all.filter((op) => surfaceGiven(target, op.surface));
}

async function build(ctx: Ctx): Promise<World> {
  const second = ctx.target.secondApiKey;
  if (!second) throw new CheckFailure('no second API key');
  const owner = new Transport(agreementTarget(ctx, ctx.target.apiKey));
  const other = new Transport(agreementTarget(ctx, second));
  const fixtures = new Fixtures(owner, { workerImage: ctx.target.workerImage, secret: (v) => ctx.http.secrets.add(v, 'isolation fixture secret') });
  const world: World = { probes: [], lists: [], ownerIds: new Set(), nameMark: `-${fixtures.tag}-` };
  try {
    await fixtures.setup();
    const gen = generationContext(fixtures.tag);
    const ops = operationsOf(owner.target);
    // A few operations at a time: each probe's own steps stay in order (A's read, B's request, A's read, B's absent twin).
    const queueBefore = await queueView(fixtures, owner);
    const found = await inPool(ops, PROBES_AT_ONCE, (op) => probeOperation(op, gen, fixtures, owner, other, world.ownerIds));
    world.probes.push(...found.filter((p): p is Probe => p !== undefined));
    const queueAfter = await queueView(fixtures, owner);
    if (queueAfter !== queueBefore) world.queueChanged = `A's queue read ${queueBefore} before B's requests, ${queueAfter} after`;
    if (ctx.target.graphqlUrl) world.probes.push(...(await graphqlProbes(fixtures, owner, other, world.ownerIds)));
    for (const id of fixtures.jobs) world.ownerIds.add(id);
    world.lists = await listProbes(ops, fixtures, other, world.ownerIds);
    if (ctx.target.graphqlUrl) {
      const myself = await other.graphql('query { myself { id pubKey networkVolumes { id name } pods { id name } endpoints { id name } } }', {}).catch((e: Error) => e.message);
      world.lists.push({ label: 'graphql myself', answer: myself });
    }
  } finally {
    const left = await fixtures.cleanup().catch((e: Error) => [`cleanup failed: ${e.message}`]);
    for (const entry of left) if (entry.startsWith('template ')) await ctx.deleteTemplateEventually(entry.slice('template '.length));
  }
  return world;
}

/** A generation context like the agreement phase's (names unique to this run). */
function generationContext(tag: string): GenerationContext {
  let n = 0;
  const samples = new Map<Schema, unknown[]>();
  return {
    reservedKeys: ['mock'],
    unique: (value, maxLength) => {
      const suffix = `-iso${tag}${(++n).toString(36)}`;
      return `${[...value].slice(0, Math.max(0, (maxLength ?? Infinity) - suffix.length)).join('')}${suffix}`;
    },
    sample: (schema, op, index) => {
      let list = samples.get(schema);
      if (!list || list.length <= index) {
        list = fc.sample(schemaArbitrary(schema, { resolve: op.resolve, reservedKeys: ['mock'] }), { seed: 1, numRuns: 2 * (index + 8) });
        samples.set(schema, list);
      }
      return list[index % list.length];
    },
  };
}

/** The owner's references a generated request holds (path first), public catalogue entries left out. */
function ownerReferences(c: RequestCase): { inPath: boolean; inBody: boolean } {
  const named = (v: unknown) => {
    const ref = parsePlaceholder(v);
    return ref !== undefined && !PUBLIC_KINDS.has(ref.kind);
  };
  let inBody = false;
  const walk = (node: unknown): void => {
    if (inBody) return;
    if (named(node)) inBody = true;
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(c.body);
  return { inPath: Object.values(c.path).some(named), inBody };
}

function kindOf(op: OperationModel, refs: { inPath: boolean; inBody: boolean }): ProbeKind | undefined {
  if (op.surface === 'queueV2') return 'job';
  if (refs.inPath) return op.method === 'GET' ? 'read' : 'write';
  if (op.surface === 'graphql' && refs.inBody) return op.graphql?.document.trimStart().startsWith('query') ? 'read' : op.operationId === 'saveTemplate' ? 'write' : 'write';
  return refs.inBody ? 'ref' : undefined;
}

/** One spec-valid request of `op` that names only existing objects of A (none: the operation names no object). */
function requestFor(op: OperationModel, gen: GenerationContext): { c: RequestCase; kind: ProbeKind } | undefined {
  const key = `${op.surface}:${op.operationId}`;
  if (!chosen.has(key)) chosen.set(key, draw(op, gen) ?? null);
  return chosen.get(key) ?? undefined;
}

function draw(op: OperationModel, gen: GenerationContext): { c: RequestCase; kind: ProbeKind } | undefined {
  // Nothing to name: no path parameter, no body, not a queue operation (its endpoint is one of A's).
  if (op.surface !== 'queueV2' && !op.params.some((p) => p.in === 'path') && !op.body) return undefined;
  // A few draws usually hold one naming only A's objects (9 in 10 reference slots do); more only when not.
  for (const runs of [1, 4, SAMPLES_PER_OPERATION]) {
    const found = pick(op, fc.sample(validCaseArbitrary(op, gen), { seed: operationSeed(20_270_027, op, 'valid'), numRuns: runs }));
    if (found) return found;
  }
  return undefined;
}

function pick(op: OperationModel, cases: readonly RequestCase[]): { c: RequestCase; kind: ProbeKind } | undefined {
  let fallback: { c: RequestCase; kind: ProbeKind } | undefined;
  for (const c of cases) {
    if (namesUnknownReference(op, c.path, c.body)) continue;
    const kind = kindOf(op, ownerReferences(c));
    if (!kind) continue;
    // Prefer a request without a webhook or a long hold: B's refused request must not wait.
    const body = c.body as Record<string, unknown> | undefined;
    if (op.surface === 'queueV2' && (body?.['webhook'] !== undefined || Number(c.query['wait'] ?? 0) > 1_000)) {
      fallback ??= { c, kind };
      continue;
    }
    return { c, kind };
  }
  return fallback;
}


function replaceAll<T>(value: T, twins: readonly [string, string][]): T {
  let text = JSON.stringify(value);
  if (text === undefined) return value;
  for (const [from, to] of twins) text = text.split(from).join(to);
  return JSON.parse(text) as T;
}

/** The placeholders' owner ids, found by walking the generated case next to its resolved one. */
function substituted(generated: unknown, resolved: unknown, out: Set<string>): void {
  const ref = parsePlaceholder(generated);
  if (ref) {
    if (!PUBLIC_KINDS.has(ref.kind)) for (const v of Array.isArray(resolved) ? resolved : [resolved]) if (typeof v === 'string') out.add(v);
    return;
  }
  if (Array.isArray(generated) && Array.isArray(resolved)) generated.forEach((g, i) => substituted(g, resolved[i], out));
  else if (generated && typeof generated === 'object' && resolved && typeof resolved === 'object') {
    for (const [k, g] of Object.entries(generated)) substituted(g, (resolved as Record<string, unknown>)[k], out);
  }
}

async function send(t: Transport, c: RequestCase, endpointId: string | undefined): Promise<Answer | string> {
  const outcome = await t.send(c, endpointId);
  return outcome.kind === 'answer' ? outcome.answer : outcome.message;
}

async function probeOperation(op: OperationModel, gen: GenerationContext, fixtures: Fixtures, owner: Transport, other: Transport, ownerIds: Set<string>): Promise<Probe | undefined> {
  const picked = requestFor(op, gen);
  if (!picked) return undefined;
  const { c: generated, kind } = picked;
  const c = await fixtures.resolve(generated);
  const ids = new Set<string>();
  substituted({ path: generated.path, body: generated.body }, { path: c.path, body: c.body }, ids);
  const endpointId = fixtures.endpointFor(c, 'valid');
  if (endpointId) ids.add(endpointId);
  if (typeof c.path['jobId'] === 'string') ids.add(c.path['jobId']);
  for (const id of ids) ownerIds.add(id);
  const twins = [...ids].map((id) => [id, twinOf(id)] as [string, string]);
  const read = ownerRead(op, c, owner);
  const before = await read();
  const foreign = await send(other, c, endpointId);
  const after = await read();
  const absentCase = replaceAll(c, twins);
  absentCase.op = op;
  const absent = await send(other, absentCase, endpointId === undefined ? undefined : replaceAll(endpointId, twins));
  // A refused request stored nothing; one B should never have got through is cleaned up by A's fixtures (and here).
  if (typeof foreign !== 'string' && foreign.status >= 200 && foreign.status < 300) fixtures.record(c, foreign);
  const probe: Probe = {
    kind, surface: op.surface, operationId: op.operationId, label: `${op.surface} ${op.method} ${op.path}`, foreign, absent, twins,
    ...(op.graphql ? { rootField: op.graphql.rootField } : {}),
  };
  if (before !== undefined && after !== before) probe.changed = `A's ${before.slice(0, 60)}… read back as ${after === undefined ? 'nothing' : `${after.slice(0, 60)}…`}`;
  return probe;
}

/** A's view of what B's request could change: the object in the path, or the queue endpoint's jobs. */
/** A's queue as A sees it: the endpoint's job counts and each of A's jobs' status. */
export async function queueView(fixtures: Fixtures, owner: Transport): Promise<string> {
  const endpointId = fixtures.endpoints.queue;
  const health = await owner.queue(endpointId, 'GET', '/health');
  const jobs = await Promise.all(fixtures.jobs.map((id) => owner.queue(endpointId, 'GET', `/status/${encodeURIComponent(id)}`)));
  return `health ${health.status} ${JSON.stringify((health.body as { jobs?: unknown })?.jobs)}; jobs ${jobs.map((j) => `${j.status}:${String((j.body as { status?: unknown })?.status)}`).join(',')}`;
}

function ownerRead(op: OperationModel, c: RequestCase, owner: Transport): () => Promise<string | undefined> {
  // Queue operations: A's queue is read once before and once after all of B's requests (World.queueChanged).
  if (op.surface === 'graphql' || op.surface === 'queueV2' || op.method === 'GET') return async () => undefined;
  const param = /\{(\w+)\}/.exec(op.path);
  if (!param) return async () => undefined;
  const objectPath = op.path.slice(0, (param.index ?? 0) + param[0].length).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(c.path[name] ?? ''));
  const get = (p: string) => (op.surface === 'restV2' ? owner.restV2('GET', p) : owner.rest('GET', p));
  // REST v2 delegations have no single read: the list shows whether A's delegation is still there.
  const delegation = op.surface === 'restV2' && op.path.startsWith('/registries/delegations/');
  return async () => {
    if (delegation) {
      const list = await get('/registries/delegations');
      return list.text.includes(c.path['id'] ?? '\u0000') ? 'listed' : 'not listed';
    }
    const answer = await get(objectPath);
    return `${answer.status} ${stable(answer.body)}`;
  };
}


/** B's lists: every list operation, plain and filtered by each of A's objects it can be filtered by. */
async function listProbes(ops: readonly OperationModel[], fixtures: Fixtures, other: Transport, ownerIds: ReadonlySet<string>): Promise<ListProbe[]> {
  const out: ListProbe[] = [];
  const someOwnerId = (kind: ResourceKind) => fixtures.resolve({ op: ops[0]!, path: { id: `\u0001ref:${kind}:fixture\u0001` }, query: {}, bodyMode: 'none' }).then((c) => c.path['id']!);
  for (const op of ops) {
    if (op.surface === 'graphql' || op.surface === 'queueV2' || op.method !== 'GET' || op.path.includes('{') || op.path.startsWith('/catalog')) continue;
    const base: RequestCase = { op, path: {}, query: {}, bodyMode: 'none' };
    out.push({ label: `${op.surface} GET ${op.path}`, answer: await send(other, base, undefined) });
    for (const p of op.params) {
      const kind = QUERY_FILTERS[p.name];
      if (p.in !== 'query' || !kind) continue;
      const id = await someOwnerId(kind);
      out.push({ label: `${op.surface} GET ${op.path}?${p.name}=<A's ${kind}>`, answer: await send(other, { ...base, query: { [p.name]: id } }, undefined), filter: id });
    }
  }
  void ownerIds;
  return out;
}

