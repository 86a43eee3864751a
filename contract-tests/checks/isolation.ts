// ISOLATION-*: nothing crosses between two accounts (docs/accounts.md). READ, WRITE, LIST, JOB, REF and
// ORACLE judge ONE run (isolation-world.ts: B's requests at A's objects for every operation of the
// operation tables, started by whichever rule comes first); NAMES and RATE are checks of their own.
import { buildSchema, getNamedType } from 'graphql';
import { readFileSync } from 'node:fs';
import type { Answer } from '../../src/agreement/transport.js';
import { packageFile } from '../../src/contract/package-files.js';
import { expect, expectStatus } from '../../src/conform/context.js';
import { CheckFailure } from '../../src/conform/http.js';
import { defineCheck, type CheckDefinition } from '../../src/conform/registry.js';
import type { Ctx } from '../../src/conform/context.js';
import { restRead } from './rest-view.js';
import { isolationWorld, type Probe, type ProbeKind, type World } from './isolation-world.js';

/**
 * The world is built with a REST management surface (A's objects: REST v1 when given, else REST v2; neither:
 * skipped naming --rest-v2-url) and queue v2 (A's jobs); every configured surface is covered.
 */
// Shares: the clock (fixture setup lets pods and workers come up) and A's REST v2 quota; A's new objects show only
// in A's account-wide lists, whose readers run alone.
const WORLD: Omit<CheckDefinition, 'id' | 'run'> = { needs: ['rest', 'queueV2'], everyConfiguredSurface: true, requires: ['secondApiKey'], timeoutMs: 120_000, shares: ['clock', 'restV2-quota'] };
const MAX_LISTED = 4;

let voidFields: Set<string> | undefined;
/** GraphQL root fields answering Void: null data is their success. */
function voidRootFields(): Set<string> {
  if (voidFields) return voidFields;
  const schema = buildSchema(readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8'));
  voidFields = new Set([schema.getQueryType(), schema.getMutationType()].flatMap((t) => Object.values(t?.getFields() ?? {}))
    .filter((f) => getNamedType(f.type).name === 'Void').map((f) => f.name));
  return voidFields;
}

/** Did B's request go through? (HTTP 2xx; GraphQL: no errors and data for the field, or a Void field.) */
export function succeeded(probe: Pick<Probe, 'surface' | 'rootField'>, answer: Answer | string): boolean {
  if (typeof answer === 'string') return false;
  if (probe.surface !== 'graphql') return answer.status >= 200 && answer.status < 300;
  const body = answer.body as { data?: Record<string, unknown> | null; errors?: unknown[] } | undefined;
  if (answer.status !== 200 || (Array.isArray(body?.errors) && body.errors.length > 0)) return false;
  const root = probe.rootField ?? '';
  return body?.data?.[root] !== null && body?.data?.[root] !== undefined ? true : voidRootFields().has(root) && body?.data !== null;
}

const statusOf = (a: Answer | string) => (typeof a === 'string' ? a : `HTTP ${a.status}`);

/** A's ids and names in B's answer, beyond the ids B's own request named. */
function leaked(world: World, probe: Pick<Probe, 'twins'> | undefined, answer: Answer | string): string | undefined {
  if (typeof answer === 'string') return undefined;
  const named = new Set(probe?.twins.map(([owner]) => owner) ?? []);
  for (const id of world.ownerIds) if (!named.has(id) && answer.text.includes(id)) return `A's id ${id}`;
  if (answer.text.includes(world.nameMark)) return `a name of A's (…${world.nameMark}…)`;
  return undefined;
}

function failIfAny(problems: string[], what: string): void {
  if (problems.length === 0) return;
  const more = problems.length > MAX_LISTED ? ` (+${problems.length - MAX_LISTED} more)` : '';
  throw new CheckFailure(`${problems.length} ${what}: ${problems.slice(0, MAX_LISTED).join(' | ')}${more}`);
}

function ofKind(world: World, kinds: readonly ProbeKind[]): Probe[] {
  return world.probes.filter((p) => kinds.includes(p.kind));
}

function covered(probes: readonly Probe[]): string {
  const surfaces = [...new Set(probes.map((p) => p.surface))].join(', ');
  return `${probes.length} operations naming A's objects (${surfaces})`;
}

defineCheck('ISOLATION-READ-001', async (ctx) => {
  const world = await isolationWorld(ctx);
  const probes = ofKind(world, ['read']);
  const problems: string[] = [];
  for (const p of probes) {
    if (succeeded(p, p.foreign)) problems.push(`${p.label} answered B ${statusOf(p.foreign)} with A's object`);
    else {
      const leak = leaked(world, p, p.foreign);
      if (leak) problems.push(`${p.label}: B's ${statusOf(p.foreign)} carries ${leak}`);
    }
  }
  failIfAny(problems, 'read(s) of A\'s objects by B');
  return covered(probes);
}, WORLD);

defineCheck('ISOLATION-WRITE-001', async (ctx) => {
  const world = await isolationWorld(ctx);
  const probes = ofKind(world, ['write']);
  const problems: string[] = [];
  for (const p of probes) {
    if (succeeded(p, p.foreign)) problems.push(`${p.label} answered B ${statusOf(p.foreign)} on A's object`);
    else if (p.changed) problems.push(`${p.label}: refused (${statusOf(p.foreign)}) but ${p.changed}`);
  }
  failIfAny(problems, 'change(s) of A\'s objects by B');
  return covered(probes);
}, WORLD);

defineCheck('ISOLATION-LIST-001', async (ctx) => {
  const world = await isolationWorld(ctx);
  const problems: string[] = [];
  for (const l of world.lists) {
    const leak = leaked(world, l.filter ? { twins: [[l.filter, '']] } : undefined, l.answer);
    if (leak) problems.push(`B's ${l.label} (${statusOf(l.answer)}) holds ${leak}`);
  }
  failIfAny(problems, 'list(s) of B showing A\'s objects');
  return `${world.lists.length} lists and account reads of B`;
}, WORLD);

defineCheck('ISOLATION-JOB-001', async (ctx) => {
  const world = await isolationWorld(ctx);
  const probes = ofKind(world, ['job']);
  expect(probes.length > 0, 'no queue v2 operation was probed');
  const problems: string[] = [];
  for (const p of probes) {
    if (succeeded(p, p.foreign)) problems.push(`${p.label} on A's endpoint answered B ${statusOf(p.foreign)}`);
    else if (p.changed) problems.push(`${p.label}: refused (${statusOf(p.foreign)}) but ${p.changed}`);
    else {
      const leak = leaked(world, p, p.foreign);
      if (leak) problems.push(`${p.label}: B's ${statusOf(p.foreign)} carries ${leak}`);
    }
  }
  if (world.queueChanged) problems.push(world.queueChanged);
  failIfAny(problems, 'queue operation(s) of B on A\'s endpoint');
  return covered(probes);
}, WORLD);

defineCheck('ISOLATION-REF-001', async (ctx) => {
  const world = await isolationWorld(ctx);
  const probes = ofKind(world, ['ref']);
  const problems = probes.filter((p) => succeeded(p, p.foreign)).map((p) => `${p.label} with A's ids in the body answered B ${statusOf(p.foreign)}`);
  failIfAny(problems, 'create(s) or update(s) of B referencing A\'s objects accepted');
  return covered(probes);
}, WORLD);

/** An answer with the request's ids replaced by their position, and what a caller can see of it. */
function comparable(answer: Answer | string, ids: readonly string[]): string {
  if (typeof answer === 'string') return `no answer (${answer.replace(/\d+/g, 'N')})`;
  let text = answer.text;
  ids.forEach((id, i) => (text = text.split(id).join(`<id${i}>`)));
  return `${answer.status} ${answer.headers.get('content-type') ?? ''} allow=${answer.headers.get('allow') ?? ''} ${text}`;
}

defineCheck('ISOLATION-ORACLE-001', async (ctx) => {
  const world = await isolationWorld(ctx);
  const problems: string[] = [];
  // A request B got through is READ/WRITE/JOB/REF's finding; the oracle is about the refusals.
  const refused = world.probes.filter((p) => !succeeded(p, p.foreign));
  for (const p of refused) {
    const foreign = comparable(p.foreign, p.twins.map(([owner]) => owner));
    const absent = comparable(p.absent, p.twins.map(([, twin]) => twin));
    if (foreign !== absent) problems.push(`${p.label}: A's id → ${foreign.slice(0, 90)}; an id that never existed → ${absent.slice(0, 90)}`);
  }
  failIfAny(problems, 'answer(s) telling A\'s objects from absent ones');
  return covered(refused);
}, WORLD);

// ---- names and rate windows --------------------------------------------------------------------

/** B's create and delete of a template and a registry auth, through REST v1 when given, else REST v2 (same names, same rules). */
function namesThrough(ctx: Ctx, key: string) {
  const v1 = ctx.restSurface() === 'restV1';
  const idOf = (answer: { body: any }) => String(answer.body?.id);
  return {
    createTemplate: (name: string) => (v1 ? ctx.rest('createTemplate', { key, body: { name, imageName: ctx.target.workerImage } }) : ctx.v2('createTemplate', { key, body: { name, image: ctx.target.workerImage } })),
    deleteTemplate: (id: string) => (v1 ? ctx.rest('deleteTemplate', { key, path: { templateId: id } }) : ctx.v2('deleteTemplate', { key, path: { id } })),
    createAuth: (name: string, password: string) => (v1
      ? ctx.rest('createContainerRegistryAuth', { key, body: { name, username: 'isolation', password } })
      : ctx.v2('createRegistry', { key, body: { name, username: 'isolation', password } })),
    deleteAuth: (id: string) => (v1 ? ctx.rest('deleteContainerRegistryAuth', { key, path: { containerRegistryAuthId: id } }) : ctx.v2('deleteRegistry', { key, path: { id } })),
    created: v1 ? 200 : 201,
    idOf,
  };
}

defineCheck('ISOLATION-NAMES-001', async (ctx) => {
  const second = ctx.target.secondApiKey!;
  const template = await ctx.template();
  const auth = await ctx.registryAuth();
  const b = namesThrough(ctx, second);
  const theirs = await b.createTemplate(template.name);
  expectStatus(theirs, b.created, `B's createTemplate named like A's template ${template.name}`);
  ctx.cleanup(() => b.deleteTemplate(b.idOf(theirs)));
  const theirAuth = await b.createAuth(auth.name, ctx.secret('registry password'));
  expectStatus(theirAuth, b.created, `B's registry auth named like A's ${auth.name}`);
  ctx.cleanup(() => b.deleteAuth(b.idOf(theirAuth)));
  expect(b.idOf(theirs) !== template.id && b.idOf(theirAuth) !== auth.id, 'B\'s objects got the ids of A\'s');
  // Still unique within each account.
  const again = await b.createTemplate(template.name);
  if (again.status === b.created) ctx.cleanup(() => b.deleteTemplate(b.idOf(again)));
  expectStatus(again, 400, `B's second template named ${template.name} (a duplicate within B's account)`);
  const mine = await restRead(ctx, 'template', template.id);
  expect(mine.status === 200, `A reads its template back: ${mine.surface} answered ${mine.status}`);
  expect(mine.name === template.name, `A's template is now named ${String(mine.name)}`);
  return `template and registry auth names (${ctx.restSurface() === 'restV1' ? 'REST v1' : 'REST v2'})`;
}, { needs: ['rest'], requires: ['secondApiKey'], shares: [] });

/** The remaining counts of a RateLimit header ("minute";r=59;t=60, …), by window. */
function remaining(answer: { headers: Headers }): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (answer.headers.get('ratelimit') ?? '').split(',')) {
    const match = /"?(\w+)"?\s*;.*\br=(\d+)/.exec(part);
    if (match) out[match[1]!] = Number(match[2]);
  }
  return out;
}

defineCheck('ISOLATION-RATE-001', async (ctx) => {
  const second = ctx.target.secondApiKey!;
  const first = await ctx.v2('listTemplates', { quota: 'raw' });
  expectStatus(first, 200, 'A\'s first REST v2 call');
  const before = remaining(first);
  expect(Object.keys(before).length > 0, 'REST v2 answers carry no RateLimit header to compare');
  const minute = ctx.value<number>('burstBound');
  let refused: Answer | undefined;
  for (let i = 0; i < minute && !refused; i++) {
    const answer = await ctx.v2('listTemplates', { quota: 'raw', key: second });
    if (answer.status === 429) refused = answer as unknown as Answer;
  }
  expect(refused, `B's burst of ${minute} REST v2 requests was never answered 429 (RESTV2-RATE-002 judges the quota itself)`);
  const after = await ctx.v2('listTemplates', { quota: 'raw' });
  expectStatus(after, 200, 'A\'s REST v2 call right after B was refused 429');
  const now = remaining(after);
  for (const [window, left] of Object.entries(before)) {
    // A window that rolled over meanwhile only has more left; B's calls counted against A leave less.
    expect((now[window] ?? -1) >= left - 1, `A's ${window} window: ${left} remaining before B's burst, ${String(now[window])} after it (expected ${left - 1}: one call of A's own)`);
  }
  // B's minute window is spent: let it pass, so that later rules find B's quota fresh.
  await ctx.pass(60_000);
  return `B refused 429 after its burst; A's windows moved by A's own call only`;
}, { needs: ['restV2'], requires: ['secondApiKey'], shares: ['clock', 'restV2-quota'] });

