// The per-exchange judgement: which operation it was, then documented status, body schema, required
// headers, secrets the client sent appearing in the answer, and 401 for calls without credentials
// (GraphQL: unless every field asked is public, graphql-auth.ts).
// Each finding names a rule of specs/rules.yaml (rule-ids.ts) and carries that rule's level.
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { checkGraphqlAnswer } from '../contract/graphql-shape.js';
import { graphqlLimitFindings } from './graphql-limits.js';
import { judgeKeylessGraphql } from './graphql-auth.js';
import { formatIssues, validateRequest, validateResponse, type ValidationIssue } from '../validation/index.js';
import { parseQuery, queryStylesOf } from '../contract/query-style.js';
import { classify, type TrafficSurface } from './classify.js';
import { isTruncated, MAX_CAPTURED_BODY_BYTES, type CapturedBody, type Exchange, type Violation } from './exchange.js';
import { RULE, violation } from './rule-ids.js';
import { headerLeaks, pointerOf, type Leak, type SecretBook } from './secrets.js';
import { apiKeyOf, mayCarryIds, objectIds, type IdOwners } from './id-owners.js';
import type { AnswerMemo, Parsed, ParsedAnswer } from './answer-memo.js';
import { answerFacts, isJsonMediaType, type RequiredHeader } from './spec-facts.js';

export interface Judgement {
  /** Surface and operation, or undefined when the path is no operation of any surface. */
  surface?: string;
  operationId: string;
  violations: Violation[];
  /** Rules this exchange was judged under (pass unless a violation names them). */
  checked: string[];
  /** What could not be judged and why ("not judged: body over 1048576 bytes"). */
  notes: string[];
}

export interface JudgeOptions {
  /** Restrict operation matching to one surface (--surface). */
  surface?: TrafficSurface;
  /**
   * Secrets in the whole answer body, asked after the request's secrets were learned: the proxy's
   * stream scan, or a search of the full recorded body. Without it the captured bytes are searched.
   */
  responseLeaks?: () => Leak[];
  /** The caller already learned this request's secrets (the proxy does so before the answer streams). */
  secretsLearned?: boolean;
  /** Which key's traffic each object id first came back in (one per session): flags ids crossing to another key. */
  owners?: IdOwners;
  /** The last answer body of each operation and status, with what was found from it alone (one per session). */
  answers?: AnswerMemo;
}

function parseBody(body: CapturedBody): Parsed | undefined {
  if (!body.recorded || isTruncated(body)) return undefined;
  if (body.bytes.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(body.bytes.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

const isUnauthenticated = (exchange: Exchange, url: URL) => !exchange.requestHeaders['authorization']?.trim() && !url.searchParams.get('api_key');

/** Learns the request's secrets and reports the ones its answer carries; runs for every exchange. */
function judgeSecrets(exchange: Exchange, url: URL, book: SecretBook, options: JudgeOptions, out: Judgement, what: string, response: Parsed | undefined): void {
  if (!options.secretsLearned) {
    const request = parseBody(exchange.requestBody);
    book.learnRequest(exchange.requestHeaders, url.searchParams, request?.ok ? request.value : undefined);
  }
  for (const kind of book.kinds()) out.checked.push(RULE.leak(kind, out.surface));
  const bodyLeaks = options.responseLeaks?.() ?? book.find(exchange.responseBody.bytes).map((kind): Leak => ({ kind, where: 'body' }));
  for (const leak of bodyLeaks.concat(headerLeaks(book, exchange.responseHeaders))) {
    let where: string;
    if (leak.where === 'body') {
      const parsed = response?.ok ? response.value : undefined;
      const pointer = book.valuesOf(leak.kind).map((v) => pointerOf(parsed, v)).find(Boolean);
      where = pointer ? `at ${pointer}` : 'in the body';
    } else where = `in header ${leak.where.header}`;
    out.violations.push(violation(RULE.leak(leak.kind, out.surface), out.surface ?? '-', out.operationId, `secret leaked: ${what} answered ${exchange.status} containing the ${leak.kind} ${where}`));
  }
}

function headerProblem(header: RequiredHeader, value: string | undefined): string | undefined {
  if (value === undefined) return 'is missing';
  const schema = header.schema as { type?: string; minimum?: number } | undefined;
  if (schema?.type === 'integer' && !(/^\d+$/.test(value.trim()) && Number(value) >= (schema.minimum ?? 0))) return `is "${value.slice(0, 40)}", not a whole number`;
  return undefined;
}

/** validateRequest's issues for a request of path parameters only (no body, no query), by classify's path-parameter object (one per recent path and method). */
const pathOnlyRequestIssues = new WeakMap<Record<string, string>, ValidationIssue[]>();

function judgeOperation(exchange: Exchange, url: URL, surface: Exclude<Judgement['surface'], undefined>, pathParams: Record<string, string>, out: Judgement, answer: ParsedAnswer): void {
  const response = answer.parsed;
  const s = surface as 'restV1' | 'queueV2' | 'restV2';
  const opId = out.operationId;
  const status = exchange.status;
  const request = parseBody(exchange.requestBody);
  let requestValid: boolean | undefined;
  let requestIssue = '';
  if (request && exchange.method.toUpperCase() !== 'HEAD') {
    if (!request.ok) {
      requestValid = false;
      requestIssue = '/body is not JSON';
    }
    else {
      // Lists read as the spec declares them (comma form for REST v2 catalogue filters), repeated keys kept.
      // Without body and query the issues depend on the path alone: kept by classify's (cached) path parameters.
      const pathOnly = request.value === undefined && url.search === '';
      let issues = pathOnly ? pathOnlyRequestIssues.get(pathParams) : undefined;
      if (!issues) {
        issues = validateRequest(s, opId, { body: request.value, path: pathParams, query: parseQuery(url.search, queryStylesOf(s, opId)) });
        if (pathOnly) pathOnlyRequestIssues.set(pathParams, issues);
      }
      requestValid = issues.length === 0;
      requestIssue = formatIssues(issues.slice(0, 3));
    }
  } else if (request === undefined && exchange.requestBody.recorded) out.notes.push(`request not judged: body over ${MAX_CAPTURED_BODY_BYTES} bytes`);
  const answerRule = RULE.answer(requestValid);
  out.checked.push(answerRule);
  if (requestValid === false) {
    out.checked.push(RULE.answer(false));
    if (status >= 200 && status < 300) out.violations.push(violation(RULE.answer(false), s, opId, `${opId} answered ${status} to a request the spec refuses (${requestIssue})`));
  }
  const facts = answerFacts(s, opId, status);
  if (!facts) {
    const issue = validateResponse(s, opId, status, undefined)[0];
    out.violations.push(violation(answerRule, s, opId, `${opId} answered ${issue?.message ?? `${status}, an undocumented status`}`));
    return;
  }
  for (const header of facts.requiredHeaders) {
    const rule = RULE.header(header.name, status, s);
    out.checked.push(rule);
    const problem = headerProblem(header, exchange.responseHeaders[header.name]);
    if (problem) out.violations.push(violation(rule, s, opId, `${opId} answered ${status} whose required header ${header.name} ${problem}`));
  }
  if (exchange.method.toUpperCase() === 'HEAD') return;
  if (!exchange.responseBody.recorded) return void out.notes.push('answer not judged: body not recorded');
  if (isTruncated(exchange.responseBody)) return void out.notes.push(`answer not judged: body over ${MAX_CAPTURED_BODY_BYTES} bytes`);
  if (facts.mediaTypes.length > 0 && !facts.mediaTypes.some(isJsonMediaType)) return void out.notes.push(`answer body not judged: ${facts.mediaTypes.join(', ')}`);
  const bodyRule = status >= 400 ? RULE.errorBody(s) : answerRule;
  out.checked.push(bodyRule);
  const contentType = exchange.responseHeaders['content-type']?.split(';')[0]!.trim().toLowerCase();
  if (exchange.responseBody.totalBytes > 0 && facts.mediaTypes.length > 0 && !facts.mediaTypes.includes(contentType ?? '')) {
    out.violations.push(violation(bodyRule, s, opId, `${opId} answered ${status} with Content-Type ${contentType ?? '(none)'} (documented: ${facts.mediaTypes.join(', ')})`));
  }
  if (!response?.ok) return void out.violations.push(violation(bodyRule, s, opId, `${opId} answered ${status} with a body that is not JSON`));
  const issues = (answer.issues ??= validateResponse(s, opId, status, response.value));
  if (issues.length) out.violations.push(violation(bodyRule, s, opId, `${opId} answered ${status} not matching the spec: ${formatIssues(issues.slice(0, 3))}`));
}

/** Root fields of the operation a GraphQL request runs ("saveTemplate", "podTemplate+secretCreate"). */
function graphqlOperation(body: unknown): { query?: string; name: string } {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return { name: 'graphql' };
  try {
    const ops = parse(query, { maxTokens: 10_000 }).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const op = ops.find((o) => o.name?.value === operationName) ?? ops[0];
    const fields = op?.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])) ?? [];
    return { query, name: fields.length ? fields.join('+') : 'graphql' };
  } catch {
    return { name: 'graphql' };
  }
}

function judgeGraphql(exchange: Exchange, out: Judgement, response: Parsed | undefined, query: string | undefined): void {
  const rule = RULE.errorBody('graphql');
  if (exchange.method.toUpperCase() === 'HEAD' || !response) return;
  out.checked.push(rule);
  if (!response.ok) return void out.violations.push(violation(rule, 'graphql', out.operationId, `GraphQL answered ${exchange.status} with a body that is not JSON`));
  let issues: string[];
  if (exchange.status === 200 && query !== undefined) {
    try {
      issues = checkGraphqlAnswer(query, response.value);
    } catch {
      issues = [];
    }
  } else {
    const errors = (response.value as { errors?: unknown } | undefined)?.errors;
    const ok = Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof (e as { message?: unknown })?.message === 'string' && (e as { message: string }).message !== '');
    issues = ok ? [] : ['/errors must be a non-empty array of {message}'];
  }
  const errorIssues = issues.filter((i) => i.startsWith('/errors'));
  const dataIssues = issues.filter((i) => !i.startsWith('/errors'));
  if (errorIssues.length) out.violations.push(violation(rule, 'graphql', out.operationId, `GraphQL answered ${exchange.status} with errors not matching the spec: ${errorIssues.slice(0, 3).join('; ')}`));
  if (dataIssues.length) {
    out.checked.push(RULE.answer(true));
    out.violations.push(violation(RULE.answer(true), 'graphql', out.operationId, `GraphQL ${out.operationId} answered ${exchange.status} not matching the SDL: ${dataIssues.slice(0, 3).join('; ')}`));
  }
  if (query === undefined) return;
  const limits = graphqlLimitFindings(query, response.value);
  out.checked.push(...limits.checked);
  for (const finding of limits.findings) out.violations.push(violation(finding.ruleId, 'graphql', out.operationId, finding.message));
}

/** The last URL parsed: a polling client asks the same URL over and over (the URL object is only read). */
let lastUrl: { text: string; url: URL } | undefined;

function parseUrl(text: string): URL | undefined {
  if (lastUrl?.text === text) return lastUrl.url;
  try {
    lastUrl = { text, url: new URL(text) };
    return lastUrl.url;
  } catch {
    return undefined;
  }
}

export function judgeExchange(exchange: Exchange, book: SecretBook, options: JudgeOptions = {}): Judgement {
  const url = parseUrl(exchange.url);
  if (!url) return { operationId: '(unmatched)', violations: [], checked: [], notes: ['not judged: URL not absolute'] };
  const method = exchange.method.toUpperCase();
  const cls = classify(method, url.pathname, options.surface);
  const out: Judgement = { operationId: '(unmatched)', violations: [], checked: [], notes: [] };
  // An operation's answer body identical to the last one of its operation and status is not parsed or validated again.
  const answer: ParsedAnswer = cls.kind === 'operation' && options.answers
    ? options.answers.answerOf(`${cls.surface} ${cls.op.operationId} ${exchange.status}`, exchange.responseBody, parseBody)
    : { parsed: parseBody(exchange.responseBody) };
  const response = answer.parsed;
  let graphqlQuery: string | undefined;
  if (cls.kind === 'operation') {
    out.surface = cls.surface;
    out.operationId = cls.op.operationId;
  }
  else if (cls.kind === 'graphql') {
    const request = parseBody(exchange.requestBody);
    const op = graphqlOperation(request?.ok ? request.value : undefined);
    out.surface = 'graphql';
    out.operationId = op.name;
    graphqlQuery = op.query;
  } else if (cls.kind === 'method') {
    out.surface = cls.surface;
    out.operationId = `${method} ${cls.path}`;
  }
  const what = cls.kind === 'unmatched' || cls.kind === 'options' ? `${method} ${url.pathname}` : out.operationId;
  judgeSecrets(exchange, url, book, options, out, what, response);
  if (cls.kind === 'unmatched' || cls.kind === 'options') return finish(out);

  const surface = out.surface!;
  if (isUnauthenticated(exchange, url) && cls.kind === 'graphql' && exchange.method.toUpperCase() === 'POST') {
    const keyless = judgeKeylessGraphql(out.operationId, graphqlQuery, exchange.status);
    out.checked.push(keyless.ruleId);
    if (keyless.problem) out.violations.push(violation(keyless.ruleId, surface, out.operationId, keyless.problem));
  } else if (isUnauthenticated(exchange, url)) {
    const rule = RULE.unauthenticated(surface);
    out.checked.push(rule);
    if (exchange.status !== 401) out.violations.push(violation(rule, surface, out.operationId, `${out.operationId} answered ${exchange.status} to a request without credentials (expected 401)`));
  }
  if (cls.kind === 'method') {
    const rule = RULE.methodNotAllowed(surface);
    out.checked.push(rule);
    // Authentication comes before routing, so a 401 is as good an answer as the 405.
    if (exchange.status === 401) return finish(out);
    if (exchange.status !== 405) out.violations.push(violation(rule, surface, out.operationId, `${out.operationId}: a method the path does not serve was answered ${exchange.status} (expected 405 with Allow)`));
    else if (!exchange.responseHeaders['allow']) out.violations.push(violation(rule, surface, out.operationId, `${out.operationId} answered 405 without an Allow header`));
    return finish(out);
  }
  if (cls.kind === 'graphql') judgeGraphql(exchange, out, response, graphqlQuery);
  else judgeOperation(exchange, url, cls.surface, cls.pathParams, out, answer);
  if (options.owners && !(cls.kind === 'operation' && cls.op.path.includes('/catalog'))) judgeOwners(exchange, url, cls.kind === 'operation' ? cls.op.path : undefined, options.owners, out, answer);
  return finish(out);
}

/** A successful answer to one key carrying ids first seen in another key's answers: one account's objects reaching another. */
function judgeOwners(exchange: Exchange, url: URL, path: string | undefined, owners: IdOwners, out: Judgement, answer: ParsedAnswer): void {
  const response = answer.parsed;
  const key = apiKeyOf(exchange.requestHeaders, url);
  if (!key || exchange.status < 200 || exchange.status > 299 || !response?.ok) return;
  const rule = RULE.crossAccount(exchange.method.toUpperCase(), path);
  out.checked.push(rule);
  const ids = (answer.ids ??= mayCarryIds(exchange.responseBody.bytes) ? [...objectIds(response.value)] : []);
  if (ids.length === 0) return;
  const foreign = owners.observeIds(key, ids);
  if (foreign.length === 0) return;
  const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? `, +${foreign.length - 3} more` : '');
  out.violations.push(violation(rule, out.surface ?? '-', out.operationId, `${out.operationId} answered ${exchange.status} to one API key with id(s) first seen in another key's traffic: ${shown}`));
}

function finish(out: Judgement): Judgement {
  out.checked = out.checked.filter((id, i) => out.checked.indexOf(id) === i);
  return out;
}
