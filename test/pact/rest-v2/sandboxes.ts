// compute-rest-v2 interactions: sandboxes — create one from an image (201, usually still CREATING).
import type { PactV4 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { V2_SANDBOX } from '../../../src/pact/rest-v2-fixtures.js';
import { STATES } from '../../../src/pact/state-names.js';
import { bearer, restV2Client } from '../../../contract-tests/pact/consumer.js';
import { V2_IDS, v2Sandbox } from '../../../contract-tests/pact/rest-v2-shapes.js';

export function sandboxInteractions(pact: PactV4): void {
  describe('REST v2 client ↔ compute-rest-v2: sandboxes', () => {
    it('creates a sandbox from an image (201, the timeouts applied, no compute yet)', async () => {
      const body = { ...V2_SANDBOX, labels: { ...V2_SANDBOX.labels } };
      await pact
        .addInteraction()
        .given(STATES.v2SandboxNameFree)
        .uponReceiving('a REST v2 sandbox creation')
        .withRequest('POST', '/v2/sandboxes', (b) => b.headers(bearer()).jsonBody(body))
        .willRespondWith(201, (b) => b.jsonBody(v2Sandbox()))
        .executeTest(async (mock) => {
          const sandbox = await restV2Client(mock.url).sandboxes.create(body);
          expect(sandbox).toMatchObject({ id: V2_IDS.sandbox, name: V2_SANDBOX.name, state: 'CREATING', idleTimeoutSeconds: 300, labels: { pact: 'v2' } });
        });
    });
  });
}
