// Where provider verification points: the same flags and environment as the conformance suite
// (src/conform/target.ts), or — by default — the reference mock on 127.0.0.1, port 0.
import { randomBytes } from 'node:crypto';
import { SURFACE_INFO } from '../contract/surfaces.js';
import { readOptions, remoteTarget, type TargetConfig } from '../conform/index.js';
import { startMock, type FaultName, type RunningMock } from '../mock/index.js';
import { PACT_SURFACES, PROVIDERS, type PactSurface } from './participants.js';

/** What verification needs of a target: the conformance suite's target config, minus suite-only fields. */
export type PactTarget = Pick<TargetConfig, 'name' | 'apiKey' | 'endpointId' | 'controlUrl' | 'controlToken' | 'restUrl' | 'queueUrl' | 'graphqlUrl' | 'restV2Url'>;

export interface StartedTarget {
  target: PactTarget;
  /** Stops what was started for the run (the embedded mock); a no-op for remote targets. */
  stop(): Promise<void>;
}

/**
 * The target's base URL of a surface (`--rest-url`, `--rest-v2-url` …) for verification or a provider
 * state that uses that surface; throws naming the flag when absent.
 */
export function pactSurfaceUrl(target: PactTarget, surface: PactSurface): string {
  const url = target[SURFACE_INFO[surface].field];
  const { label, flag, env } = SURFACE_INFO[surface];
  if (url === undefined) throw new Error(`${label} (${PROVIDERS[surface]}) needs ${flag} (or ${env}); the target has none`);
  return url;
}

/**
 * Resolves the target from `--rest-url/--queue-url/--graphql-url/--rest-v2-url/--api-key/--endpoint-id/
 * --control-url` (or their CONFORM_* variables). A remote target needs the URL of every surface
 * verified (`surfaces`). Without URLs, starts the embedded mock and stops it in `stop()`.
 */
export async function resolvePactTarget(argv: string[], env: NodeJS.ProcessEnv, surfaces: readonly PactSurface[] = PACT_SURFACES): Promise<StartedTarget> {
  const { values, errors } = readOptions(argv, env);
  if (errors.length > 0) throw new Error(errors.join('; '));
  const remote = remoteTarget(values);
  if (typeof remote === 'string') throw new Error(remote);
  if (remote) {
    const { name, restUrl, queueUrl, graphqlUrl, restV2Url, apiKey, endpointId, controlUrl, controlToken } = remote;
    const target: PactTarget = { name, restUrl, queueUrl, graphqlUrl, restV2Url, apiKey, endpointId, controlUrl, controlToken };
    const missing = surfaces.filter((surface) => target[SURFACE_INFO[surface].field] === undefined);
    if (missing.length > 0) {
      const flags = missing.map((surface) => `${SURFACE_INFO[surface].flag} (${PROVIDERS[surface]})`).join(', ');
      throw new Error(`provider verification of a remote target needs ${flags}; pick providers with --provider`);
    }
    return { target, stop: async () => {} };
  }
  return startEmbeddedPactTarget();
}

/**
 * The reference mock with a real clock (jobs finish on their own), control API and a random key.
 * `faults` injects the mock's known defects (tests prove verification catches them).
 *
 * Rate limits stay at the spec's figures: the queue v2 pact expects the purge-queue 429, and a
 * higher `rateLimits` factor would lift that limit too. REST v2's per-key quota (60 a minute) is not
 * tripped by accident because every provider state — also the empty one before an interaction
 * without a state — starts with `POST /reset`, which empties the quota windows: each interaction and
 * its setup (a handful of requests) start with a full minute window. Only the state that uses the
 * quota up on purpose (for the 429 interaction) reaches the limit.
 */
export async function startEmbeddedPactTarget(faults: FaultName[] = []): Promise<StartedTarget> {
  const apiKey = `pact-verify-${randomBytes(12).toString('hex')}`;
  const mock: RunningMock = await startMock({
    host: '127.0.0.1',
    port: 0,
    control: true,
    faults,
    apiKeys: [{ key: apiKey, scopes: ['read', 'write', 'jobs', 'graphql'] }],
  });
  return {
    target: {
      name: faults.length > 0 ? `embedded mock (faults: ${faults.join(', ')})` : 'embedded mock',
      restUrl: mock.restV1Url,
      queueUrl: `${mock.url}/v2`,
      graphqlUrl: mock.graphqlUrl,
      restV2Url: mock.restV2Url,
      apiKey,
      controlUrl: mock.controlUrl,
    },
    stop: () => mock.close(),
  };
}
