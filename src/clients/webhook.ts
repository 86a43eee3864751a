/**
 * Receiver for the job-completion webhook (queue v2 `webhooks.jobCompleted`). The service POSTs the
 * finished job record, expects 200, and otherwise retries up to 2 more times 10 s apart, so:
 * - 200 only after `onJob` succeeded; when it throws the answer is 500 and the delivery is retried;
 * - deliveries of the same job id + status (+ retries count, so a /retry that fails again is new) are
 *   passed to `onJob` once, including concurrent duplicates;
 * - the body is checked against the spec (switchable) and size-limited.
 * The service signs nothing; put an unguessable token in the webhook URL and check it in `authorize`.
 * Usable as a node:http handler `(req, res)`, as a fetch handler `.fetch(request)`, or via `.handle()`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ValidationIssue } from './errors.js';
import type { JsonObject, WebhookPayload } from './queue-types.js';
import { loadDefaultValidator } from '../validation/surface-loader.js';

export interface WebhookDelivery {
  /** Dedupe key: `id:status:retries`. */
  key: string;
  headers: Headers;
  url: string;
}

export interface WebhookHandlerOptions<Input = JsonObject, Output = unknown> {
  onJob: (payload: WebhookPayload<Input, Output>, delivery: WebhookDelivery) => unknown | Promise<unknown>;
  /** true (default): check against the spec; false: only JSON with id and status; or a custom check. */
  validate?: boolean | ((payload: unknown) => ValidationIssue[] | Promise<ValidationIssue[]>);
  /** Reject deliveries that fail this check with 401 (e.g. a token in the URL). */
  authorize?: (request: { headers: Headers; url: string }) => boolean | Promise<boolean>;
  /** Largest accepted body. Default 32 MiB (job outputs can be large). */
  maxBodyBytes?: number;
  /** How long a handled delivery is remembered for dedupe. Default 10 min (the service retries within ~20 s). */
  dedupeTtlMs?: number;
  /** Most deliveries remembered; the oldest are forgotten first. Default 10 000. */
  maxRemembered?: number;
  /** Told about onJob failures (the answer itself stays generic so nothing leaks to the caller). */
  onError?: (error: unknown, payload: unknown) => void;
  now?: () => number;
}

export interface WebhookResult {
  status: number;
  body: { ok: boolean; duplicate?: boolean; message?: string; errors?: ValidationIssue[] };
}

export interface WebhookRequest {
  method: string;
  url?: string;
  headers?: Headers;
  body: string;
}

export interface WebhookHandler {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  fetch(request: Request): Promise<Response>;
  handle(request: WebhookRequest): Promise<WebhookResult>;
}

const reply = (status: number, body: WebhookResult['body']): WebhookResult => ({ status, body });

export function createWebhookHandler<Input = JsonObject, Output = unknown>(options: WebhookHandlerOptions<Input, Output>): WebhookHandler {
  const now = options.now ?? Date.now;
  const ttl = options.dedupeTtlMs ?? 600_000;
  const maxRemembered = options.maxRemembered ?? 10_000;
  const maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024;
  const handled = new Map<string, number>();
  const inFlight = new Map<string, Promise<WebhookResult>>();

  function remember(key: string): void {
    handled.delete(key);
    handled.set(key, now() + ttl);
    for (const [oldest, expiresAt] of handled) {
      if (handled.size <= maxRemembered && expiresAt > now()) break;
      handled.delete(oldest);
    }
  }

  function seen(key: string): boolean {
    const expiresAt = handled.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt > now()) return true;
    handled.delete(key);
    return false;
  }

  async function check(payload: unknown): Promise<ValidationIssue[]> {
    const shape = basicShape(payload);
    if (shape.length > 0 || options.validate === false) return shape;
    if (typeof options.validate === 'function') return options.validate(payload);
    const validator = await loadDefaultValidator('queueV2');
    return validator.validateWebhook?.('jobCompleted', payload) ?? [];
  }

  async function process(payload: WebhookPayload<Input, Output>, delivery: WebhookDelivery): Promise<WebhookResult> {
    try {
      await options.onJob(payload, delivery);
    } catch (error) {
      options.onError?.(error, payload);
      return reply(500, { ok: false, message: 'Handler failed; the delivery will be retried' });
    }
    remember(delivery.key);
    return reply(200, { ok: true });
  }

  async function handle(request: WebhookRequest): Promise<WebhookResult> {
    if (request.method.toUpperCase() !== 'POST') return reply(405, { ok: false, message: 'Only POST is accepted' });
    const headers = request.headers ?? new Headers();
    const url = request.url ?? '/';
    if (options.authorize && !(await options.authorize({ headers, url }))) return reply(401, { ok: false, message: 'Unauthorized' });
    if (Buffer.byteLength(request.body) > maxBodyBytes) return reply(413, { ok: false, message: 'Body too large' });
    let payload: unknown;
    try {
      payload = JSON.parse(request.body);
    } catch {
      return reply(400, { ok: false, message: 'Body is not JSON', errors: [{ path: '/body', message: 'must be JSON' }] });
    }
    const issues = await check(payload);
    if (issues.length > 0) return reply(400, { ok: false, message: 'Payload does not match the webhook contract', errors: issues });

    const job = payload as WebhookPayload<Input, Output>;
    const key = `${job.id}:${job.status}:${job.retries ?? 0}`;
    if (seen(key)) return reply(200, { ok: true, duplicate: true });
    const running = inFlight.get(key);
    if (running) {
      const result = await running;
      return result.status === 200 ? reply(200, { ok: true, duplicate: true }) : result;
    }
    const pending = process(job, { key, headers, url });
    inFlight.set(key, pending);
    try {
      return await pending;
    } finally {
      inFlight.delete(key);
    }
  }

  const nodeHandler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let result: WebhookResult;
    const body = await readBody(req, maxBodyBytes);
    if (body === undefined) result = reply(413, { ok: false, message: 'Body too large' });
    else result = await handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: toHeaders(req.headers), body });
    const extra: Record<string, string> = result.status === 405 ? { allow: 'POST' } : {};
    res.writeHead(result.status, { 'content-type': 'application/json', ...extra }).end(JSON.stringify(result.body));
  };

  const fetchHandler = async (request: Request): Promise<Response> => {
    const length = Number(request.headers.get('content-length') ?? '0');
    const result =
      length > maxBodyBytes
        ? reply(413, { ok: false, message: 'Body too large' })
        : await handle({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    return Response.json(result.body, { status: result.status, headers: result.status === 405 ? { allow: 'POST' } : {} });
  };

  return Object.assign(nodeHandler, { fetch: fetchHandler, handle });
}

/** Minimal checks that hold even with validation off: an object with a string id and status. */
function basicShape(payload: unknown): ValidationIssue[] {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return [{ path: '/body', message: 'must be an object' }];
  const record = payload as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (typeof record.id !== 'string' || record.id === '') issues.push({ path: '/body/id', message: 'is required' });
  if (typeof record.status !== 'string') issues.push({ path: '/body/status', message: 'is required' });
  return issues;
}

/** Reads the body; past the limit it keeps draining (so a 413 can still be sent) and returns undefined. */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function toHeaders(raw: IncomingMessage['headers']): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  return headers;
}
