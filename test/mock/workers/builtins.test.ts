// Built-in workers named by a template's image (docs/workers.md "Built-in workers").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from '../harness.js';

let h: Harness;
beforeAll(async () => (h = await Harness.start()));
afterAll(() => h.close());

async function runsync(ep: string, input: Record<string, unknown>) {
  const pending = h.queue(ep, 'POST', '/runsync', { input });
  return (await pending).body;
}

describe('built-in workers', () => {
  it('compute-contract/image answers {image_url: data:image/png;base64,…} of the asked size', async () => {
    const ep = await h.endpoint({ templateId: await h.template({ imageName: 'compute-contract/image:latest' }) });
    const body = await runsync(ep, { prompt: 'a red fox', width: 32, height: 16 });
    expect(body).toMatchObject({ status: 'COMPLETED', output: { width: 32, height: 16, cost: 0 } });
    const png = Buffer.from(body.output.image_url.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 16]);
  });

  it('compute-contract/image fails a job without a prompt', async () => {
    const ep = await h.endpoint({ templateId: await h.template({ imageName: 'compute-contract/image' }) });
    expect(await runsync(ep, {})).toMatchObject({ status: 'FAILED', error: 'input.prompt must be a non-empty string' });
  });

  it('compute-contract/llm answers a plain job with {text}', async () => {
    const ep = await h.endpoint({ templateId: await h.template({ imageName: 'compute-contract/llm' }) });
    expect(await runsync(ep, { messages: [{ role: 'user', content: 'hello' }] })).toMatchObject({ status: 'COMPLETED', output: { text: 'echo: hello' } });
  });

  it('compute-contract/echo answers {echo: input}; an unknown compute-contract/ image keeps the default', async () => {
    const ep = await h.endpoint({ templateId: await h.template({ imageName: 'compute-contract/echo' }) });
    expect(await runsync(ep, { a: 1 })).toMatchObject({ status: 'COMPLETED', output: { echo: { a: 1 } } });
  });
});
