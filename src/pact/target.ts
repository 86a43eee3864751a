// Where provider verification points: the same flags and environment as the conformance suite
// (src/conform/target.ts), or — by default — the reference mock on 127.0.0.1, port 0.
import { randomBytes } from 'node:crypto';
import { readOptions, remoteTarget, type TargetConfig } from '../conform/target.js';
import { startMock, type FaultName, type RunningMock } from '../mock/index.js';

/** What verification needs of a target: the conformance suite's target config, minus suite-only fields. */
export type PactTarget = Pick<TargetConfig, 'name' | 'apiKey' | 'endpointId' | 'controlUrl'> & Required<Pick<TargetConfig, 'restUrl' | 'queueUrl' | 'graphqlUrl'>>;

export interface StartedTarget {
  target: PactTarget;
  /** Stops what was started for the run (the embedded mock); a no-op for remote targets. */
  stop(): Promise<void>;
}

/**
 * Resolves the target from `--rest-url/--queue-url/--graphql-url/--api-key/--endpoint-id/--control-url`
 * (or their CONFORM_* variables). Without URLs, starts the embedded mock and stops it in `stop()`.
 */
export async function resolvePactTarget(argv: string[], env: NodeJS.ProcessEnv): Promise<StartedTarget> {
  const { values, errors } = readOptions(argv, env);
  if (errors.length > 0) throw new Error(errors.join('; '));
  const remote = remoteTarget(values);
  if (typeof remote === 'string') throw new Error(remote);
  if (remote) {
    const { name, restUrl, queueUrl, graphqlUrl, apiKey, endpointId, controlUrl } = remote;
    // The pacts span the three surfaces (the conformance suite alone accepts a partial target).
    if (!restUrl || !queueUrl || !graphqlUrl) throw new Error('provider verification needs all three of --rest-url, --queue-url and --graphql-url');
    return { target: { name, restUrl, queueUrl, graphqlUrl, apiKey, endpointId, controlUrl }, stop: async () => {} };
  }
  return startEmbeddedPactTarget();
}

/**
 * The reference mock with a real clock (jobs finish on their own), control API and a random key.
 * `faults` injects the mock's known defects (tests prove verification catches them).
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
      apiKey,
      controlUrl: mock.controlUrl,
    },
    stop: () => mock.close(),
  };
}
