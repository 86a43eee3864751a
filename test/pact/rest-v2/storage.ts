// compute-rest-v2 interactions: network volumes (create, read) and registry credentials (create,
// list) — a registry answer names the credential, never its user name or password.
import type { PactV4 } from '@pact-foundation/pact';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { V2_REGISTRY, V2_VOLUME } from '../../../src/pact/rest-v2-fixtures.js';
import { STATES } from '../../../src/pact/state-names.js';
import { bearer, restV2Client, statePath } from '../../../contract-tests/pact/consumer.js';
import { V2_IDS, v2Registry, v2Volume } from '../../../contract-tests/pact/rest-v2-shapes.js';

export function storageInteractions(pact: PactV4): void {
  describe('REST v2 client ↔ compute-rest-v2: network volumes', () => {
    it('creates a network volume (201)', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2VolumeNameFree)
        .uponReceiving('a REST v2 network volume creation')
        .withRequest('POST', '/v2/network-volumes', (b) => b.headers(bearer()).jsonBody({ ...V2_VOLUME }))
        .willRespondWith(201, (b) => b.jsonBody(v2Volume()))
        .executeTest(async (mock) => {
          const volume = await restV2Client(mock.url).networkVolumes.create({ ...V2_VOLUME });
          expect(volume).toMatchObject({ id: V2_IDS.networkVolume, ...V2_VOLUME });
        });
    });

    it('reads a network volume', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2VolumeExists)
        .uponReceiving('a REST v2 network volume read')
        .withRequest('GET', statePath('/v2/network-volumes/${networkVolumeId}', `/v2/network-volumes/${V2_IDS.networkVolume}`), (b) => b.headers(bearer()))
        .willRespondWith(200, (b) => b.jsonBody(v2Volume()))
        .executeTest(async (mock) => {
          const volume = await restV2Client(mock.url).networkVolumes.get(V2_IDS.networkVolume);
          expect(volume.size).toBe(V2_VOLUME.size);
        });
    });
  });

  describe('REST v2 client ↔ compute-rest-v2: registry credentials', () => {
    it('creates a registry credential (201); the answer holds no secret', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2RegistryNameFree)
        .uponReceiving('a REST v2 registry creation')
        .withRequest('POST', '/v2/registries', (b) => b.headers(bearer()).jsonBody({ ...V2_REGISTRY }))
        .willRespondWith(201, (b) => b.jsonBody(v2Registry()))
        .executeTest(async (mock) => {
          const registry = await restV2Client(mock.url).registries.create({ ...V2_REGISTRY });
          expect(registry).toEqual({ id: V2_IDS.registry, name: V2_REGISTRY.name });
        });
    });

    it('lists registry credentials (wrapped list)', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2RegistryExists)
        .uponReceiving('a REST v2 registry list')
        .withRequest('GET', '/v2/registries', (b) => b.headers(bearer()))
        .willRespondWith(200, (b) => b.jsonBody({ registries: MatchersV3.eachLike(v2Registry()) }))
        .executeTest(async (mock) => {
          const registries = await restV2Client(mock.url).registries.list();
          expect(registries).toEqual([{ id: V2_IDS.registry, name: V2_REGISTRY.name }]);
        });
    });
  });
}
