// Provider state handlers: one per name in STATES. Each sets the target up through the public API
// (our own clients) or the mock's control API (via ProviderWorld) and returns the ids the
// interaction injects with `fromProviderState`. Jobs use the conformance handler's `input.mock`.
import { RateLimitError, type QueueClient } from '../clients/index.js';
import { getOperation } from '../validation/index.js';
import type { ProviderWorld } from './provider-world.js';
import { createGraphqlSdkStateHandlers } from './graphql-sdk-states.js';
import { createRestV2StateHandlers } from './rest-v2-states.js';
import { NAMES, STATES, type StateName } from './state-names.js';

type Values = Record<string, string>;
export interface PactStateHandler {
  setup: (params?: unknown) => Promise<Values>;
  teardown: () => Promise<undefined>;
}

const WAIT = { pollIntervalMs: 20, maxPollIntervalMs: 250, timeoutMs: 30_000 } as const;
/** Template the REST and GraphQL states create for endpoints and the podTemplate query. */
const SERVERLESS_TEMPLATE = { name: 'pact-serverless-template', imageName: 'pact/worker:1.0', isServerless: true };

/** pact-js asks for state "" before interactions that name none: they start from a clean slate too. */
export const NO_STATE = '';

export function createStateHandlers(world: ProviderWorld): Record<StateName | typeof NO_STATE, PactStateHandler> {
  const state = (setup: () => Promise<Values>): PactStateHandler => ({
    setup: async () => {
      await world.fresh();
      return setup();
    },
    teardown: async () => {
      await world.cleanup();
      return undefined;
    },
  });

  /** Submits a job and (optionally) waits until it is terminal with the expected status. */
  async function job(input: Record<string, unknown>, expected?: 'COMPLETED' | 'FAILED'): Promise<Values> {
    const endpointId = await world.endpointId();
    const queue = world.queue(endpointId);
    const submitted = await queue.run({ input });
    world.track(() => queue.cancel(submitted.id));
    if (expected) {
      const done = await queue.waitFor(submitted.id, WAIT);
      if (done.status !== expected) throw new Error(`state job ended ${done.status}, expected ${expected}`);
    }
    return { endpointId, jobId: submitted.id };
  }

  async function removeTemplatesNamed(name: string): Promise<void> {
    if (world.hasControl) return;
    for (const t of await world.rest.templates.list()) if (t.name === name) await world.rest.templates.delete(t.id);
  }

  /**
   * A serverless template for endpoints and podTemplate. With a control API it is created after the
   * reset; on other targets one named template is reused, because a template an endpoint used can
   * only be deleted minutes later (x-delete-delay-ms), so deleting it per interaction would fail.
   */
  async function serverlessTemplate(): Promise<string> {
    if (!world.hasControl) {
      const existing = (await world.rest.templates.list()).find((t) => t.name === SERVERLESS_TEMPLATE.name);
      if (existing) return existing.id;
    }
    return (await world.rest.templates.create(SERVERLESS_TEMPLATE)).id;
  }

  return {
    [NO_STATE]: state(async () => ({})),
    [STATES.endpointAcceptsJobs]: state(async () => ({ endpointId: await world.endpointId() })),
    [STATES.completedJob]: state(() => job({ prompt: 'a cat' }, 'COMPLETED')),
    [STATES.completedStreamingJob]: state(() => job({ prompt: 'a cat', mock: { stream: ['Hel', 'lo'], durationMs: 0 } }, 'COMPLETED')),
    [STATES.runningJob]: state(() => job({ prompt: 'a cat', mock: { durationMs: 600_000 } })),
    [STATES.failedJob]: state(() => job({ prompt: 'a cat', mock: { error: 'pact: simulated failure', durationMs: 0 } }, 'FAILED')),
    [STATES.purgeLimitUsedUp]: state(async () => {
      const endpointId = await world.endpointId();
      const retryAfterMs = await exhaustPurgeLimit(world.queue(endpointId));
      // Without a reset, let the window pass before the next interaction may purge again.
      world.track(() => new Promise((resolve) => setTimeout(resolve, Math.min(retryAfterMs, 15_000))));
      return { endpointId };
    }),

    [STATES.registryAuthExists]: state(async () => {
      if (!world.hasControl) await removeRegistryAuthsNamed(world, NAMES.registryAuth);
      const auth = await world.rest.containerRegistryAuths.create({ name: NAMES.registryAuth, username: 'pact-user', password: 'pact-password' });
      world.track(() => world.rest.containerRegistryAuths.delete(auth.id));
      return { containerRegistryAuthId: auth.id };
    }),
    [STATES.registryAuthNameFree]: state(async () => {
      if (!world.hasControl) await removeRegistryAuthsNamed(world, NAMES.registryAuth);
      world.track(() => removeRegistryAuthsNamed(world, NAMES.registryAuth));
      return {};
    }),
    [STATES.templateExists]: state(async () => {
      // The "endpoint creation" interaction makes an endpoint this state cannot know the id of.
      world.track(async () => {
        for (const e of await world.rest.endpoints.list()) if (e.name === NAMES.endpoint) await world.rest.endpoints.delete(e.id);
      });
      return { templateId: await serverlessTemplate() };
    }),
    [STATES.endpointExists]: state(async () => {
      const templateId = await serverlessTemplate();
      const endpoint = await world.rest.endpoints.create({ templateId, name: NAMES.endpoint, gpuTypeIds: ['NVIDIA A40'], workersMax: 1 });
      world.track(() => world.rest.endpoints.delete(endpoint.id));
      return { endpointId: endpoint.id };
    }),

    [STATES.templateNameFree]: state(async () => {
      await removeTemplatesNamed(NAMES.template);
      world.track(() => removeTemplatesNamed(NAMES.template));
      return {};
    }),
    [STATES.namedTemplateExists]: state(async () => {
      await removeTemplatesNamed(NAMES.template);
      await world.graphql.saveTemplate({ name: NAMES.template, imageName: 'pact/worker:1.0', containerDiskInGb: 10, volumeInGb: 0, isServerless: true });
      world.track(() => world.graphql.deleteTemplate(NAMES.template));
      return {};
    }),
    // GraphQL offers no secret listing: on a remote target a leftover `pact-secret` must be removed by hand.
    [STATES.secretNameFree]: state(async () => ({})),
    [STATES.secretExists]: state(async () => {
      const secret = await world.graphql.secretCreate({ name: `${NAMES.secret}-to-delete`, value: 'pact-secret-value' });
      world.track(() => world.graphql.secretDelete(secret.id));
      return { secretId: secret.id };
    }),
    ...createRestV2StateHandlers(world, state),
    ...createGraphqlSdkStateHandlers(world, state),
  };
}

async function removeRegistryAuthsNamed(world: ProviderWorld, name: string): Promise<void> {
  for (const auth of await world.rest.containerRegistryAuths.list()) {
    if (auth.name === name) await world.rest.containerRegistryAuths.delete(auth.id);
  }
}

/** Calls /purge-queue up to its documented window limit, so the next call is answered 429. Returns the wait. */
async function exhaustPurgeLimit(queue: QueueClient<Record<string, unknown>, unknown, unknown>): Promise<number> {
  const limit = getOperation('queueV2', 'purgeQueue').rateLimit?.requestsPer10s ?? 2;
  for (let i = 0; i < limit; i++) {
    try {
      await queue.purgeQueue();
    } catch (error) {
      if (error instanceof RateLimitError) return error.retryAfterMs ?? 10_000;
      throw error;
    }
  }
  return 10_000;
}
