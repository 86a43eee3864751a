// The Vercel AI SDK (`ai`) with RunPod's official provider (`@runpod/ai-sdk-provider`) against endpoints on
// the mock, pointed there only by the provider's documented `baseURL` option. Workers are set by the mock's
// own options; every call is judged against what its worker was set to answer.
import { createRunpod } from '@runpod/ai-sdk-provider';
import { generateImage, generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, KEY } from '../mock/harness.js';
import type { WorkerJob } from '../../src/mock/index.js';
import { BUILTIN_WORKERS } from '../../src/mock/simulated-workers/builtins.js';

const STREAMED = ['Streams ', 'arrive ', 'in ', 'order.'];
let h: Harness;
let chatUrl: string;
let streamUrl: string;
let imageUrl: string;
const imageJobs: WorkerJob[] = [];

beforeAll(async () => {
  h = await Harness.start({
    clock: 'real',
    workers: {
      chat: (job: WorkerJob) => {
        const request = job.input['openai_input'] as { messages: { content: unknown }[] };
        const last = request.messages.at(-1)!.content;
        const text = Array.isArray(last) ? last.map((part: { text?: string }) => part.text ?? '').join('') : String(last);
        return `You said: ${text}`;
      },
      streamer: [{ stream: STREAMED, durationMs: 40 }],
      painter: (job: WorkerJob) => {
        imageJobs.push(job);
        return BUILTIN_WORKERS['image']!(job, undefined as never);
      },
    },
  });
  const endpoint = async (name: string) => h.mock.queueV2Url(await h.endpoint({ name }));
  chatUrl = `${await endpoint('chat')}/openai/v1`;
  streamUrl = `${await endpoint('streamer')}/openai/v1`;
  imageUrl = await endpoint('painter');
});
afterAll(() => h.close());

describe('AI SDK + @runpod/ai-sdk-provider', () => {
  it('generateText returns the worker\'s reply, finish reason and usage', async () => {
    const runpod = createRunpod({ apiKey: KEY, baseURL: chatUrl });
    const result = await generateText({ model: runpod('acme/tiny-chat'), prompt: 'hello mock', maxRetries: 0 });
    expect(result.text).toBe('You said: hello mock');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBe(Math.ceil('You said: hello mock'.length / 4));
    expect(result.usage.inputTokens).toBe(4 + Math.ceil('hello mock'.length / 4));
  });

  it('streamText yields the worker\'s chunks in order and finishes with stop', async () => {
    const runpod = createRunpod({ apiKey: KEY, baseURL: streamUrl });
    const result = streamText({ model: runpod('acme/tiny-chat'), prompt: 'tell me', maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.textStream) parts.push(part);
    expect(parts.join('')).toBe(STREAMED.join(''));
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBe(Math.ceil(STREAMED.join('').length / 4));
  });

  it('generateImage gets the image the worker returned ({image_url: data:…}) over /runsync', async () => {
    const runpod = createRunpod({ apiKey: KEY, baseURL: imageUrl });
    const { image } = await generateImage({ model: runpod.image('black-forest-labs/flux-1-schnell'), prompt: 'a lighthouse at dusk', size: '512x768', maxRetries: 0 });
    const png = Buffer.from(image.uint8Array);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 768]);
    expect(imageJobs.at(-1)!.input).toMatchObject({ prompt: 'a lighthouse at dusk', width: 512, height: 768 });
  });
});
