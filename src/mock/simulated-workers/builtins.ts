// Built-in workers a template's image can name, so a test gets a realistic output shape with no code:
// compute-contract/echo, compute-contract/image, compute-contract/llm (docs/workers.md).
import { createHash } from 'node:crypto';
import { solidPng } from './png.js';
import type { WorkerHandler } from './types.js';

/** Largest side of a built-in image (pixels); a larger asked size is clamped. */
export const MAX_BUILTIN_IMAGE_SIDE = 1024;
const DEFAULT_IMAGE_SIDE = 512;

/** `{echo: input}`: the default worker's output, named. */
const echo: WorkerHandler = (job) => ({ echo: job.input });

/**
 * `{image_url: data:image/png;base64,…, width, height, seed, cost: 0}`: a solid PNG whose colour follows the
 * prompt (and seed), of the asked `width`/`height` or `size: "W*H"` (default 512, at most 1024 per side).
 */
const image: WorkerHandler = (job) => {
  const input = job.input;
  const prompt = typeof input['prompt'] === 'string' ? input['prompt'] : '';
  if (prompt === '') throw new Error('input.prompt must be a non-empty string');
  const [sizeWidth, sizeHeight] = typeof input['size'] === 'string' ? input['size'].split(/[*x]/).map(Number) : [];
  const width = side(input['width'] ?? sizeWidth);
  const height = side(input['height'] ?? sizeHeight);
  const seed = typeof input['seed'] === 'number' ? input['seed'] : -1;
  const digest = createHash('sha256').update(`${prompt}\u0000${seed}`).digest();
  const png = solidPng(width, height, [digest[0]!, digest[1]!, digest[2]!]);
  return { image_url: `data:image/png;base64,${png.toString('base64')}`, width, height, seed, cost: 0 };
};

function side(value: unknown): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) return DEFAULT_IMAGE_SIDE;
  return Math.min(n, MAX_BUILTIN_IMAGE_SIDE);
}

/**
 * The LLM worker: answers what RunPod's vLLM worker gets through `/openai/*` (`{openai_route, openai_input}`)
 * and a plain job (`{prompt}` or `{messages}`) alike, with `echo: ` and the last user text. The OpenAI
 * framing (ids, chunks, usage) is the route's (openai/frame.ts), so a stub or module answering a string gets it too.
 */
const llm: WorkerHandler = (job) => {
  const openaiInput = job.input['openai_input'];
  const request = typeof openaiInput === 'object' && openaiInput !== null ? (openaiInput as Record<string, unknown>) : job.input;
  const route = job.input['openai_route'];
  // A route vLLM serves beyond the two text routes (embeddings, tokenize…): an echo of the request, as JSON.
  if (route !== undefined && route !== '/v1/chat/completions' && route !== '/v1/completions') return { object: 'mock', route, echo: request };
  const text = `echo: ${lastUserText(request)}`;
  return route === undefined ? { text } : text;
};

/** The last user message's text (chat), or the prompt (completions). */
export function lastUserText(request: Record<string, unknown>): string {
  const messages = Array.isArray(request['messages']) ? (request['messages'] as { role?: unknown; content?: unknown }[]) : undefined;
  if (messages) {
    const last = [...messages].reverse().find((m) => m?.role === 'user') ?? messages[messages.length - 1];
    return contentText(last?.content);
  }
  const prompt = request['prompt'];
  if (Array.isArray(prompt)) return prompt.map(String).join('\n');
  return typeof prompt === 'string' ? prompt : '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  // Content parts: [{type: 'text', text}, …]
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

export const BUILTIN_IMAGE_PREFIX = 'compute-contract/';
export const BUILTIN_WORKERS: Readonly<Record<string, WorkerHandler>> = { echo, image, llm };

/** The built-in a template image names (`compute-contract/image`, `…/image:1.0`); undefined for any other image. */
export function builtinOfImage(imageName: unknown): { name: string; handler: WorkerHandler } | undefined {
  if (typeof imageName !== 'string' || !imageName.startsWith(BUILTIN_IMAGE_PREFIX)) return undefined;
  const name = imageName.slice(BUILTIN_IMAGE_PREFIX.length).split(/[:@]/)[0]!;
  const handler = Object.hasOwn(BUILTIN_WORKERS, name) ? BUILTIN_WORKERS[name] : undefined;
  return handler ? { name, handler } : undefined;
}
