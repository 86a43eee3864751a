// How provider states reach the target: with a control API (the reference mock) each state starts
// from `POST /reset` and the queue endpoint is seeded with a stable id; without one, everything is
// created through the public API with our own clients and removed again at teardown.
import {
  createGraphqlClient,
  createQueueClient,
  createRestClient,
  type GraphqlClient,
  type QueueClient,
  type RestClient,
} from '../clients/index.js';
import { createRestV2Client, type RestV2Client } from '../clients/rest-v2/index.js';
import { pactSurfaceUrl, type PactTarget } from './target.js';

/** Worker template and endpoint the control API seeds for queue states. */
export const SEEDED_ENDPOINT = { templateId: 'pact-worker-template', endpointId: 'pact-endpoint' } as const;

type Cleanup = () => Promise<unknown>;

export class ProviderWorld {
  private cleanups: Cleanup[] = [];
  // Built on first use: a target may offer only the surfaces being verified.
  private clients: { rest?: RestClient; graphql?: GraphqlClient; restV2?: RestV2Client } = {};
  private readonly common: { apiKey: string; maxRetries: number };

  constructor(
    readonly target: PactTarget,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.common = { apiKey: target.apiKey, maxRetries: 2 };
  }

  get rest(): RestClient {
    return (this.clients.rest ??= createRestClient({ baseUrl: pactSurfaceUrl(this.target, 'restV1'), ...this.common }));
  }

  get graphql(): GraphqlClient {
    return (this.clients.graphql ??= createGraphqlClient({ graphqlUrl: pactSurfaceUrl(this.target, 'graphql'), ...this.common }));
  }

  /** REST v2 client: its base URL is the origin without `/v2` (the operation paths carry it). */
  get restV2(): RestV2Client {
    return (this.clients.restV2 ??= createRestV2Client({ baseUrl: pactSurfaceUrl(this.target, 'restV2').replace(/\/v2\/*$/, ''), ...this.common }));
  }

  get hasControl(): boolean {
    return this.target.controlUrl !== undefined;
  }

  queue(endpointId: string): QueueClient<Record<string, unknown>, unknown, unknown> {
    return createQueueClient({ endpointBaseUrl: pactSurfaceUrl(this.target, 'queueV2'), endpointId, apiKey: this.target.apiKey, maxRetries: 0 });
  }

  /** Start of every state: a clean slate (reset, or undo what earlier states created). */
  async fresh(): Promise<void> {
    if (this.hasControl) {
      this.cleanups = [];
      await this.control('POST', '/reset');
    } else {
      await this.cleanup();
    }
  }

  /** Registers an undo step for targets without a control API (run in reverse order). */
  track(cleanup: Cleanup): void {
    if (!this.hasControl) this.cleanups.push(cleanup);
  }

  /** Runs the undo steps; failures (already deleted by the interaction) are ignored. */
  async cleanup(): Promise<void> {
    const steps = this.cleanups.reverse();
    this.cleanups = [];
    for (const step of steps) await step().catch(() => undefined);
  }

  /** The queue endpoint the states use: seeded through the control API, or the target's. */
  async endpointId(): Promise<string> {
    if (this.hasControl) {
      await this.control('POST', '/seed', {
        templates: [{ id: SEEDED_ENDPOINT.templateId, name: SEEDED_ENDPOINT.templateId, imageName: 'pact/worker:1.0', isServerless: true }],
        endpoints: [{ id: SEEDED_ENDPOINT.endpointId, name: SEEDED_ENDPOINT.endpointId, templateId: SEEDED_ENDPOINT.templateId, workersMax: 3 }],
      });
      return SEEDED_ENDPOINT.endpointId;
    }
    if (!this.target.endpointId) {
      throw new Error('queue v2 provider states need --endpoint-id (an endpoint running the conformance handler) or --control-url');
    }
    return this.target.endpointId;
  }

  async control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const response = await this.fetchImpl(`${this.target.controlUrl}${path}`, {
      method,
      headers: {
        ...(this.target.controlToken ? { authorization: `Bearer ${this.target.controlToken}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`control ${method} ${path} → ${response.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  }
}
