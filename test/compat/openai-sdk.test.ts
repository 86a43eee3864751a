// The official `openai` SDK against /openai/v1 of an endpoint on the mock, pointed there only by its documented
// `baseURL` option, as RunPod's vLLM worker docs show. The endpoints' workers are set by the mock's own options
// (startMock `workers`), and every call is judged against what its worker was set to answer.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, KEY } from '../mock/harness.js';
import type { WorkerJob } from '../../src/mock/index.js';

const STREAMED = ['The ', 'quick ', 'brown ', 'fox'];
let h: Harness;
let scripted: OpenAI;
let streaming: OpenAI;
let failing: OpenAI;

/** The scripted worker's reply (RunPod's vLLM worker contract: input {openai_route, openai_input}). */
function reply(job: WorkerJob): string {
  const request = job.input['openai_input'] as { messages?: { content: string }[]; prompt?: string };
  return job.input['openai_route'] === '/v1/completions' ? `continued: ${request.prompt}` : `Hello, ${request.messages!.at(-1)!.content}!`;
}

/** usage by the documented approximation: ceil(chars / 4), plus 4 per chat message. */
const tokens = (text: string) => Math.ceil(text.length / 4);

beforeAll(async () => {
  h = await Harness.start({
    workers: {
      scripted: reply,
      streaming: [{ match: { openai_route: '/v1/chat/completions' }, stream: STREAMED, durationMs: 0 }],
      failing: () => {
        throw new Error('CUDA out of memory');
      },
    },
  });
  const client = async (name: string) => {
    const templateId = await h.template({ env: { MODEL_NAME: 'acme/tiny-chat' } });
    const ep = await h.endpoint({ name, templateId });
    return new OpenAI({ apiKey: KEY, baseURL: `${h.mock.queueV2Url(ep)}/openai/v1`, maxRetries: 0 });
  };
  [scripted, streaming, failing] = await Promise.all([client('scripted'), client('streaming'), client('failing')]);
});
afterAll(() => h.close());

describe('openai SDK against /openai/v1', () => {
  it('models.list() lists the model the workers serve (MODEL_NAME)', async () => {
    const models = [];
    for await (const model of scripted.models.list()) models.push(model);
    expect(models).toEqual([expect.objectContaining({ id: 'acme/tiny-chat', object: 'model', owned_by: 'vllm' })]);
  });

  it('chat.completions.create answers the worker\'s reply with usage', async () => {
    const answer = await scripted.chat.completions.create({ model: 'acme/tiny-chat', messages: [{ role: 'user', content: 'Ada' }] });
    expect(answer.choices[0]!.message.content).toBe('Hello, Ada!');
    expect(answer.choices[0]!.finish_reason).toBe('stop');
    expect(answer.usage).toEqual({ prompt_tokens: 4 + tokens('Ada'), completion_tokens: tokens('Hello, Ada!'), total_tokens: 4 + tokens('Ada') + tokens('Hello, Ada!') });
  });

  it('chat.completions.create({stream: true}) yields the worker\'s chunks in order, a finish_reason and usage', async () => {
    const stream = await streaming.chat.completions.create({
      model: 'acme/tiny-chat', messages: [{ role: 'user', content: 'go' }], stream: true, stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta.content ?? '')).filter((t) => t !== '');
    expect(deltas).toEqual(STREAMED);
    expect(chunks.filter((c) => c.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 4 + tokens('go'), completion_tokens: tokens(STREAMED.join('')), total_tokens: 4 + tokens('go') + tokens(STREAMED.join('')) });
  });

  it('a text reply streams word by word when the request asks for a stream', async () => {
    const stream = await scripted.chat.completions.create({ model: 'acme/tiny-chat', messages: [{ role: 'user', content: 'Grace Hopper' }], stream: true });
    let text = '';
    let pieces = 0;
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content;
      if (piece) (text += piece), pieces++;
    }
    expect(text).toBe('Hello, Grace Hopper!');
    expect(pieces).toBe(3);
  });

  it('completions.create, whole and streamed', async () => {
    const whole = await scripted.completions.create({ model: 'acme/tiny-chat', prompt: 'Once upon' });
    expect(whole.object).toBe('text_completion');
    expect(whole.choices[0]!.text).toBe('continued: Once upon');
    expect(whole.usage?.completion_tokens).toBe(tokens('continued: Once upon'));
    const stream = await scripted.completions.create({ model: 'acme/tiny-chat', prompt: 'Once upon', stream: true });
    let text = '';
    const finishes: unknown[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    }
    expect(text).toBe('continued: Once upon');
    expect(finishes).toEqual(['stop']);
  });

  it('a worker that throws: the SDK raises InternalServerError naming the worker\'s error', async () => {
    const call = failing.chat.completions.create({ model: 'acme/tiny-chat', messages: [{ role: 'user', content: 'x' }] });
    await expect(call).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    await expect(failing.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(/CUDA out of memory/);
  });

  it('the queue\'s auth applies: a wrong key is refused with AuthenticationError', async () => {
    const stranger = new OpenAI({ apiKey: 'wrong-key', baseURL: scripted.baseURL, maxRetries: 0 });
    await expect(stranger.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
