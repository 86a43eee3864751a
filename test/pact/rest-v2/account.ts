// compute-rest-v2 interactions: the catalog (one GPU type), account billing by day, and the
// account's SSH keys (read, replace) and an account secret (create).
import type { PactV4 } from '@pact-foundation/pact';
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { PACT_SSH_KEY, V2_GPU, V2_SECRET } from '../../../src/pact/rest-v2-fixtures.js';
import { STATES } from '../../../src/pact/state-names.js';
import { bearer, restV2Client } from '../../../contract-tests/pact/consumer.js';
import { V2_IDS, v2Billing, v2GpuType, v2Secret } from '../../../contract-tests/pact/rest-v2-shapes.js';

const { eachLike, regex } = MatchersV3;
const SSH_KEY_PATTERN = '^(ssh|ecdsa|sk)-\\S+ \\S+( .*)?$';

export function accountInteractions(pact: PactV4): void {
  describe('REST v2 client ↔ compute-rest-v2: catalog and billing', () => {
    it('reads one GPU type of the catalog', async () => {
      await pact
        .addInteraction()
        .uponReceiving('a REST v2 catalog read of a GPU type')
        .withRequest('GET', `/v2/catalog/gpus/${encodeURIComponent(V2_GPU.id)}`, (b) => b.headers(bearer()))
        .willRespondWith(200, (b) => b.jsonBody(v2GpuType()))
        .executeTest(async (mock) => {
          const gpu = await restV2Client(mock.url).catalog.gpu(V2_GPU.id);
          expect(gpu).toMatchObject({ id: V2_GPU.id, pool: V2_GPU.pool });
        });
    });

    it('lists account billing by day (records + metadata)', async () => {
      await pact
        .addInteraction()
        .uponReceiving('a REST v2 billing list by day')
        .withRequest('GET', '/v2/billing', (b) => b.headers(bearer()).query({ bucketSize: 'day' }))
        .willRespondWith(200, (b) => b.jsonBody(v2Billing()))
        .executeTest(async (mock) => {
          const billing = await restV2Client(mock.url).billing.all({ bucketSize: 'day' });
          expect(billing.metadata.query.bucketSize).toBe('day');
          expect(billing.records.length).toBeGreaterThan(0);
        });
    });
  });

  describe('REST v2 client ↔ compute-rest-v2: account SSH keys', () => {
    it('reads the SSH keys', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2SshKeyPresent)
        .uponReceiving('a REST v2 SSH key read')
        .withRequest('GET', '/v2/account/ssh-keys', (b) => b.headers(bearer()))
        .willRespondWith(200, (b) => b.jsonBody({ keys: eachLike(regex(SSH_KEY_PATTERN, PACT_SSH_KEY)) }))
        .executeTest(async (mock) => {
          const { keys } = await restV2Client(mock.url).account.sshKeys.get();
          expect(keys).toContain(PACT_SSH_KEY);
        });
    });

    it('replaces the SSH keys with PUT (the answer is the new list)', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2SshKeyPresent)
        .uponReceiving('a REST v2 SSH key replacement')
        .withRequest('PUT', '/v2/account/ssh-keys', (b) => b.headers(bearer()).jsonBody({ keys: [PACT_SSH_KEY] }))
        .willRespondWith(200, (b) => b.jsonBody({ keys: [PACT_SSH_KEY] }))
        .executeTest(async (mock) => {
          const { keys } = await restV2Client(mock.url).account.sshKeys.update({ keys: [PACT_SSH_KEY] });
          expect(keys).toEqual([PACT_SSH_KEY]);
        });
    });
  });

  describe('REST v2 client ↔ compute-rest-v2: account secrets', () => {
    it('creates a secret (201); the answer is metadata, never the value', async () => {
      await pact
        .addInteraction()
        .given(STATES.v2SecretNameFree)
        .uponReceiving('a REST v2 account secret creation')
        .withRequest('POST', '/v2/account/secrets', (b) => b.headers(bearer()).jsonBody({ ...V2_SECRET }))
        .willRespondWith(201, (b) => b.jsonBody(v2Secret()))
        .executeTest(async (mock) => {
          const secret = await restV2Client(mock.url).account.secrets.create({ ...V2_SECRET });
          expect(secret).toMatchObject({ id: V2_IDS.secret, name: V2_SECRET.name, description: V2_SECRET.description });
          expect(JSON.stringify(secret)).not.toContain(V2_SECRET.value);
        });
    });
  });
}
