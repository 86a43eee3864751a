// The validating proxy: forwards each request unchanged (method, path, query, body, headers except
// hop-by-hop ones; Host names the upstream) and streams the answer back as it arrives, while a bounded
// copy of both bodies is kept for judging and the answer is scanned for secrets end to end. The judging
// itself runs after the answer went out (judge-queue.ts): it never delays or alters the client's bytes.
// GET /__proxy/report answers the running tally; nothing else under /__proxy/ is forwarded.
import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TrafficSurface } from './classify.js';
import { rawHeader } from '../contract/raw-headers.js';
import { BodyCapture, rawHeaderRecord, type Exchange } from './exchange.js';
import { AnswerMemo } from './answer-memo.js';
import { judgeExchange, type Judgement } from './judge.js';
import { IdOwners } from './id-owners.js';
import { JudgeQueue } from './judge-queue.js';
import { SecretBook, StreamScanner } from './secrets.js';
import { Tally, type TrafficReport } from './tally.js';
import { keepTickObjectShape } from '../contract/tick-object-shape.js';
import { UpstreamPool } from './upstream-pool.js';

/** Request line + headers accepted from clients and upstreams (as the mock: 1 MiB). */
export const MAX_HEAD_BYTES = 1024 * 1024;
export const REPORT_PATH = '/__proxy/report';

/** RFC 9110 §7.6.1 connection-specific fields, never forwarded (plus any the Connection header names). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export interface ProxyOptions {
  /** Base URL of the real or fake service; request paths are appended to its path. */
  upstream: string;
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  surface?: TrafficSurface;
  /** Called after each exchange was judged (the CLI prints violations). */
  onJudged?: (judgement: Judgement, exchange: Exchange) => void;
}

export interface RunningProxy {
  url: string;
  upstream: string;
  book: SecretBook;
  /** The exchanges judged so far (judging follows each answer by a turn: report() judges the waiting ones first). */
  tally: Tally;
  report(): TrafficReport;
  close(): Promise<void>;
}

/** Lengths of the names dropped without a Connection header naming more (hop-by-hop and host): a name of another length is kept without lower-casing it. */
const DROPPED_LENGTHS = new Set([...HOP_BY_HOP, 'host'].map((name) => name.length));

/** Raw headers without hop-by-hop fields; `host` replaced when given. One pass over the list, no set made unless Connection names fields. */
function forwardable(raw: readonly string[], host?: string): string[] {
  let named: Set<string> | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === 'connection') {
      named ??= new Set();
      for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (named !== undefined || DROPPED_LENGTHS.has(name.length)) {
      const lower = name.toLowerCase();
      if (HOP_BY_HOP.has(lower) || named?.has(lower) || (host !== undefined && lower === 'host')) continue;
    }
    out.push(name, raw[i + 1]!);
  }
  if (host !== undefined) out.push('Host', host);
  return out;
}

/** A finished exchange waiting to be judged: what the forwarding path kept, turned into an Exchange only when judged. */
interface Finished {
  method: string;
  url: string;
  requestRawHeaders: string[];
  requestCapture: BodyCapture;
  status: number;
  responseRawHeaders: string[];
  responseCapture: BodyCapture;
  scanner: StreamScanner;
  learned: boolean;
  example: string;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const NO_QUERY = new URLSearchParams();

/** The secrets of a finished request: bearer key, ?api_key=, and those in a whole JSON body (SecretBook reads only Authorization of the headers). */
function learnRequest(book: SecretBook, rawHeaders: readonly string[], target: string, capture: BodyCapture | undefined): true {
  let parsed: unknown;
  const body = capture?.body();
  if (body && body.totalBytes === body.bytes.length && body.bytes.length > 0) {
    try {
      parsed = JSON.parse(body.bytes.toString('utf8'));
    } catch {
      parsed = undefined;
    }
  }
  const q = target.indexOf('?');
  const authorization = rawHeader(rawHeaders, 'authorization');
  book.learnRequest(authorization === undefined ? {} : { authorization }, q === -1 ? NO_QUERY : new URLSearchParams(target.slice(q + 1)), parsed);
  return true;
}

export function parseUpstream(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--upstream must be an absolute http(s) URL (got "${text}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--upstream must be http or https (got ${url.protocol})`);
  if (url.search || url.hash) throw new Error('--upstream takes a base URL without query or fragment');
  return url;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = parseUpstream(options.upstream);
  const base = upstream.pathname.replace(/\/+$/, '');
  const secure = upstream.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  const hostname = upstream.hostname.replace(/^\[|\]$/g, ''); // IPv6 literals without brackets
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 256 }) : new HttpAgent({ keepAlive: true, maxSockets: 256 });
  // Requests without a body to a plain-http upstream (most of the traffic) skip node's client (upstream-pool.ts).
  const pool = secure ? undefined : new UpstreamPool(hostname, Number(upstream.port || 80), MAX_HEAD_BYTES);
  const book = new SecretBook();
  const owners = new IdOwners();
  const answers = new AnswerMemo();
  const tally = new Tally('proxy', upstream.toString());

  const judge = (finished: Finished) => {
    const exchange: Exchange = {
      method: finished.method,
      url: finished.url,
      requestHeaders: rawHeaderRecord(finished.requestRawHeaders),
      requestBody: finished.requestCapture.body(),
      status: finished.status,
      responseHeaders: rawHeaderRecord(finished.responseRawHeaders),
      responseBody: finished.responseCapture.body(),
    };
    try {
      const judgement = judgeExchange(exchange, book, { surface: options.surface, owners, answers, responseLeaks: finished.scanner.leaks.bind(finished.scanner), secretsLearned: finished.learned });
      tally.add(judgement, finished.example);
      options.onJudged?.(judgement, exchange);
    } catch (error) {
      // A judging bug must not take traffic down; it is counted as an exchange with a note.
      tally.add({ operationId: '(error)', violations: [], checked: [], notes: [`not judged: ${(error as Error).message}`] }, finished.example);
    }
  };
  const judgements = new JudgeQueue<Finished>(judge, (f) => f.requestCapture.keptBytes + f.responseCapture.keptBytes);
  const report = () => {
    judgements.flush();
    return JSON.parse(book.redact(JSON.stringify(tally.report()))) as TrafficReport;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    // Absolute-form targets (a client configured with HTTP_PROXY) keep only their path and query.
    let target = raw;
    if (raw.charCodeAt(0) !== 47 /* '/' */) {
      try {
        const u = new URL(raw);
        target = `${u.pathname}${u.search}`;
      } catch {
        target = `/${raw}`;
      }
    }
    const q = target.indexOf('?');
    const pathOnly = q === -1 ? target : target.slice(0, q);
    if (pathOnly.startsWith('/__proxy') && (pathOnly.length === 8 || pathOnly.charCodeAt(8) === 47)) {
      req.resume();
      if (pathOnly !== REPORT_PATH) return sendJson(res, 404, { message: `no proxy route ${pathOnly} (the tally is at ${REPORT_PATH})` });
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { message: `${REPORT_PATH} answers GET` }, { allow: 'GET, HEAD' });
      return sendJson(res, 200, report());
    }
    const method = req.method ?? 'GET';
    const upstreamPath = `${base}${target}`;
    const requestRawHeaders = req.rawHeaders;
    const requestCapture = new BodyCapture();
    const responseCapture = new BodyCapture();
    const scanner = new StreamScanner(book);
    let upstreamAnswer: IncomingMessage | undefined;
    let settled = false;
    let learned = false;
    const bodiless = rawHeader(requestRawHeaders, 'transfer-encoding') === undefined && (rawHeader(requestRawHeaders, 'content-length') ?? '0') === '0';
    // The answer's end and a failed call, the same whichever client carried the request (the pool or node's).
    const answered = (status: number, responseRawHeaders: string[]) => {
      res.end();
      if (settled) return;
      settled = true;
      // Judged on a later turn: the answer's last bytes go out first, and nothing judged can change them.
      judgements.push({
        method, url: `${upstream.origin}${upstreamPath}`, requestRawHeaders, requestCapture, status,
        responseRawHeaders, responseCapture, scanner, learned, example: `${method} ${base}${pathOnly}`,
      });
    };
    const upstreamFailed = (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      tally.upstreamError();
      // Before the head: answered 502; after it the upstream broke off mid-answer, so the client's answer breaks too.
      if (!res.headersSent) sendJson(res, 502, { message: `proxy: upstream ${upstream.origin} failed: ${error.code ?? error.message}` });
      else res.destroy();
    };

    if (pool !== undefined && bodiless && rawHeader(requestRawHeaders, 'expect') === undefined) {
      req.resume();
      // Learn the request's secrets before its answer streams back, so the scan covers every answer byte.
      learned = learnRequest(book, requestRawHeaders, target, undefined);
      let status = 0;
      let responseRawHeaders: string[] = [];
      const call = pool.request(method, upstreamPath, forwardable(requestRawHeaders, upstream.host), {
        head(code, message, rawHeaders) {
          status = code;
          responseRawHeaders = rawHeaders;
          res.writeHead(code, message, forwardable(rawHeaders));
        },
        data(chunk) {
          if (!res.write(chunk)) {
            call.pause();
            res.once('drain', () => call.resume());
          }
          responseCapture.push(chunk);
          scanner.feed(chunk);
        },
        end: () => answered(status, responseRawHeaders),
        fail: upstreamFailed,
      });
      // The client went away: stop the upstream call too; nothing to judge.
      res.on('close', () => {
        if (!res.writableFinished && !settled) {
          settled = true;
          call.abort();
        }
      });
      return;
    }

    const outgoing = send({
      protocol: upstream.protocol, hostname, port: upstream.port, path: upstreamPath, method,
      headers: forwardable(requestRawHeaders, upstream.host) as unknown as Record<string, string>, agent, maxHeaderSize: MAX_HEAD_BYTES,
    });
    // Learn the request's secrets before its answer streams back, so the scan covers every answer byte.
    if (bodiless) {
      // No body (GET /status and most reads): send at once, no pipe to set up.
      req.resume();
      outgoing.end();
      learned = learnRequest(book, requestRawHeaders, target, undefined);
    } else {
      req.on('data', (chunk: Buffer) => requestCapture.push(chunk));
      req.on('end', () => void (learned = learnRequest(book, requestRawHeaders, target, requestCapture)));
      req.pipe(outgoing);
    }

    outgoing.on('response', (answer) => {
      upstreamAnswer = answer;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.rawHeaders));
      // Copied to the client as it arrives (one listener, not pipe()'s six), pausing while the client's buffer is full.
      answer.on('data', (chunk: Buffer) => {
        if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
        responseCapture.push(chunk);
        scanner.feed(chunk);
      });
      answer.on('end', () => answered(answer.statusCode ?? 0, answer.rawHeaders));
      // The upstream broke off mid-answer: the client must see a broken answer too, not a hang.
      answer.on('close', () => {
        if (answer.complete) return;
        if (!settled) tally.upstreamError();
        settled = true;
        res.destroy();
      });
    });
    outgoing.on('error', upstreamFailed);
    // The client went away: stop the upstream call too (a held /runsync or a stream); nothing to judge.
    res.on('close', () => {
      if (!res.writableFinished && !settled) {
        settled = true;
        outgoing.destroy();
        upstreamAnswer?.destroy();
      }
    });
  };

  // A proxy idle between loads must not fall off node's fast nextTick (src/contract/tick-object-shape.ts).
  keepTickObjectShape();
  const server = createServer({ maxHeaderSize: MAX_HEAD_BYTES, keepAliveTimeout: 5_000 }, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    upstream: upstream.toString(),
    book,
    tally,
    report,
    close() {
      closed ??= new Promise<void>((resolve) => {
        judgements.flush();
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
        pool?.close();
      });
      return closed;
    },
  };
}
