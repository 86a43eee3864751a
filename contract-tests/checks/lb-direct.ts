// Direct access to a load-balancing endpoint's workers: LB-* (specs/queue-v2 x-load-balancing-endpoints
// .directAccess). The endpoint is created through REST v2 (the only management surface with `type`); its address
// is target.lbUrl (--lb-url, else derived from --queue-url's host: docs/conformance.md).
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conform/registry.js';
import { expect, short, type Ctx } from '../../src/conform/context.js';
import type { Answer } from '../../src/conform/http.js';
import { lbEndpoint } from './queue-lb.js';

/** A path and body the worker would answer 200 to; a refused request never reaches it. */
const PROBE_PATH = '/conformance/probe';

const messageOf = (answer: Answer): unknown => (answer.body as { message?: unknown } | undefined)?.message;

defineCheck('LB-AUTH-001', async (ctx) => {
  const endpointId = await lbEndpoint(ctx);
  const status = ctx.value<number>('status');
  const problems: string[] = [];
  for (const [label, key] of [['without a key', null], ['with an invalid key', `cc-invalid-${randomBytes(12).toString('hex')}`]] as const) {
    const answer = await ctx.lb(endpointId, { method: 'POST', path: PROBE_PATH, key, headers: { 'content-type': 'application/json' }, body: '{"prompt":"hello"}' });
    if (answer.status !== status) problems.push(`POST ${PROBE_PATH} ${label} answered ${answer.status} ${short(answer.body ?? answer.text)}, not ${status}`);
    else if (typeof messageOf(answer) !== 'string') problems.push(`POST ${PROBE_PATH} ${label}: the ${status} has no ErrorBody message: ${short(answer.text)}`);
  }
  expect(problems.length === 0, `a load-balancing endpoint's address without a valid key:\n  ${problems.join('\n  ')}`);
}, { needs: ['restV2'], requires: ['lbUrl'], shares: [] });

defineCheck('LB-ISOLATION-001', async (ctx) => {
  const endpointId = await lbEndpoint(ctx);
  const status = ctx.value<number>('status');
  const unknownId = `cc${randomBytes(6).toString('hex')}`;
  const foreign = await ctx.lb(endpointId, { method: 'GET', path: PROBE_PATH, key: ctx.target.secondApiKey! });
  const unknown = await ctx.lb(unknownId, { method: 'GET', path: PROBE_PATH });
  expect(foreign.status === status, `GET ${PROBE_PATH} on another account's load-balancing endpoint answered ${foreign.status} ${short(foreign.body ?? foreign.text)}, not ${status} (as an absent endpoint)`);
  expect(unknown.status === status, `GET ${PROBE_PATH} on an endpoint id nobody has answered ${unknown.status} ${short(unknown.body ?? unknown.text)}, not ${status}`);
  // The same answer as for an unknown id: the message differs by the id at most.
  const foreignMessage = messageOf(foreign);
  const unknownMessage = messageOf(unknown);
  expect(typeof foreignMessage === 'string', `the ${status} for another account's endpoint has no ErrorBody message: ${short(foreign.text)}`);
  expect(foreignMessage.replaceAll(endpointId, '{id}') === String(unknownMessage).replaceAll(unknownId, '{id}'),
    `another account's endpoint is told apart from an absent one: ${short(foreignMessage)} vs ${short(unknownMessage)}`);
}, { needs: ['restV2'], requires: ['lbUrl', 'secondApiKey'], shares: [] });

/** A ready worker may take a cold start: the target holds a request up to its noWorkerWaitMs (120 s) itself. */
const FIRST_ANSWER_MS = 130_000;

defineCheck('LB-FORWARD-001', async (ctx) => {
  const endpointId = await lbEndpoint(ctx, ctx.target.lbWorkerImage);
  const probe = randomBytes(8).toString('hex');
  const path = `/conformance/echo/${probe}`;
  const sent = JSON.stringify({ probe, numbers: [1, 2, 3] });
  const answer = await ctx.lb(endpointId, {
    method: 'POST', path, search: 'alpha=1&beta=two%20words', body: sent, timeoutMs: FIRST_ANSWER_MS,
    headers: { 'content-type': 'application/json', 'x-conformance-probe': probe },
  });
  expect(answer.status === 200, `POST ${path} answered ${answer.status} ${short(answer.body ?? answer.text)}, not the echo worker's 200`);
  expect((answer.headers.get('content-type') ?? '').includes('application/json'), `the echo's content-type ${short(answer.headers.get('content-type'))} did not come back as the worker gave it (application/json)`);
  const echo = answer.body as { method?: unknown; path?: unknown; query?: Record<string, unknown>; headers?: Record<string, unknown>; body?: unknown } | undefined;
  const one = (value: unknown) => (Array.isArray(value) && value.length === 1 ? value[0] : value);
  const problems: string[] = [];
  if (echo?.method !== 'POST') problems.push(`method ${short(echo?.method)}, not POST`);
  if (echo?.path !== path) problems.push(`path ${short(echo?.path)}, not ${path}`);
  if (one(echo?.query?.['alpha']) !== '1' || one(echo?.query?.['beta']) !== 'two words') problems.push(`query ${short(echo?.query)}, not alpha=1&beta=two words`);
  if (echo?.body !== sent) problems.push(`body ${short(echo?.body)}, not ${sent}`);
  if (one(echo?.headers?.['x-conformance-probe']) !== probe) problems.push(`header x-conformance-probe ${short(echo?.headers?.['x-conformance-probe'])}, not ${probe}`);
  expect(problems.length === 0, `what the worker got (its echo) differs from what was sent:\n  ${problems.join('\n  ')}`);
}, { needs: ['restV2'], requires: ['lbUrl', 'lbWorkerImage'], shares: [], timeoutMs: FIRST_ANSWER_MS + 30_000 });
