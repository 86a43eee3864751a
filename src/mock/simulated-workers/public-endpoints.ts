// RunPod's Public Endpoints as queue v2 endpoints every account can call (specs/queue-v2 `x-public-endpoints`):
// the live configs of specs/fixtures/graphql-public/public-endpoints.json, called by their `aiApiId`, each
// answered by a model stand-in of its modality. The input checks and output fields follow RunPod's model pages
// (image: `{image_url, cost}`, audio: `{transcription, cost}`, language: the LLM worker and `/openai/*`).
// Nothing is fetched: an audio URL is only named in the transcription, never downloaded.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { packageFile } from '../../contract/package-files.js';
import { BUILTIN_WORKERS } from './builtins.js';
import { solidPngAsync } from './png.js';
import type { WorkerHandler } from './types.js';

export interface PublicEndpointConfig {
  id: string;
  aiApiId: string;
  modelName: string;
  displayName: string;
  metadata: string;
  isLive: boolean;
  [field: string]: unknown;
}

export const PUBLIC_ENDPOINT_CONFIGS: readonly PublicEndpointConfig[] = JSON.parse(
  readFileSync(packageFile('specs/fixtures/graphql-public/public-endpoints.json'), 'utf8'),
) as PublicEndpointConfig[];

/** Image sides the image models take (RunPod's Flux pages): a multiple of 64 from 256 to 1536. */
export const PUBLIC_IMAGE_SIDE = { min: 256, max: 1536, multipleOf: 64, default: 1024 } as const;
/** Longest prompt or audio URL a public endpoint stand-in takes (characters). */
export const MAX_PUBLIC_TEXT_LENGTH = 10_000;

interface Modality {
  source: string;
  /** USD per unit of the config's price string. */
  price: number;
}

function modalityOf(config: PublicEndpointConfig): Modality {
  let meta: { source?: unknown; priceString?: unknown } = {};
  try {
    meta = JSON.parse(config.metadata) as typeof meta;
  } catch {
    // A fixture without metadata is answered by the echo worker (source '').
  }
  const price = typeof meta.priceString === 'string' ? Number(/\$([0-9.]+)/.exec(meta.priceString)?.[1] ?? 0) : 0;
  return { source: typeof meta.source === 'string' ? meta.source : '', price };
}

/** The live public endpoint with this `aiApiId`; an offline or unknown one is undefined (answered as an absent endpoint). */
export function livePublicEndpoint(aiApiId: string): PublicEndpointConfig | undefined {
  return PUBLIC_ENDPOINT_CONFIGS.find((config) => config.aiApiId === aiApiId && config.isLive);
}

/** The job fails as RunPod's public endpoints fail on a bad parameter ("Invalid parameter: …"). */
function invalid(message: string): never {
  throw new Error(`Invalid parameter: ${message}`);
}

function text(input: Record<string, unknown>, field: string, required: boolean): string {
  const value = input[field];
  if (value === undefined && !required) return '';
  if (typeof value !== 'string' || (required && value.trim() === '')) invalid(`${field} must be a non-empty string`);
  if (value.length > MAX_PUBLIC_TEXT_LENGTH) invalid(`${field} must be at most ${MAX_PUBLIC_TEXT_LENGTH} characters`);
  return value;
}

function imageSide(input: Record<string, unknown>, field: 'width' | 'height'): number {
  const value = input[field] ?? PUBLIC_IMAGE_SIDE.default;
  const { min, max, multipleOf } = PUBLIC_IMAGE_SIDE;
  if (typeof value !== 'number' || !Number.isInteger(value)) invalid(`${field} must be an integer`);
  if (value < min || value > max) invalid(`${field} must be between ${min} and ${max}`);
  if (value % multipleOf !== 0) invalid(`${field} must be divisible by ${multipleOf}`);
  return value;
}

/** Text to image: a solid PNG of the asked size whose colour follows prompt and seed; cost per megapixel. */
function imageModel(modality: Modality): WorkerHandler {
  return async (job) => {
    const prompt = text(job.input, 'prompt', true);
    const width = imageSide(job.input, 'width');
    const height = imageSide(job.input, 'height');
    const format = job.input['image_format'] ?? 'jpeg';
    if (format !== 'png' && format !== 'jpeg') invalid('image_format must be png or jpeg');
    const seed = typeof job.input['seed'] === 'number' ? job.input['seed'] : -1;
    const digest = createHash('sha256').update(`${prompt}\u0000${seed}`).digest();
    // Deflated off the event loop: a 1536² image is 7 MB of raw rows.
    const png = await solidPngAsync(width, height, [digest[0]!, digest[1]!, digest[2]!]);
    const cost = Number(((width * height) / 1_000_000 * modality.price).toFixed(8));
    // A PNG either way: the mock has no JPEG encoder, and the data URL says which it is.
    return { image_url: `data:image/png;base64,${png.toString('base64')}`, cost };
  };
}

/** Largest `audio_base64` an audio model takes (characters; the queue's 20 MB body bounds it too). */
export const MAX_PUBLIC_AUDIO_BASE64_LENGTH = 10 * 1024 * 1024;

/**
 * Speech to text: nothing is downloaded or decoded. The audio is an http(s) `audio` URL (RunPod's model page)
 * or `audio_base64` (what the AI SDK provider sends for bytes); the transcription names it. The output carries
 * the page's `transcription` and the provider's `text`, `segments` and `duration`; cost per 1000 characters.
 */
function audioModel(modality: Modality): WorkerHandler {
  return (job) => {
    const source = audioSource(job.input);
    const prompt = text(job.input, 'prompt', false) || text(job.input, 'initial_prompt', false);
    const transcription = `Mock transcription of ${source}${prompt === '' ? '' : ` (prompt: ${prompt})`}.`;
    const words = transcription.split(' ');
    const segments = words.map((word, i) => ({ id: i, start: i * 0.5, end: i * 0.5 + 0.5, text: word }));
    const cost = Number(((transcription.length / 1000) * modality.price).toFixed(8));
    return { transcription, text: transcription, segments, duration: words.length * 0.5, cost };
  };
}

function audioSource(input: Record<string, unknown>): string {
  const base64 = input['audio_base64'];
  if (input['audio'] === undefined && base64 !== undefined) {
    if (typeof base64 !== 'string' || base64 === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) invalid('audio_base64 must be a non-empty base64 string');
    if (base64.length > MAX_PUBLIC_AUDIO_BASE64_LENGTH) invalid(`audio_base64 must be at most ${MAX_PUBLIC_AUDIO_BASE64_LENGTH} characters`);
    return `${Math.floor((base64.length * 3) / 4)} bytes of audio`;
  }
  const audio = text(input, 'audio', true);
  if (!/^https?:\/\//.test(audio)) invalid('audio must be an http(s) URL');
  return audio;
}

/** Workers of one account's calls to a public endpoint: none idle, a few on demand (no GPU type to run out of). */
export const PUBLIC_ENDPOINT_WORKERS = { workersMin: 0, workersMax: 5, idleTimeout: 5 } as const;

const stands = new Map<string, WorkerHandler>();

/** The stand-in that answers a live public endpoint's jobs (and `/openai/*` for language models). */
export function publicEndpointWorker(config: PublicEndpointConfig): WorkerHandler {
  let stand = stands.get(config.aiApiId);
  if (!stand) stands.set(config.aiApiId, (stand = standIn(config)));
  return stand;
}

function standIn(config: PublicEndpointConfig): WorkerHandler {
  const modality = modalityOf(config);
  switch (modality.source) {
    case 'image': return imageModel(modality);
    case 'audio': return audioModel(modality);
    case 'language': return BUILTIN_WORKERS['llm']!;
    default: return BUILTIN_WORKERS['echo']!;
  }
}

/**
 * The job engine's key of an account's calls to a public endpoint. Every account calls the same `aiApiId`, but
 * each sees only its own jobs, queue and rate windows, so the engine keeps one queue per (endpoint, account).
 */
const ENGINE_KEY_SEPARATOR = '\u0000';
export const publicEngineKey = (aiApiId: string, account: string): string => `${aiApiId}${ENGINE_KEY_SEPARATOR}${account}`;

/** The public endpoint an engine key belongs to, or undefined for an account's own endpoint id. */
export function publicEndpointOfKey(engineKey: string): PublicEndpointConfig | undefined {
  const at = engineKey.indexOf(ENGINE_KEY_SEPARATOR);
  return at === -1 ? undefined : livePublicEndpoint(engineKey.slice(0, at));
}
