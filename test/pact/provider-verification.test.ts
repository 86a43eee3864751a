// Provider verification of the committed pacts against the embedded reference mock (127.0.0.1,
// ephemeral port, stopped afterwards): every interaction, every provider state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACT_SURFACES } from '../../src/pact/participants.js';
import { startEmbeddedPactTarget, type StartedTarget } from '../../src/pact/target.js';
import { verifyProviders } from '../../src/pact/verify.js';

let started: StartedTarget;
beforeAll(async () => {
  started = await startEmbeddedPactTarget();
});
afterAll(async () => {
  await started?.stop();
});

describe('provider verification against the embedded mock', () => {
  it.each(PACT_SURFACES)('%s pact verifies', async (surface) => {
    const [result] = await verifyProviders({ target: started.target, surfaces: [surface] });
    expect(result?.error).toBeUndefined();
    expect(result?.ok).toBe(true);
  }, 60_000);
});

describe('provider verification catches a provider that breaks the contract', () => {
  it('a mock that never answers 429 fails the queue v2 pact', async () => {
    const faulty = await startEmbeddedPactTarget(['no-429']);
    try {
      const [result] = await verifyProviders({ target: faulty.target, surfaces: ['queueV2'], logLevel: 'error' });
      expect(result?.ok).toBe(false);
    } finally {
      await faulty.stop();
    }
  }, 60_000);

  it('a mock whose REST v2 errors are not problem details fails the REST v2 pact', async () => {
    const faulty = await startEmbeddedPactTarget(['rest-v2-error-not-problem']);
    try {
      const [result] = await verifyProviders({ target: faulty.target, surfaces: ['restV2'], logLevel: 'error' });
      expect(result?.ok).toBe(false);
      expect(result?.error).toMatch(/Content-Type/);
    } finally {
      await faulty.stop();
    }
  }, 60_000);
});
