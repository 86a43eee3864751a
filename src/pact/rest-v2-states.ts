// Provider state handlers of the compute-rest-v2 pact. Everything is set up through REST v2 itself
// (our REST v2 client), so a target that offers only REST v2 can verify its pact (the one GraphQL
// state aside). With a control API each state starts from `POST /reset`; without one, leftovers of
// a fixed name are removed first and what a state creates is deleted (or restored) at teardown.
import { restV2RateLimitWindows } from '../../generated/operations.js';
import { RateLimitError } from '../clients/index.js';
import type { ProviderWorld } from './provider-world.js';
import {
  GRAPHQL_TEMPLATE,
  PACT_SSH_KEY,
  V2_REGISTRY,
  V2_SERVERLESS_TEMPLATE,
  V2_TEMPLATE,
  V2_VOLUME,
  v2EndpointInput,
  v2PodInput,
} from './rest-v2-fixtures.js';
import { NAMES, STATES } from './state-names.js';

type Values = Record<string, string>;
interface Handler {
  setup: (params?: unknown) => Promise<Values>;
  teardown: () => Promise<undefined>;
}
/** Wraps a setup in the clean-slate start and cleanup end every state shares (state-handlers.ts). */
type StateFactory = (setup: () => Promise<Values>) => Handler;
type RestV2StateName = (typeof STATES)[Extract<keyof typeof STATES, `v2${string}`>];

/** The per-key window the 429 state exhausts: the spec's shortest (a minute, 60 requests). */
const MINUTE_WINDOW = [...restV2RateLimitWindows].sort((a, b) => a.seconds - b.seconds)[0]!;
/** Longest a remote target's teardown waits for that window to reopen. */
const MAX_QUOTA_WAIT_MS = MINUTE_WINDOW.seconds * 1000;

type Named = { id: string; name: string };

export function createRestV2StateHandlers(world: ProviderWorld, state: StateFactory): Record<RestV2StateName, Handler> {
  const v2 = () => world.restV2;

  /** Deletes every resource called `name` (targets without a control API; a reset already cleared the mock). */
  async function removeNamed(list: () => Promise<readonly Named[]>, remove: (id: string) => Promise<unknown>, name: string): Promise<void> {
    if (world.hasControl) return;
    for (const item of await list()) if (item.name === name) await remove(item.id);
  }
  const removers = {
    template: () => removeNamed(() => v2().templates.list(), (id) => v2().templates.delete(id), NAMES.v2Template),
    pod: () => removeNamed(() => v2().pods.list(), (id) => v2().pods.delete(id), NAMES.v2Pod),
    endpoint: () => removeNamed(() => v2().serverless.list(), (id) => v2().serverless.delete(id), NAMES.v2Endpoint),
    volume: () => removeNamed(() => v2().networkVolumes.list(), (id) => v2().networkVolumes.delete(id), NAMES.v2Volume),
    registry: () => removeNamed(() => v2().registries.list(), (id) => v2().registries.delete(id), NAMES.v2Registry),
    secret: () => removeNamed(() => v2().account.secrets.list({ name: NAMES.v2Secret }), (id) => v2().account.secrets.delete(id), NAMES.v2Secret),
    // Live sandboxes only (the list leaves terminated ones out); terminating is final and safe to repeat.
    sandbox: () => removeNamed(() => v2().sandboxes.list(), (id) => v2().sandboxes.terminate(id), NAMES.v2Sandbox),
  };
  /** A state where an interaction creates `kind` by name: nothing of that name before, removed after. */
  const nameFree = (remove: () => Promise<void>) =>
    state(async () => {
      await remove();
      world.track(remove);
      return {};
    });

  /**
   * The serverless template endpoints come from. Without a control API one named template is reused:
   * a template an endpoint used can only be deleted minutes later (x-delete-delay-ms).
   */
  async function serverlessTemplate(): Promise<string> {
    if (!world.hasControl) {
      const existing = (await v2().templates.list()).find((t) => t.name === V2_SERVERLESS_TEMPLATE.name);
      if (existing) return existing.id;
    }
    return (await v2().templates.create({ ...V2_SERVERLESS_TEMPLATE })).id;
  }

  return {
    [STATES.v2TemplateNameFree]: nameFree(removers.template),
    [STATES.v2SandboxNameFree]: nameFree(removers.sandbox),
    [STATES.v2TemplateExists]: state(async () => {
      await removers.template();
      const template = await v2().templates.create({ ...V2_TEMPLATE, ports: [...V2_TEMPLATE.ports], env: { ...V2_TEMPLATE.env } });
      world.track(() => v2().templates.delete(template.id));
      return { templateId: template.id };
    }),
    // GraphQL rather than REST v1: the real service retired REST v1, GraphQL still saves templates.
    [STATES.v2TemplateFromGraphql]: state(async () => {
      if (!world.hasControl) await world.graphql.deleteTemplate(GRAPHQL_TEMPLATE.name).catch(() => undefined);
      const template = await world.graphql.saveTemplate({ ...GRAPHQL_TEMPLATE });
      world.track(() => world.graphql.deleteTemplate(GRAPHQL_TEMPLATE.name));
      return { templateId: template.id };
    }),

    [STATES.v2PodNameFree]: nameFree(removers.pod),
    [STATES.v2PodExists]: state(async () => {
      await removers.pod();
      const pod = await v2().pods.create(v2PodInput());
      world.track(() => v2().pods.delete(pod.id));
      return { podId: pod.id };
    }),

    [STATES.v2ServerlessTemplateExists]: state(async () => {
      await removers.endpoint();
      world.track(removers.endpoint);
      return { templateId: await serverlessTemplate() };
    }),
    [STATES.v2EndpointExists]: state(async () => {
      await removers.endpoint();
      const endpoint = await v2().serverless.create(v2EndpointInput(await serverlessTemplate()));
      world.track(() => v2().serverless.delete(endpoint.id));
      return { endpointId: endpoint.id };
    }),

    [STATES.v2VolumeNameFree]: nameFree(removers.volume),
    [STATES.v2VolumeExists]: state(async () => {
      await removers.volume();
      const volume = await v2().networkVolumes.create({ ...V2_VOLUME });
      world.track(() => v2().networkVolumes.delete(volume.id));
      return { networkVolumeId: volume.id };
    }),

    [STATES.v2RegistryNameFree]: nameFree(removers.registry),
    [STATES.v2RegistryExists]: state(async () => {
      await removers.registry();
      const registry = await v2().registries.create({ ...V2_REGISTRY });
      world.track(() => v2().registries.delete(registry.id));
      return { registryId: registry.id };
    }),

    [STATES.v2SecretNameFree]: nameFree(removers.secret),

    // The account's key list is replaced whole by PUT: without a reset, the keys found are put back.
    [STATES.v2SshKeyPresent]: state(async () => {
      const { keys } = await v2().account.sshKeys.get();
      world.track(() => v2().account.sshKeys.update({ keys }));
      if (!keys.includes(PACT_SSH_KEY)) await v2().account.sshKeys.update({ keys: [...keys, PACT_SSH_KEY] });
      return {};
    }),

    [STATES.v2QuotaUsedUp]: state(async () => {
      const retryAfterMs = await exhaustMinuteQuota(world);
      // Without a reset, let the window reopen before the next interaction (bounded by its length).
      world.track(() => new Promise((resolve) => setTimeout(resolve, Math.min(retryAfterMs, MAX_QUOTA_WAIT_MS))));
      return {};
    }),
  };
}

/**
 * Lists templates (one request each, no retries) until the target answers 429; at most the minute
 * window's quota plus one. Returns the wait the target asked for.
 */
async function exhaustMinuteQuota(world: ProviderWorld): Promise<number> {
  for (let i = 0; i <= MINUTE_WINDOW.limit; i++) {
    try {
      await world.restV2.templates.list(undefined, { maxRetries: 0 });
    } catch (error) {
      if (error instanceof RateLimitError) return error.retryAfterMs ?? MAX_QUOTA_WAIT_MS;
      throw error;
    }
  }
  return MAX_QUOTA_WAIT_MS;
}
