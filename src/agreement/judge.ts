// Verdicts on one answer. Valid request: a documented 2xx matching the spec, or a documented 4xx
// that the allow-list ties to a rule. Invalid request: 400 (GraphQL: errors[]) naming the violated
// JSON path. Always: no 5xx, no dropped connection, no answer outside the spec, no secret echoed.
import { checkGraphqlAnswer } from '../contract/graphql-shape.js';
import { validateResponse } from '../validation/index.js';
import { allowedBy, type AllowedRefusal, type RefusalCondition } from './allow-list.js';
import { eventStreamProblems } from './event-stream.js';
import type { InvalidCase, RequestCase } from './requests.js';
import type { Schema } from './schema.js';
import type { Answer, Outcome } from './transport.js';

export type Verdict = { ok: true; allowedBy?: string } | { ok: false; problem: string };

export interface JudgeOptions {
  /** REST v2 answers must carry RateLimit / RateLimit-Policy (default true; false for a target run without quotas). */
  rateLimitHeaders?: boolean;
}

const MESSAGE_CHARS = 200;

export function judgeValid(c: RequestCase, outcome: Outcome, conditions: ReadonlySet<RefusalCondition>, secrets: readonly string[], allow?: readonly AllowedRefusal[], options: JudgeOptions = {}): Verdict {
  const base = judgeCommon(c, outcome, secrets, options);
  if (base) return base;
  const answer = (outcome as { answer: Answer }).answer;
  const { status } = answer;
  if (c.op.surface === 'graphql') {
    const errors = graphqlErrors(answer.body);
    if (status === 200 && errors.length === 0) return { ok: true };
    const entry = allowedBy('graphql', c.op.operationId, status, conditions, [], allow);
    if (entry && errors.length > 0) return { ok: true, allowedBy: entry.rule };
    return { ok: false, problem: `spec-valid GraphQL request answered ${status} with errors[] no allow-listed rule covers: ${clip(errors.join('; '))}` };
  }
  if (status >= 200 && status <= 299) return { ok: true };
  if (status === 429) return { ok: true, allowedBy: 'RATE-429-001' };
  const entry = allowedBy(c.op.surface, c.op.operationId, status, conditions, errorPathsOf(answer), allow);
  if (entry) return { ok: true, allowedBy: entry.rule };
  // Refused for no unknown id and no rule of stored state: the schema accepts a body the target refuses,
  // i.e. a rule stated in prose only (or none at all) — the finding schema-driven judges report.
  const proseOnly = (status === 400 || status === 422) && !conditions.has('unknown-reference');
  const what = proseOnly ? ' (a rule stated in prose only? the schema accepts this request and no unknown reference explains the refusal)' : '';
  return { ok: false, problem: `spec-valid request refused with ${status} and no allow-listed rule covers it${what}: ${clip(messageOf(answer))}` };
}

export function judgeInvalid(c: InvalidCase, outcome: Outcome, secrets: readonly string[], options: JudgeOptions = {}): Verdict {
  const base = judgeCommon(c, outcome, secrets, options);
  if (base) return base;
  const answer = (outcome as { answer: Answer }).answer;
  const { pointer, kind } = c.violation;
  if (answer.status === 429) return { ok: true, allowedBy: 'RATE-429-001' };
  if (c.op.surface === 'graphql') {
    const errors = graphqlErrors(answer.body);
    if (errors.length === 0) return { ok: false, problem: `${kind} at ${pointer} was accepted: HTTP ${answer.status} without errors[]` };
    // Not a GraphQL request at all (body not JSON, variables not an object): 400; else 200 (GQL-ERROR-001).
    const wanted = kind === 'malformed-json' || pointer === '/variables' ? 400 : 200;
    if (answer.status !== wanted) return { ok: false, problem: `${kind} at ${pointer}: expected HTTP ${wanted} with errors[], got ${answer.status}` };
    // Refused before execution: no data; refused by the resolver: data.<root field> null.
    const data = (answer.body as { data?: Record<string, unknown> | null }).data;
    const root = c.op.graphql!.rootField;
    if (data !== undefined && data !== null && data[root] !== null && data[root] !== undefined) {
      return { ok: false, problem: `${kind} at ${pointer}: errors[] came with data.${root} (the operation ran)` };
    }
    const names = fieldNames(pointer);
    if (kind !== 'malformed-json' && !errors.some((m) => names.some((n) => m.includes(n)))) {
      return { ok: false, problem: `${kind} at ${pointer}: no errors[] message names ${names.map((n) => `"${n}"`).join(' or ')}: ${clip(errors.join('; '))}` };
    }
    return { ok: true };
  }
  const wanted = expectedRefusal(c);
  if (answer.status !== wanted) return { ok: false, problem: `${kind} at ${pointer} (${c.violation.detail}): expected ${wanted}, got ${answer.status}${answer.status < 300 ? ' (accepted)' : ''}: ${clip(messageOf(answer))}` };
  const errors = errorPathsOf(answer);
  if (!errors.includes(pointer)) return { ok: false, problem: `${kind} at ${pointer}: ${wanted} whose errors[] does not name ${pointer} (names: ${errors.join(', ') || 'nothing'})` };
  const alternatives = anyOfAlternatives(c);
  const unrelated = errors.filter((p) => !related(p, pointer) && !alternatives.includes(p));
  if (unrelated.length) return { ok: false, problem: `${kind} at ${pointer}: errors[] also names ${unrelated.join(', ')} (a single-point violation)` };
  return { ok: true };
}

/**
 * The status a single-point violation is refused with. REST v1 and queue v2: 400. REST v2 as its
 * spec states (RESTV2-ERROR-002, the front's order): a broken path id names no resource (404), a
 * broken query 400, a body that is not JSON 400, a body that breaks its schema 422 (or the operation's
 * x-invalid-body-status: createSandbox's page documents 400).
 */
function expectedRefusal(c: InvalidCase): number {
  if (c.op.surface !== 'restV2') return 400;
  const { pointer, kind } = c.violation;
  if (pointer.startsWith('/path/')) return 404;
  if (pointer.startsWith('/query/') || kind === 'malformed-json') return 400;
  return c.op.invalidBodyStatus ?? 422;
}

/** Transport failures, 5xx, undocumented statuses, bodies outside the spec, echoed secrets. */
function judgeCommon(c: RequestCase, outcome: Outcome, secrets: readonly string[], options: JudgeOptions): Verdict | undefined {
  if (outcome.kind !== 'answer') return { ok: false, problem: outcome.message };
  const answer = outcome.answer;
  if (answer.status >= 500) return { ok: false, problem: `answered ${answer.status}: ${clip(messageOf(answer))}` };
  const leaked = secrets.find((s) => s.length >= 8 && answer.text.includes(s));
  if (leaked) return { ok: false, problem: `answer ${answer.status} contains a secret value the request sent` };
  if (!c.op.statuses.includes(answer.status)) return { ok: false, problem: `answered ${answer.status}, not a documented status (${c.op.statuses.join(', ')})` };
  if (c.op.surface === 'restV2') {
    const problem = restV2Envelope(answer, options.rateLimitHeaders !== false);
    if (problem) return { ok: false, problem };
    if (answer.stream) {
      // The events already written (transport.ts reads the backlog for a moment) against the declared event schema.
      const events = c.op.eventData && answer.status === 200 ? eventStreamProblems(answer.text, c.op.eventData) : [];
      return events.length ? { ok: false, problem: `event stream not matching its event schema (x-sse-data ${c.op.eventData}): ${clip(events.join('; '))}` } : undefined;
    }
  }
  if (c.op.surface === 'graphql') {
    const issues = checkGraphqlAnswer(c.op.graphql!.document, answer.body);
    if (issues.length) return { ok: false, problem: `GraphQL answer not matching the SDL: ${clip(issues.join('; '))}` };
    return undefined;
  }
  const issues = validateResponse(c.op.surface, c.op.operationId, answer.status, answer.body);
  if (issues.length) return { ok: false, problem: `answer ${answer.status} not matching the spec: ${clip(issues.map((i) => `${i.path} ${i.message}`).join('; '))}` };
  return undefined;
}

/**
 * What every REST v2 answer carries besides its body: RateLimit and RateLimit-Policy (RESTV2-RATE-001),
 * problem+json on every error (RESTV2-ERROR-001), Retry-After on a 429 (RESTV2-RATE-002).
 */
function restV2Envelope(answer: Answer, rateLimitHeaders: boolean): string | undefined {
  const missing = rateLimitHeaders ? ['ratelimit', 'ratelimit-policy'].filter((h) => !answer.headers.get(h)) : [];
  if (missing.length) return `answer ${answer.status} without ${missing.join(' and ')} header(s)`;
  if (answer.status === 429 && !/^\d+$/.test(answer.headers.get('retry-after') ?? '')) return 'answer 429 without Retry-After in whole seconds';
  if (answer.status >= 400 && !answer.headers.get('content-type')?.startsWith('application/problem+json')) {
    return `error answer ${answer.status} is not application/problem+json (${answer.headers.get('content-type') ?? 'no content type'})`;
  }
  return undefined;
}

/** The JSON paths an error answer names: REST v1 `errors[].path`, REST v2 problem `errors[]` lines `"<path>: <message>"`. */
function errorPathsOf(answer: Answer): string[] {
  const errors = (answer.body as { errors?: unknown[] } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.map((e) => typeof e === 'string' ? e.slice(0, Math.max(0, e.indexOf(': '))) || e : String((e as { path?: unknown } | null)?.path));
}

function graphqlErrors(body: unknown): string[] {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? errors.map((e) => String((e as { message?: unknown }).message)) : [];
}

function messageOf(answer: Answer): string {
  const body = answer.body as { message?: unknown; detail?: unknown; errors?: unknown } | undefined;
  if (typeof body?.message === 'string') return body.message;
  if (typeof body?.detail === 'string') return Array.isArray(body.errors) ? `${body.detail}: ${body.errors.join('; ')}` : body.detail;
  return answer.text;
}

/**
 * Where the broken value's object states "one of these is required" (anyOf over `required`, e.g.
 * image | templateId), a validator reports the other alternative as missing too: its path is part of
 * the same single-point violation.
 */
function anyOfAlternatives(c: InvalidCase): string[] {
  const { pointer } = c.violation;
  if (!c.op.body || !pointer.startsWith('/body/')) return [];
  const segments = pointer.split('/').slice(2, -1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let schema: Schema | undefined = c.op.resolve(c.op.body.schema);
  for (const segment of segments) {
    if (!schema) return [];
    const next: Schema | undefined = /^\d+$/.test(segment) && schema.items ? schema.items : schema.properties?.[segment];
    schema = next ? c.op.resolve(next) : undefined;
  }
  const parent = pointer.slice(0, pointer.lastIndexOf('/'));
  return (schema?.anyOf ?? schema?.oneOf ?? []).flatMap((alt) => (c.op.resolve(alt).required ?? []).map((name) => `${parent}/${name}`));
}

/** Pointers on one line of descent name the same violation (a parent object, or a child of it). */
function related(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/**
 * What a GraphQL message may name for a violation at `pointer`: the field itself or an input field
 * above it (e.g. "env" for /variables/input/env/1/value); the variable alone only when it is the
 * violated value.
 */
function fieldNames(pointer: string): string[] {
  const segments = pointer.split('/').slice(2).filter((s) => !/^\d+$/.test(s)).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (segments.length === 0) return ['variables'];
  return segments.length === 1 ? segments : segments.slice(1);
}

function clip(text: string): string {
  return text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS - 3)}...` : text;
}
