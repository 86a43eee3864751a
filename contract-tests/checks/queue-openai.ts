// /openai/* as RunPod's vLLM workers serve it (QUEUE-OPENAI-002..005): OpenAI's answer and stream shapes,
// judged without assuming what the model says. Streams are read with a bound (events, total time).
import { SseParser } from '../../src/clients/rest-v2/sse.js';
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, short, type Ctx } from '../../src/conform/context.js';
import { CheckFailure } from '../../src/conform/http.js';

const MAX_EVENTS = 4_096;
const DONE = '[DONE]';

interface StreamAnswer {
  status: number;
  contentType: string;
  /** Each event's data: parsed JSON, or the literal `[DONE]`. */
  events: unknown[];
}

async function openaiStream(ctx: Ctx, endpointId: string, path: string, body: Record<string, unknown>): Promise<StreamAnswer> {
  const url = ctx.http.url('queueV2', 'openaiProxy', { endpointId, path: { openaiPath: path } });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ctx.http.requestTimeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.target.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ ...body, stream: true }),
      signal: abort.signal,
    });
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (response.status !== 200 || !response.body) return { status: response.status, contentType, events: [] };
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const events: unknown[] = [];
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      for (const event of parser.feed(decoder.decode(bytes, { stream: true }))) {
        events.push(event.data === DONE ? DONE : parseEvent(event.data));
        if (events.length >= MAX_EVENTS) abort.abort();
      }
    }
    return { status: 200, contentType, events };
  } catch (error) {
    if (abort.signal.aborted) throw new CheckFailure(`openaiProxy ${path}: the stream did not end within ${ctx.http.requestTimeoutMs} ms or ${MAX_EVENTS} events`);
    throw new CheckFailure(`openaiProxy ${path}: request failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function parseEvent(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new CheckFailure(`an event's data is neither JSON nor [DONE]: ${short(data)}`);
  }
}

/** The model the endpoint's workers serve (GET v1/models), to ask for it by name. */
async function servedModel(ctx: Ctx, endpointId: string): Promise<string> {
  const models = await ctx.queue(endpointId, 'openaiProxyGet', { path: { openaiPath: 'v1/models' } });
  expectStatus(models, 200, 'openaiProxyGet v1/models');
  const id = models.body?.data?.[0]?.id;
  expect(typeof id === 'string' && id !== '', `v1/models names no model: ${short(models.body)}`);
  return id;
}

type Chunk = { id?: unknown; object?: unknown; choices?: { delta?: { content?: unknown }; text?: unknown; finish_reason?: unknown }[]; usage?: unknown };

/** One id, the object kind, a final finish_reason, [DONE] last; returns the chunks (without [DONE]). */
function judgeStream(answer: StreamAnswer, object: string, what: string): Chunk[] {
  expectStatus(answer as never, 200, what);
  expectEqual(answer.contentType, 'text/event-stream', `${what} content type`);
  expect(answer.events.at(-1) === DONE, `${what}: the stream does not end with data: [DONE] (last event: ${short(answer.events.at(-1))})`);
  const chunks = answer.events.slice(0, -1) as Chunk[];
  expect(chunks.length > 0 && !chunks.includes(DONE as never), `${what}: no chunk before [DONE], or [DONE] twice`);
  const ids = new Set(chunks.map((c) => c.id));
  expect(ids.size === 1 && typeof chunks[0]!.id === 'string', `${what}: chunks carry ${ids.size} ids; one expected`);
  for (const chunk of chunks) expectEqual(chunk.object, object, `${what} chunk object`);
  const withChoices = chunks.filter((c) => (c.choices?.length ?? 0) > 0);
  const finishes = withChoices.filter((c) => c.choices!.some((choice) => choice.finish_reason !== null && choice.finish_reason !== undefined));
  expect(finishes.length === 1 && finishes[0] === withChoices.at(-1), `${what}: exactly the last chunk with choices must carry finish_reason`);
  return chunks;
}

function judgeUsage(usage: unknown, what: string): void {
  const u = usage as Record<string, unknown> | undefined;
  const [p, c, t] = [u?.['prompt_tokens'], u?.['completion_tokens'], u?.['total_tokens']];
  expect([p, c, t].every((n) => Number.isInteger(n) && (n as number) >= 0), `${what}: usage ${short(usage)} lacks token counts`);
  expect((p as number) > 0 && (c as number) > 0, `${what}: usage ${short(usage)} counts no prompt or no completion tokens`);
  expectEqual(t, (p as number) + (c as number), `${what}: total_tokens = prompt + completion`);
}

const chatBody = (model: string) => ({ model, messages: [{ role: 'user', content: 'Say hello in five words.' }], max_tokens: 32 });

defineCheck('QUEUE-OPENAI-002', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const model = await servedModel(ctx, endpointId);
  const chunks = judgeStream(await openaiStream(ctx, endpointId, 'v1/chat/completions', chatBody(model)), 'chat.completion.chunk', 'chat stream');
  const text = chunks.map((c) => c.choices?.[0]?.delta?.content).filter((t) => typeof t === 'string').join('');
  expect(text.length > 0, 'chat stream: the deltas carry no content');
}, { needs: ['jobs'] });

defineCheck('QUEUE-OPENAI-003', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const model = await servedModel(ctx, endpointId);
  const whole = await ctx.queue(endpointId, 'openaiProxy', { path: { openaiPath: 'v1/chat/completions' }, body: chatBody(model) });
  expectStatus(whole, 200, 'chat completion');
  judgeUsage(whole.body?.usage, 'chat completion');
  const answer = await openaiStream(ctx, endpointId, 'v1/chat/completions', { ...chatBody(model), stream_options: { include_usage: true } });
  const chunks = judgeStream(answer, 'chat.completion.chunk', 'chat stream with include_usage');
  const last = chunks.at(-1)!;
  expect((last.choices?.length ?? -1) === 0, `chat stream with include_usage: the last chunk has choices ${short(last.choices)}; [] expected`);
  judgeUsage(last.usage, 'chat stream usage chunk');
}, { needs: ['jobs'] });

defineCheck('QUEUE-OPENAI-004', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const model = await servedModel(ctx, endpointId);
  const body = { model, prompt: 'Once upon a time', max_tokens: 16 };
  const whole = await ctx.queue(endpointId, 'openaiProxy', { path: { openaiPath: 'v1/completions' }, body });
  expectStatus(whole, 200, 'completion');
  expectEqual(whole.body?.object, 'text_completion', 'completion object');
  const choice = whole.body?.choices?.[0];
  expect(typeof choice?.text === 'string' && typeof choice?.finish_reason === 'string', `completion choice ${short(choice)} lacks text or finish_reason`);
  const chunks = judgeStream(await openaiStream(ctx, endpointId, 'v1/completions', body), 'text_completion', 'completion stream');
  expect(chunks.some((c) => typeof c.choices?.[0]?.text === 'string'), 'completion stream: no chunk carries text');
}, { needs: ['jobs'] });

defineCheck('QUEUE-OPENAI-005', async (ctx) => {
  const endpointId = await ctx.endpoint();
  const models = await ctx.queue(endpointId, 'openaiProxyGet', { path: { openaiPath: 'v1/models' } });
  expectStatus(models, 200, 'openaiProxyGet v1/models');
  expectEqual(models.body?.object, 'list', 'v1/models object');
  const data = models.body?.data as Record<string, unknown>[] | undefined;
  expect(Array.isArray(data) && data.length > 0, 'v1/models lists no model');
  for (const model of data!) {
    expect(typeof model['id'] === 'string' && model['object'] === 'model' && Number.isInteger(model['created']) && typeof model['owned_by'] === 'string', `v1/models entry ${short(model)} is not {id, object: model, created, owned_by}`);
  }
  const chat = await ctx.queue(endpointId, 'openaiProxy', { path: { openaiPath: 'v1/chat/completions' }, body: chatBody(String(data![0]!['id'])) });
  expectStatus(chat, 200, 'chat completion with the listed model');
}, { needs: ['jobs'] });
