// Provider states of the GraphQL interactions for the operations the official SDKs send (pods,
// endpoints): set up through GraphQL itself (our GraphQL client), so a target serving GraphQL alone can
// verify them. Without a control API, what a state creates is removed at teardown.
import type { ProviderWorld } from './provider-world.js';
import { NAMES, STATES } from './state-names.js';

type Values = Record<string, string>;
interface Handler {
  setup: (params?: unknown) => Promise<Values>;
  teardown: () => Promise<undefined>;
}
type StateFactory = (setup: () => Promise<Values>) => Handler;
type GraphqlSdkStateName = (typeof STATES)[Extract<keyof typeof STATES, `gql${string}`>];

/** A CPU pod: no GPU stock needed, the cheapest thing a real target could be asked for. */
const POD_INPUT = { name: NAMES.gqlPod, imageName: 'pact/worker:1.0', instanceId: 'cpu3c-2-4' } as const;

export function createGraphqlSdkStateHandlers(world: ProviderWorld, state: StateFactory): Record<GraphqlSdkStateName, Handler> {
  async function pod(): Promise<string> {
    const deployed = await world.graphql.deployCpuPod(POD_INPUT);
    // A terminate interaction may have removed it already: a failing cleanup is harmless.
    world.track(() => world.graphql.podTerminate(deployed.id).catch(() => undefined));
    return deployed.id;
  }

  async function serverlessTemplate(name: string): Promise<string> {
    const saved = await world.graphql.saveTemplate({ name, imageName: 'pact/worker:1.0', containerDiskInGb: 10, volumeInGb: 0, isServerless: true });
    return saved.id;
  }

  /** Pods an interaction deploys are named NAMES.gqlPod: removed before and after (targets without a reset). */
  async function removePods(): Promise<void> {
    if (world.hasControl) return;
    for (const p of await world.rest.pods.list()) if (p.name === NAMES.gqlPod) await world.rest.pods.delete(p.id);
  }

  return {
    [STATES.gqlPodNameFree]: state(async () => {
      await removePods();
      world.track(removePods);
      return {};
    }),
    [STATES.gqlRunningPod]: state(async () => ({ podId: await pod() })),
    [STATES.gqlStoppedPod]: state(async () => {
      const podId = await pod();
      await world.graphql.podStop(podId);
      return { podId };
    }),
    [STATES.gqlEndpointAndSecondTemplate]: state(async () => {
      const first = await serverlessTemplate(`${NAMES.gqlEndpoint}-template-1`);
      const second = await serverlessTemplate(`${NAMES.gqlEndpoint}-template-2`);
      const endpoint = await world.graphql.saveEndpoint({ name: NAMES.gqlEndpoint, templateId: first, gpuIds: 'AMPERE_16', workersMin: 0, workersMax: 1 });
      // Endpoint first, then the templates (after the delete delay a remote target may impose).
      world.track(() => world.rest.endpoints.delete(endpoint.id));
      return { endpointId: endpoint.id, templateId: second };
    }),
  };
}
