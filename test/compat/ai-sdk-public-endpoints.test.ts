// The AI SDK with RunPod's provider against the mock's Public Endpoints (x-public-endpoints): no worker is
// set up — the mock starts with its defaults, and each model is reached only through the provider's `baseURL`,
// at the public endpoint's id (the same id the provider's own table names for the model on api.runpod.ai).
import { createRunpod } from '@runpod/ai-sdk-provider';
import { experimental_transcribe as transcribe, generateImage, generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, KEY } from '../mock/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start({ clock: 'real' });
});
afterAll(() => h.close());

const publicEndpoint = (aiApiId: string) => `${h.mock.url}/v2/${aiApiId}`;

describe('AI SDK + @runpod/ai-sdk-provider against Public Endpoints of the mock', () => {
  it('generateImage with Flux Schnell gets a PNG of the asked size', async () => {
    const runpod = createRunpod({ apiKey: KEY, baseURL: publicEndpoint('black-forest-labs-flux-1-schnell') });
    const { image } = await generateImage({ model: runpod.image('black-forest-labs/flux-1-schnell'), prompt: 'a harbour at dawn', size: '768x512', maxRetries: 0 });
    const png = Buffer.from(image.uint8Array);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([768, 512]);
  });

  it('generateText with Qwen3 32B answers over /openai/v1', async () => {
    const runpod = createRunpod({ apiKey: KEY, baseURL: `${publicEndpoint('qwen3-32b-awq')}/openai/v1` });
    const result = await generateText({ model: runpod('qwen/qwen3-32b-awq'), prompt: 'hello public endpoint', maxRetries: 0 });
    expect(result.text).toBe('echo: hello public endpoint');
    expect(result.finishReason).toBe('stop');
  });

  it('transcribe with Whisper v3 (bytes, sent as audio_base64) gets text and segments', async () => {
    // Provider 1.4's transcription model ignores `baseURL`; its other documented form, the endpoint URL as the
    // model id, is what points it at the mock (a model name would send it to api.runpod.ai).
    const runpod = createRunpod({ apiKey: KEY });
    const audio = new Uint8Array(300).fill(7);
    const result = await transcribe({
      model: runpod.transcription(publicEndpoint('whisper-v3-large')),
      audio,
      providerOptions: { runpod: { pollIntervalMillis: 20, maxPollAttempts: 100 } },
      maxRetries: 0,
    });
    expect(result.text).toBe('Mock transcription of 300 bytes of audio.');
    expect(result.segments.map((s) => s.text).join(' ')).toBe(result.text);
    expect(result.segments[1]).toMatchObject({ startSecond: 0.5, endSecond: 1 });
  });
});
