// REST v2 log streams (Server-Sent Events): RESTV2-LOGS-*. A stream may follow live lines for long, so
// it is read with a bound (events, a quiet gap, a total time) and closed, never to its end.
import { SseParser } from '../../src/clients/rest-v2/sse.js';
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { CheckFailure, type Answer } from '../../src/conform/http.js';
import { expectProblem } from './rest-v2-core.js';
import { untilStatus, v2Pod } from './rest-v2-pods.js';

interface LogEvent {
  id: string | undefined;
  source: string;
  line: string;
  ts: string;
}

interface LogAnswer extends Answer {
  events: LogEvent[];
  /** The server's Date header (ms, whole seconds): lines before it were backlog. */
  date: number;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
type LogOp = 'getPodLogs' | 'getWorkerLogs' | 'getEndpointBuildLogs' | 'getSandboxLogs';

interface ReadOptions {
  query?: Record<string, string | number>;
  lastEventId?: string;
  /** Stop after this many events. */
  max: number;
}

/** Reads a log stream until `max` events, the end, or a quiet gap; a 429 is waited out (at most 3 times). */
export async function readLog(ctx: Ctx, op: LogOp, path: Record<string, string>, options: ReadOptions): Promise<LogAnswer> {
  const url = ctx.http.url('restV2', op, { path, ...(options.query ? { query: options.query } : {}) });
  const headers: Record<string, string> = { authorization: `Bearer ${ctx.target.apiKey}`, accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  // Backlog arrives at once from a local mock; a remote service gets longer to send it.
  const quietMs = ctx.controlled ? 200 : 1_500;
  for (let attempt = 0; ; attempt++) {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal }).catch((error: unknown) => {
      throw new CheckFailure(`${op}: request failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (response.status === 429 && attempt < 3) {
      await response.text();
      await ctx.pass(Number(response.headers.get('retry-after') ?? '1') * 1000);
      continue;
    }
    const date = Date.parse(response.headers.get('date') ?? '');
    if (response.status !== 200) {
      const text = await response.text();
      const answer: LogAnswer = { status: response.status, body: text ? JSON.parse(text) : undefined, text, headers: response.headers, events: [], date };
      ctx.http.checkSchema('restV2', op, answer);
      return answer;
    }
    const events = await readEvents(response, abort, options.max, quietMs);
    const leak = ctx.http.secrets.find(events.text, undefined);
    if (leak) throw new CheckFailure(`secret leaked: ${op} streamed the ${leak}`);
    return { status: 200, body: undefined, text: events.text, headers: response.headers, events: events.list, date };
  }
}

async function readEvents(response: Response, abort: AbortController, max: number, quietMs: number): Promise<{ list: LogEvent[]; text: string }> {
  const parser = new SseParser();
  const list: LogEvent[] = [];
  let text = '';
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = Date.now() + 15_000;
  try {
    while (list.length < max && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<'quiet'>((resolve) => { timer = setTimeout(() => resolve('quiet'), quietMs); });
      const next = await Promise.race([reader.read(), quiet]);
      clearTimeout(timer);
      if (next === 'quiet' || next.done) break;
      text += next.value;
      for (const event of parser.feed(next.value)) {
        let data: Omit<LogEvent, 'id'>;
        try {
          data = JSON.parse(event.data) as Omit<LogEvent, 'id'>;
        } catch {
          throw new CheckFailure(`log event data is not JSON: ${event.data.slice(0, 80)}`);
        }
        list.push({ id: event.id, ...data });
      }
    }
  } finally {
    abort.abort();
    await reader.cancel().catch(() => undefined);
  }
  return { list, text };
}

/** Every event: id an RFC 3339 timestamp equal to data.ts, source container|system, a line; ids increase. */
export function expectEventShape(events: readonly LogEvent[], what: string): void {
  for (const [i, e] of events.entries()) {
    expect(typeof e.id === 'string' && RFC3339.test(e.id), `${what}: event ${i} id ${String(e.id)} is not an RFC 3339 timestamp`);
    expectEqual(e.id, e.ts, `${what}: event ${i} id vs data.ts`);
    expect(e.source === 'container' || e.source === 'system', `${what}: event ${i} source ${e.source}`);
    expect(typeof e.line === 'string', `${what}: event ${i} has no line`);
    if (i > 0) expect(Date.parse(e.ts) > Date.parse(events[i - 1]!.ts), `${what}: event ${i} id does not increase (${events[i - 1]!.ts} → ${e.ts})`);
  }
}

/** Events the server sent as backlog: stamped before the second its answer is dated. */
const backlog = (answer: LogAnswer): LogEvent[] => answer.events.filter((e) => Date.parse(e.ts) < answer.date);

/** A pod RUNNING for a while, so it has container lines. */
async function podWithLines(ctx: Ctx, seconds: number): Promise<string> {
  const pod = await v2Pod(ctx);
  await untilStatus(ctx, pod.id, ['RUNNING']);
  await ctx.pass(seconds * 1000);
  return pod.id as string;
}

defineCheck('RESTV2-LOGS-001', async (ctx) => {
  const id = await podWithLines(ctx, 3);
  const answer = await readLog(ctx, 'getPodLogs', { id }, { max: 20 });
  expectStatus(answer, 200, 'getPodLogs');
  expectEqual(answer.headers.get('content-type')?.split(';')[0], ctx.value('contentType'), 'getPodLogs Content-Type');
  expectEqual(answer.headers.get('cache-control'), ctx.value('cacheControl'), 'getPodLogs Cache-Control');
  expectEqual(answer.headers.get('x-accel-buffering'), ctx.value('accelBuffering'), 'getPodLogs X-Accel-Buffering');
  expect(answer.events.length > 0, 'getPodLogs of a pod running for 3 s sent no event');
  expectEventShape(answer.events, 'getPodLogs');
}, { shares: ['clock','restV2-quota'] });

defineCheck('RESTV2-LOGS-002', async (ctx) => {
  const id = await podWithLines(ctx, 10);
  const tail3 = await readLog(ctx, 'getPodLogs', { id }, { query: { tail: 3 }, max: 10 });
  expectStatus(tail3, 200, 'getPodLogs tail=3');
  const past = backlog(tail3);
  expect(past.length <= 3, `tail=3 sent ${past.length} past lines`);
  if (ctx.controlled) expectEqual(tail3.events.length, 3, 'events of tail=3 with the clock standing still');
  const none = await readLog(ctx, 'getPodLogs', { id }, { query: { tail: 0 }, max: 5 });
  expectEqual((ctx.controlled ? none.events : backlog(none)).length, 0, 'past lines of tail=0');
  const system = await readLog(ctx, 'getPodLogs', { id }, { query: { source: 'system' }, max: 50 });
  expect(system.events.length > 0 && system.events.every((e) => e.source === 'system'), `source=system sent ${JSON.stringify(system.events.map((e) => e.source))}`);
  const all = await readLog(ctx, 'getPodLogs', { id }, { query: { tail: 100 }, max: 30 });
  expect(all.events.length >= 4, `a pod running for 10 s has ${all.events.length} lines`);
  const since = all.events[2]!.ts;
  const fromSince = await readLog(ctx, 'getPodLogs', { id }, { query: { since, tail: 1 }, max: 5 });
  expectEqual(fromSince.events[0]?.ts, since, 'first event of since=<the third line\'s ts> (since overrides tail)');
  expect(fromSince.events.every((e) => Date.parse(e.ts) >= Date.parse(since)), 'since: an event before since');
}, { shares: ['clock','restV2-quota'] });

defineCheck('RESTV2-LOGS-003', async (ctx) => {
  const id = await podWithLines(ctx, 10);
  const full = await readLog(ctx, 'getPodLogs', { id }, { query: { tail: 100 }, max: 12 });
  expect(full.events.length >= 8, `a pod running for 10 s has ${full.events.length} lines`);
  const cursor = full.events[4]!;
  const resumed = await readLog(ctx, 'getPodLogs', { id }, { query: { tail: 1, since: '2000-01-01T00:00:00Z' }, lastEventId: cursor.id!, max: full.events.length - 5 });
  expectStatus(resumed, 200, 'getPodLogs with Last-Event-ID');
  expect(resumed.events.length > 0, 'resumed stream sent no event');
  const expected = full.events.slice(5, 5 + resumed.events.length).map((e) => e.id);
  expectEqual(resumed.events.map((e) => e.id), expected, 'ids after Last-Event-ID (no repeat, no gap; tail and since overridden)');
}, { shares: ['clock','restV2-quota'] });

defineCheck('RESTV2-LOGS-004', async (ctx) => {
  const id = await podWithLines(ctx, 2);
  const url = ctx.http.url('restV2', 'getPodLogs', { path: { id }, query: { tail: 0 } });
  const parser = new SseParser();
  const got: LogEvent[] = [];
  let raw = '';
  const abort = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${ctx.target.apiKey}` }, signal: abort.signal });
  expectStatus({ status: response.status } as Answer, 200, 'getPodLogs');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let ended = false;
  const pump = (async () => {
    for (;;) {
      const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (next.done) return void (ended = true);
      raw += next.value;
      for (const e of parser.feed(next.value)) got.push({ id: e.id, ...(JSON.parse(e.data) as Omit<LogEvent, 'id'>) });
    }
  })();
  const settle = async (what: () => boolean) => {
    for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 5));
  };
  try {
    await settle(() => raw.length > 0);
    expect(raw.startsWith(`retry: ${ctx.value<number>('retryMs')}\n`), `stream does not start with retry: ${ctx.value<number>('retryMs')}`);
    await ctx.pass(3 * ctx.value<number>('lineIntervalMs'));
    await settle(() => got.length >= 3);
    expectEqual(got.map((e) => e.source), ['container', 'container', 'container'], 'lines of 3 s followed live');
    await ctx.pass(ctx.value<number>('followMs'));
    await settle(() => ended);
    expect(ended, `the stream did not end after ${ctx.value<number>('followMs')} ms of mock time`);
    const second = await fetch(url, { headers: { authorization: `Bearer ${ctx.target.apiKey}` } });
    const text = second.text();
    await new Promise((r) => setTimeout(r, 20));
    expectStatus(await ctx.v2('podAction', { path: { id }, body: { action: 'terminate' } }), 204, 'terminate');
    const rest = await text;
    expect(rest.includes('"source":"system"'), `the stream of a terminated pod ended without its last system line: ${rest.slice(-120)}`);
  } finally {
    abort.abort();
    await pump;
  }
}, { shares: ['clock','restV2-quota'], requires: ['embedded'] });

defineCheck('RESTV2-LOGS-005', async (ctx) => {
  const endpoint = await ctx.v2('createEndpoint', {
    body: { name: ctx.name('logs-ep'), type: 'QUEUE', image: ctx.target.workerImage, gpu: { pools: ['ADA_24'] }, scaling: { type: 'QUEUE_DELAY', queueDelay: 4 }, workers: { min: 1, max: 1 } },
  });
  expectStatus(endpoint, 201, 'createEndpoint with one worker kept');
  const endpointId = String(endpoint.body.id);
  ctx.cleanup(() => ctx.v2('deleteEndpoint', { path: { id: endpointId } }));
  let workerId: string | undefined;
  for (let i = 0; i < 120 && workerId === undefined; i++) {
    const workers = await ctx.v2('listEndpointWorkers', { path: { id: endpointId } });
    expectStatus(workers, 200, 'listEndpointWorkers');
    workerId = (workers.body.workers as { id: string }[])[0]?.id;
    if (workerId === undefined) await ctx.pass(1_000);
  }
  if (workerId === undefined) throw new CheckFailure('the endpoint listed no worker within 120 s');
  await ctx.pass(2_000);
  const logs = await readLog(ctx, 'getWorkerLogs', { id: endpointId, workerId }, { query: { tail: 100 }, max: 5 });
  expectStatus(logs, 200, 'getWorkerLogs');
  expectEventShape(logs.events, 'getWorkerLogs');
  expectEqual(logs.events[0]?.source, 'system', 'first line of a worker log');
  const unknown = ctx.value<number>('unknown');
  expectProblem(await readLog(ctx, 'getWorkerLogs', { id: endpointId, workerId: 'cc-no-such-worker' }, { max: 1 }), unknown, 'getWorkerLogs of an unknown worker');
  expectProblem(await readLog(ctx, 'getWorkerLogs', { id: 'cc-no-such-endpoint', workerId }, { max: 1 }), unknown, 'getWorkerLogs of an unknown endpoint');
  const bad = ctx.value<number>('badCursor');
  expectProblem(await readLog(ctx, 'getWorkerLogs', { id: endpointId, workerId }, { query: { tail: 5001 }, max: 1 }), bad, 'tail=5001');
  expectProblem(await readLog(ctx, 'getWorkerLogs', { id: endpointId, workerId }, { query: { since: 'yesterday' }, max: 1 }), bad, 'since=yesterday');
  expectProblem(await readLog(ctx, 'getWorkerLogs', { id: endpointId, workerId }, { lastEventId: 'line-7', max: 1 }), bad, 'Last-Event-ID: line-7');
}, { shares: ['clock','restV2-quota'] });
