// Reads recorded traffic (HAR 1.2, as browsers and recording proxies write it) into exchanges.
// Bounded: the file may hold at most MAX_HAR_BYTES and MAX_HAR_ENTRIES entries; anything else is a
// HarError naming the place, which the CLI turns into exit code 2.
import { readFileSync, statSync } from 'node:fs';
import { headerRecord, MAX_CAPTURED_BODY_BYTES, type CapturedBody, type Exchange } from './exchange.js';

export const MAX_HAR_BYTES = 64 * 1024 * 1024;
export const MAX_HAR_ENTRIES = 10_000;

export class HarError extends Error {
  override name = 'HarError';
}

export interface HarEntry {
  exchange: Exchange;
  /** The whole recorded answer body (the exchange keeps the first MAX_CAPTURED_BODY_BYTES of it). */
  fullResponseBody: Buffer;
}

/** An entry the recorder saw no answer for (status 0: blocked, cancelled, failed). */
export interface HarMiss {
  missing: true;
  method: string;
  url: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function headersOf(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (!Array.isArray(value)) throw new HarError(`${where}: headers must be an array of {name, value}`);
  return headerRecord(value.map((h, i) => {
    if (!isObject(h) || typeof h['name'] !== 'string' || typeof h['value'] !== 'string') throw new HarError(`${where}: headers[${i}] must be {name, value} strings`);
    return [h['name'], h['value']] as const;
  }));
}

function bytesOf(text: unknown, encoding: unknown, where: string): Buffer | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== 'string') throw new HarError(`${where}: text must be a string`);
  if (encoding === undefined || encoding === '') return Buffer.from(text, 'utf8');
  if (encoding === 'base64') return Buffer.from(text, 'base64');
  throw new HarError(`${where}: encoding "${String(encoding)}" is not supported (only base64)`);
}

function captured(bytes: Buffer | undefined): CapturedBody {
  if (bytes === undefined) return { bytes: Buffer.alloc(0), totalBytes: 0, recorded: false };
  return { bytes: bytes.length > MAX_CAPTURED_BODY_BYTES ? bytes.subarray(0, MAX_CAPTURED_BODY_BYTES) : bytes, totalBytes: bytes.length, recorded: true };
}

function entryOf(entry: unknown, index: number): HarEntry | HarMiss {
  const where = `entry ${index}`;
  if (!isObject(entry) || !isObject(entry['request']) || !isObject(entry['response'])) throw new HarError(`${where}: needs request and response objects`);
  const request = entry['request'];
  const response = entry['response'];
  const method = request['method'];
  const url = request['url'];
  if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method)) throw new HarError(`${where}: request.method must be an HTTP method`);
  if (typeof url !== 'string' || !URL.canParse(url)) throw new HarError(`${where}: request.url must be an absolute URL`);
  const status = response['status'];
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 0 || status > 999) throw new HarError(`${where}: response.status must be an integer`);
  if (status === 0) return { missing: true, method, url };
  const postData = request['postData'];
  if (postData !== undefined && !isObject(postData)) throw new HarError(`${where}: request.postData must be an object`);
  const content = response['content'];
  if (content !== undefined && !isObject(content)) throw new HarError(`${where}: response.content must be an object`);
  // A request without postData had no body; an answer without content.text was not recorded.
  const requestBytes = postData ? bytesOf(postData['text'], postData['encoding'], `${where} request.postData`) : Buffer.alloc(0);
  const responseBytes = content ? bytesOf(content['text'], content['encoding'], `${where} response.content`) : undefined;
  return {
    exchange: {
      method: method.toUpperCase(),
      url,
      requestHeaders: headersOf(request['headers'], `${where} request`),
      requestBody: captured(requestBytes),
      status,
      responseHeaders: headersOf(response['headers'], `${where} response`),
      responseBody: captured(responseBytes),
    },
    fullResponseBody: responseBytes ?? Buffer.alloc(0),
  };
}

/** Parses HAR text (already bounded by the caller). */
export function parseHar(text: string): (HarEntry | HarMiss)[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new HarError(`not JSON: ${(error as Error).message}`);
  }
  const entries = isObject(doc) && isObject(doc['log']) ? doc['log']['entries'] : undefined;
  if (!Array.isArray(entries)) throw new HarError('not a HAR file: log.entries must be an array');
  if (entries.length > MAX_HAR_ENTRIES) throw new HarError(`${entries.length} entries; at most ${MAX_HAR_ENTRIES} are read (split the file)`);
  return entries.map(entryOf);
}

export function readHar(path: string): (HarEntry | HarMiss)[] {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new HarError(`${path} is not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof HarError) throw error;
    throw new HarError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (size > MAX_HAR_BYTES) throw new HarError(`${path} has ${size} bytes; at most ${MAX_HAR_BYTES} are read (split the file)`);
  return parseHar(readFileSync(path, 'utf8'));
}
