// Job-completion webhooks: POST the status record + input + webhook; 200 = delivered, otherwise
// retried `retries` more times `intervalMs` apart on the mock clock. Every attempt is logged. A destination
// the egress rule refuses (webhook-egress.ts) is logged as refused and never contacted, nor retried.
import type { Clock } from '../clock.js';
import type { FaultName } from '../options.js';
import type { ChangeSink } from '../state-journal/tracked-map.js';
import type { Job, WebhookDelivery } from '../types.js';
import { renderJob } from './render.js';
import { needsTurns, writeJsonInTurns } from '../json-in-turns.js';
import { WebhookEgress } from './webhook-egress.js';

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
  /** Sequence number of log[0] (--state journals log entries by sequence number). */
  firstSeq?: number;
}

const pendingKey = (p: PendingAttempt) => `${p.jobId}#${p.attempt}`;

export class WebhookDispatcher {
  readonly log: WebhookDelivery[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private readonly pending = new Map<string, PendingAttempt>();
  /** Sequence number of log[0]. */
  private firstSeq = 0;
  /** Where log entries and due attempts are journaled (--state). */
  sink: ChangeSink | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly policy: WebhookPolicy,
    private readonly faults: ReadonlySet<FaultName>,
    /** Where webhooks may go; default: a mock on loopback, delivering to loopback only. */
    private readonly egress: WebhookEgress = new WebhookEgress(true),
  ) {}

  /** Sends the webhook of a job that just reached a terminal status (not for CANCELLED jobs). */
  jobFinished(job: Job): void {
    if (!job.webhook || job.status === 'CANCELLED') return;
    const url = job.webhook;
    const record = { ...renderJob(job), input: job.input, webhook: url };
    if (!needsTurns(record)) return this.attempt(job.id, url, JSON.stringify(record), 1);
    // A 20 MB input or result is written a slice per turn (json-in-turns.ts); settle() waits for it too.
    const pieces: string[] = [];
    const written = writeJsonInTurns(record, (text) => pieces.push(text), record).then(() => this.attempt(job.id, url, pieces.join(''), 1));
    this.inflight.add(written);
    void written.finally(() => this.inflight.delete(written));
  }

  /** Resolves once every attempt started so far (and any started meanwhile) has settled. */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  clearLog(): void {
    this.firstSeq += this.log.length;
    this.log.length = 0;
    this.pending.clear();
    this.sink?.cleared('webhookLog');
    this.sink?.cleared('webhookPending');
  }

  /** A log entry by sequence number, or a due attempt by key (the journal reading what to write). */
  peek(kind: 'webhookLog' | 'webhookPending', id: string): unknown {
    return kind === 'webhookLog' ? this.log[Number(id) - this.firstSeq] : this.pending.get(id);
  }

  /** Every log entry and due attempt, as the journal stores them. */
  *entries(): Iterable<[string, string, unknown]> {
    for (const [i, entry] of this.log.entries()) yield ['webhookLog', String(this.firstSeq + i), entry];
    for (const [key, p] of this.pending) yield ['webhookPending', key, p];
  }

  /** Log and due attempts for --state; an attempt in flight at save time is sent again on restore. */
  snapshot(): WebhookSnapshot {
    return { log: [...this.log], pending: [...this.pending.values()].map((p) => ({ ...p })), firstSeq: this.firstSeq };
  }

  restore(snapshot: WebhookSnapshot): void {
    const kept = snapshot.log.slice(-LOG_LIMIT);
    this.firstSeq = (snapshot.firstSeq ?? 0) + snapshot.log.length - kept.length;
    this.log.push(...kept);
    for (const p of snapshot.pending) this.schedule({ ...p });
  }

  private schedule(pending: PendingAttempt): void {
    this.addPending(pending);
    this.clock.at(Math.max(this.clock.now(), pending.at), () => {
      this.removePending(pending);
      this.attempt(pending.jobId, pending.url, pending.payload, pending.attempt);
    });
  }

  private attempt(jobId: string, url: string, payload: string, attempt: number): void {
    const startedAt = this.clock.now();
    const inFlight: PendingAttempt = { jobId, url, payload, attempt, at: startedAt };
    this.addPending(inFlight);
    const promise = this.egress.post(url, payload).then((outcome) => {
      this.removePending(inFlight);
      const entry: WebhookDelivery = { jobId, url, attempt, at: startedAt, delivered: outcome.status === this.policy.successStatus };
      if (outcome.status !== undefined) entry.status = outcome.status;
      if (outcome.error !== undefined) entry.error = outcome.error;
      if (outcome.refused !== undefined) entry.refused = outcome.refused;
      this.log.push(entry);
      this.sink?.changed('webhookLog', String(this.firstSeq + this.log.length - 1));
      if (this.log.length > LOG_LIMIT) {
        const dropped = this.log.length - LOG_LIMIT;
        this.log.splice(0, dropped);
        for (let i = 0; i < dropped; i++) this.sink?.changed('webhookLog', String(this.firstSeq + i));
        this.firstSeq += dropped;
      }
      const maxAttempts = this.faults.has('no-webhook-retry') ? 1 : 1 + this.policy.retries;
      if (!entry.delivered && outcome.refused === undefined && attempt < maxAttempts) {
        this.schedule({ jobId, url, payload, attempt: attempt + 1, at: Math.max(this.clock.now(), startedAt + this.policy.intervalMs) });
      }
    });
    this.inflight.add(promise);
    void promise.finally(() => this.inflight.delete(promise));
  }

  private addPending(p: PendingAttempt): void {
    this.pending.set(pendingKey(p), p);
    this.sink?.changed('webhookPending', pendingKey(p));
  }

  private removePending(p: PendingAttempt): void {
    if (this.pending.get(pendingKey(p)) !== p) return;
    this.pending.delete(pendingKey(p));
    this.sink?.changed('webhookPending', pendingKey(p));
  }
}
