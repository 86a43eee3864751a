// Public Endpoints (specs/queue-v2 x-public-endpoints): a live config's aiApiId is a queue v2 endpoint every
// account calls with its own key; each account sees only its own jobs; offline and unknown ids are absent.
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ENDPOINT_CONFIGS } from '../../src/mock/simulated-workers/public-endpoints.js';
import { Harness, KEY } from './harness.js';

const KEY_B = 'key-of-acme';
const FLUX = 'black-forest-labs-flux-1-schnell';
const WHISPER = 'whisper-v3-large';
const QWEN = 'qwen3-32b-awq';
let h: Harness;

beforeAll(async () => {
  h = await Harness.start({ apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }, { key: KEY_B, scopes: ['read', 'write', 'jobs', 'graphql'], account: 'acme' }] });
});
afterAll(() => h.close());

const queue = (method: string, path: string, body?: unknown, key: string | null = KEY) => h.request(method, `${h.mock.url}/v2/${path}`, { body, key });

/** Width and height of a PNG data URL, read from its IHDR chunk, after checking the image data inflates. */
function pngSize(dataUrl: string): { width: number; height: number } {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  const idatAt = png.indexOf('IDAT');
  const idat = png.subarray(idatAt + 4, idatAt + 4 + png.readUInt32BE(idatAt - 4));
  const raw = inflateSync(idat);
  const size = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  expect(raw.length).toBe((1 + size.width * 3) * size.height);
  return size;
}

describe('x-public-endpoints: live public endpoint configs are callable by aiApiId', () => {
  it('the fixture has live configs of each modality the mock stands in for, and one offline', () => {
    const live = PUBLIC_ENDPOINT_CONFIGS.filter((c) => c.isLive).map((c) => c.aiApiId);
    expect(live).toEqual(expect.arrayContaining([FLUX, WHISPER, QWEN]));
    expect(PUBLIC_ENDPOINT_CONFIGS.some((c) => !c.isLive)).toBe(true);
  });

  it('an image model answers /runsync with image_url (a PNG of the asked size) and cost per megapixel', async () => {
    const res = await queue('POST', `${FLUX}/runsync`, { input: { prompt: 'a mountain', width: 512, height: 768, seed: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('COMPLETED');
    expect(res.body.id).toMatch(/^sync-/);
    expect(pngSize(res.body.output.image_url)).toEqual({ width: 512, height: 768 });
    expect(res.body.output.cost).toBeCloseTo((512 * 768) / 1e6 * 0.0024, 8);
  });

  it('the same prompt and seed give the same image; another prompt another', async () => {
    const run = async (prompt: string) => (await queue('POST', `${FLUX}/runsync`, { input: { prompt, width: 256, height: 256, seed: 1 } })).body.output.image_url as string;
    const first = await run('a cat');
    expect(await run('a cat')).toBe(first);
    expect(await run('a dog')).not.toBe(first);
  });

  it('a bad parameter fails the job with "Invalid parameter: …", as the model pages show', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ prompt: 'x', width: 1000 }, 'width must be divisible by 64'],
      [{ prompt: 'x', height: 2048 }, 'height must be between 256 and 1536'],
      [{ width: 512 }, 'prompt must be a non-empty string'],
      [{ prompt: 'x', image_format: 'gif' }, 'image_format must be png or jpeg'],
    ];
    for (const [input, message] of cases) {
      const res = await queue('POST', `${FLUX}/runsync`, { input });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'FAILED', error: `Invalid parameter: ${message}` });
    }
  });

  it('an audio model answers with a transcription and segments, and fetches nothing', async () => {
    const res = await queue('POST', `${WHISPER}/runsync`, { input: { audio: 'https://example.invalid/talk.mp3' } });
    expect(res.body.status).toBe('COMPLETED');
    expect(res.body.output.transcription).toContain('https://example.invalid/talk.mp3');
    expect(res.body.output.segments.length).toBeGreaterThan(0);
    expect(res.body.output.cost).toBeGreaterThan(0);
    const bad = await queue('POST', `${WHISPER}/runsync`, { input: { audio: 'file:///etc/passwd' } });
    expect(bad.body).toMatchObject({ status: 'FAILED', error: 'Invalid parameter: audio must be an http(s) URL' });
  });

  it('a language model serves /openai/v1 chat and names its model in /openai/v1/models', async () => {
    const chat = await queue('POST', `${QWEN}/openai/v1/chat/completions`, { model: 'Qwen/Qwen3-32B-AWQ', messages: [{ role: 'user', content: 'hi there' }] });
    expect(chat.status).toBe(200);
    expect(chat.body.choices[0].message.content).toBe('echo: hi there');
    const models = await queue('GET', `${QWEN}/openai/v1/models`);
    expect(models.body.data.map((m: { id: string }) => m.id)).toEqual(['Qwen/Qwen3-32B-AWQ']);
  });

  it('/run then /status reads the caller\'s job; another account gets 404 for the same job id', async () => {
    const submitted = await queue('POST', `${FLUX}/run`, { input: { prompt: 'async', width: 256, height: 256 } });
    expect(submitted.status).toBe(200);
    // status-sync answers once the job is done (the image is compressed in zlib's thread pool, in real time).
    const mine = await queue('GET', `${FLUX}/status-sync/${submitted.body.id}`);
    expect(mine.body.status).toBe('COMPLETED');
    expect(pngSize(mine.body.output.image_url)).toEqual({ width: 256, height: 256 });
    const theirs = await queue('GET', `${FLUX}/status/${submitted.body.id}`, undefined, KEY_B);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toMatch(/job not found/);
  });

  it('/health counts only the caller\'s own jobs', async () => {
    const completed = async (key: string) => (await queue('GET', `${WHISPER}/health`, undefined, key)).body.jobs.completed as number;
    const [mineBefore, theirsBefore] = [await completed(KEY), await completed(KEY_B)];
    const submitted = await queue('POST', `${WHISPER}/run`, { input: { audio: 'https://example.invalid/a.mp3' } }, KEY_B);
    expect((await queue('GET', `${WHISPER}/status-sync/${submitted.body.id}`, undefined, KEY_B)).body.status).toBe('COMPLETED');
    expect(await completed(KEY_B)).toBe(theirsBefore + 1);
    expect(await completed(KEY)).toBe(mineBefore);
  });

  it('an offline config and an unknown id answer 404 like an absent endpoint; no key is 401', async () => {
    const offline = PUBLIC_ENDPOINT_CONFIGS.find((c) => !c.isLive)!.aiApiId;
    for (const id of [offline, 'no-such-public-endpoint']) {
      const res = await queue('POST', `${id}/runsync`, { input: { prompt: 'x' } });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`endpoint ${id} not found`);
    }
    expect((await queue('POST', `${FLUX}/runsync`, { input: { prompt: 'x' } }, null)).status).toBe(401);
  });

  it('a public endpoint is in no account\'s endpoint list', async () => {
    const list = await h.request('GET', `${h.mock.restV1Url}/endpoints`, { key: KEY });
    expect(list.body.map((e: { id: string }) => e.id)).not.toContain(FLUX);
  });
});
