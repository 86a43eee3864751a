// Job-completion webhooks: POST the status record + input + webhook; 200 = delivered, otherwise
// retried `retries` more times `intervalMs` apart on the mock clock. Every attempt is logged.
import type { Clock } from '../clock.js';
import type { FaultName } from '../options.js';
import type { Job, WebhookDelivery } from '../types.js';
import { renderJob } from './render.js';

export interface WebhookPolicy {
  retries: number;
  intervalMs: number;
  successStatus: number;
}

const LOG_LIMIT = 10_000;

/** An attempt that is due or in flight: enough to send it again after a restart. */
interface PendingAttempt {
  jobId: string;
  url: string;
  payload: string;
  attempt: number;
  at: number;
}

export interface WebhookSnapshot {
  log: WebhookDelivery[];
  pending: PendingAttempt[];
}
const ATTEMPT_TIMEOUT_MS = 5_000;

export class WebhookDispatcher {
  readonly log: WebhookDelivery[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private readonly pending = new Set<PendingAttempt>();

  constructor(
    private readonly clock: Clock,
    private readonly policy: WebhookPolicy,
    private readonly faults: ReadonlySet<FaultName>,
  ) {}

  /** Sends the webhook of a job that just reached a terminal status (not for CANCELLED jobs). */
  jobFinished(job: Job): void {
    if (!job.webhook || job.status === 'CANCELLED') return;
    const payload = JSON.stringify({ ...renderJob(job), input: job.input, webhook: job.webhook });
    this.attempt(job.id, job.webhook, payload, 1);
  }

  /** Resolves once every attempt started so far (and any started meanwhile) has settled. */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  clearLog(): void {
    this.log.length = 0;
    this.pending.clear();
  }

  /** Log and due attempts for --state; an attempt in flight at save time is sent again on restore. */
  snapshot(): WebhookSnapshot {
    return { log: [...this.log], pending: [...this.pending].map((p) => ({ ...p })) };
  }

  restore(snapshot: WebhookSnapshot): void {
    this.log.push(...snapshot.log.slice(-LOG_LIMIT));
    for (const p of snapshot.pending) this.schedule({ ...p });
  }

  private schedule(pending: PendingAttempt): void {
    this.pending.add(pending);
    this.clock.at(Math.max(this.clock.now(), pending.at), () => {
      this.pending.delete(pending);
      this.attempt(pending.jobId, pending.url, pending.payload, pending.attempt);
    });
  }

  private attempt(jobId: string, url: string, payload: string, attempt: number): void {
    const startedAt = this.clock.now();
    const inFlight: PendingAttempt = { jobId, url, payload, attempt, at: startedAt };
    this.pending.add(inFlight);
    const promise = post(url, payload).then((outcome) => {
      this.pending.delete(inFlight);
      const entry: WebhookDelivery = { jobId, url, attempt, at: startedAt, delivered: outcome.status === this.policy.successStatus };
      if (outcome.status !== undefined) entry.status = outcome.status;
      if (outcome.error !== undefined) entry.error = outcome.error;
      this.log.push(entry);
      if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
      const maxAttempts = this.faults.has('no-webhook-retry') ? 1 : 1 + this.policy.retries;
      if (!entry.delivered && attempt < maxAttempts) {
        this.schedule({ jobId, url, payload, attempt: attempt + 1, at: Math.max(this.clock.now(), startedAt + this.policy.intervalMs) });
      }
    });
    this.inflight.add(promise);
    void promise.finally(() => this.inflight.delete(promise));
  }
}

async function post(url: string, body: string): Promise<{ status?: number; error?: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
