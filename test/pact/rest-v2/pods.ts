// compute-rest-v2 interactions: pods — create, read, the stop action, and `reset` refused (REST v2
// has no reset action: 422 naming /body/action).
import type { PactV4 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { UnprocessableEntityError } from '../../../src/clients/index.js';
import type { RestV2Schemas } from '../../../src/clients/rest-v2/index.js';
import { v2PodInput } from '../../../src/pact/rest-v2-fixtures.js';
import { NAMES, STATES } from '../../../src/pact/state-names.js';
import { bearer, problemBody, problemContentType, restV2Client, statePath } from '../../../contract-tests/pact/consumer.js';
import { V2_IDS, v2Pod } from '../../../contract-tests/pact/rest-v2-shapes.js';

const podPath = statePath('/v2/pods/${podId}', `/v2/pods/${V2_IDS.pod}`);
const actionPath = statePath('/v2/pods/${podId}/action', `/v2/pods/${V2_IDS.pod}/action`);

export function podInteractions(pact: PactV4): void {
  describe('REST v2 client ↔ compute-rest-v2: pods', () => {
    it('creates a GPU pod (201, still booting)', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2PodNameFree)
        .uponReceiving('a REST v2 pod creation')
        .withRequest('POST', '/v2/pods', (b) => b.headers(bearer()).jsonBody(v2PodInput()))
        .willRespondWith(201, (b) => b.jsonBody(v2Pod()))
        .executeTest(async (mock) => {
          const pod = await restV2Client(mock.url).pods.create(v2PodInput());
          expect(pod).toMatchObject({ id: V2_IDS.pod, name: NAMES.v2Pod, status: 'PROVISIONING', gpu: { id: v2PodInput().gpu.id } });
        });
    });

    it('reads a pod', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2PodExists)
        .uponReceiving('a REST v2 pod read')
        .withRequest('GET', podPath, (b) => b.headers(bearer()))
        .willRespondWith(200, (b) => b.jsonBody(v2Pod()))
        .executeTest(async (mock) => {
          const pod = await restV2Client(mock.url).pods.get(V2_IDS.pod);
          expect(pod.actions).toContain('stop');
        });
    });

    it('stops a pod: the answer is the pod, EXITED, with start among its actions', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2PodExists)
        .uponReceiving('a REST v2 pod stop action')
        .withRequest('POST', actionPath, (b) => b.headers(bearer()).jsonBody({ action: 'stop' }))
        .willRespondWith(200, (b) => b.jsonBody(v2Pod('stopped')))
        .executeTest(async (mock) => {
          const pod = await restV2Client(mock.url).pods.action(V2_IDS.pod, 'stop');
          expect(pod).toMatchObject({ status: 'EXITED', actions: ['start'] });
        });
    });

    it('reset is not a REST v2 action → 422', async () => {
      // Sent with validateRequests: false — the client would refuse the action locally.
      await pact
        .addInteraction()
        .given(STATES.v2PodExists)
        .uponReceiving('a REST v2 pod reset action')
        .withRequest('POST', actionPath, (b) => b.headers(bearer()).jsonBody({ action: 'reset' }))
        .willRespondWith(422, (b) =>
          b.headers(problemContentType()).jsonBody(problemBody(422, 'request validation failed', { pattern: '^/body/action: .+$', example: '/body/action: must be one of "start", "stop", "restart", "terminate"' })),
        )
        .executeTest(async (mock) => {
          const reset = 'reset' as RestV2Schemas['PodAction'];
          const error = await restV2Client(mock.url, { validateRequests: false }).pods.action(V2_IDS.pod, reset).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(UnprocessableEntityError);
        });
    });
  });
}
