// Broker support can't be exercised here (no broker): these tests pin the argument building only.
import { describe, expect, it } from 'vitest';
import { brokerFromEnv, brokerHeaders, brokerVerifierOptions, buildPublishRequest, versionFromEnv } from '../../src/pact/broker.js';
import { ProviderWorld } from '../../src/pact/provider-world.js';
import { verifierOptions } from '../../src/pact/verify.js';

const target = { name: 't', restUrl: 'https://rest.example/v1', queueUrl: 'https://api.example/v2', graphqlUrl: 'https://gql.example/graphql', restV2Url: 'https://mgmt.example/v2', apiKey: 'k' };
const noGit = () => undefined;

describe('broker settings', () => {
  it('without PACT_BROKER_BASE_URL there is no broker (files only)', () => {
    expect(brokerFromEnv({})).toBeUndefined();
    expect(brokerFromEnv({ PACT_BROKER_BASE_URL: '  ' })).toBeUndefined();
  });

  it('token auth wins over basic auth; the URL loses its trailing slash', () => {
    const broker = brokerFromEnv({ PACT_BROKER_BASE_URL: 'https://broker.example/', PACT_BROKER_TOKEN: 'tok', PACT_BROKER_USERNAME: 'u' });
    expect(broker).toEqual({ baseUrl: 'https://broker.example', token: 'tok' });
    expect(brokerHeaders(broker!).authorization).toBe('Bearer tok');
    const basic = brokerFromEnv({ PACT_BROKER_BASE_URL: 'https://b', PACT_BROKER_USERNAME: 'u', PACT_BROKER_PASSWORD: 'p' })!;
    expect(brokerHeaders(basic).authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
  });

  it('version: PACT_VERSION / PACT_BRANCH, else git; a detached HEAD has no branch', () => {
    expect(versionFromEnv({ PACT_VERSION: '1.2.3', PACT_BRANCH: 'main', PACT_BUILD_URL: 'https://ci/1' }, noGit)).toEqual({ version: '1.2.3', branch: 'main', buildUrl: 'https://ci/1' });
    expect(versionFromEnv({}, (args) => (args[0] === 'rev-parse' && args[1] === 'HEAD' ? 'abc123' : 'HEAD'))).toEqual({ version: 'abc123' });
    expect(() => versionFromEnv({}, noGit)).toThrow(/PACT_VERSION/);
  });
});

describe('publishing', () => {
  it('builds one POST /contracts/publish with every pact base64-encoded', () => {
    const request = buildPublishRequest({ baseUrl: 'https://broker.example', token: 'tok' }, { version: 'abc', branch: 'main' }, [
      { surface: 'queueV2', content: '{"q":1}' },
      { surface: 'graphql', content: '{"g":1}' },
    ]);
    expect(request.url).toBe('https://broker.example/contracts/publish');
    expect(request.init.method).toBe('POST');
    expect(request.init.headers).toMatchObject({ authorization: 'Bearer tok', 'content-type': 'application/json' });
    const body = JSON.parse(request.init.body) as { contracts: { providerName: string; content: string }[] } & Record<string, unknown>;
    expect(body).toMatchObject({ pacticipantName: 'compute-contract-clients', pacticipantVersionNumber: 'abc', branch: 'main' });
    expect(body.contracts.map((c) => [c.providerName, Buffer.from(c.content, 'base64').toString()])).toEqual([
      ['compute-queue-v2', '{"q":1}'],
      ['compute-graphql', '{"g":1}'],
    ]);
  });
});

describe('verification options', () => {
  const broker = { baseUrl: 'https://broker.example', token: 'tok' };

  it('broker mode: selectors, pending pacts, results published only when asked', () => {
    const options = brokerVerifierOptions(broker, { version: 'abc', branch: 'main' }, {});
    expect(options).toMatchObject({
      pactBrokerUrl: 'https://broker.example',
      pactBrokerToken: 'tok',
      providerVersion: 'abc',
      providerVersionBranch: 'main',
      publishVerificationResult: false,
      enablePending: true,
      consumerVersionSelectors: [{ mainBranch: true }, { matchingBranch: true }, { deployedOrReleased: true }],
    });
    expect(brokerVerifierOptions(broker, { version: 'abc' }, { PACT_PUBLISH_VERIFICATION_RESULTS: 'true' }).publishVerificationResult).toBe(true);
  });

  it('a broker webhook (PACT_URL) verifies exactly that pact', () => {
    const options = brokerVerifierOptions(broker, { version: 'abc' }, { PACT_URL: 'https://broker.example/pacts/x' });
    expect(options.pactUrls).toEqual(['https://broker.example/pacts/x']);
    expect(options.pactBrokerUrl).toBeUndefined();
  });

  it('file mode reads pacts/ and never publishes; each provider gets its surface base URL', () => {
    const world = new ProviderWorld(target);
    const rest = verifierOptions('restV1', { target }, world);
    expect(rest.provider).toBe('compute-rest-v1');
    expect(rest.providerBaseUrl).toBe('https://rest.example');
    expect(rest.pactUrls?.[0]).toMatch(/pacts\/compute-contract-clients-compute-rest-v1\.json$/);
    expect(rest.publishVerificationResult).toBeUndefined();
    expect(verifierOptions('queueV2', { target }, world).providerBaseUrl).toBe('https://api.example');
    expect(verifierOptions('graphql', { target }, world).providerBaseUrl).toBe('https://gql.example');
    expect(verifierOptions('restV2', { target }, world)).toMatchObject({ provider: 'compute-rest-v2', providerBaseUrl: 'https://mgmt.example' });
  });

  it('a surface the target lacks is named with its flag', () => {
    const { restV2Url: _omitted, ...withoutV2 } = target;
    expect(() => verifierOptions('restV2', { target: withoutV2 }, new ProviderWorld(withoutV2))).toThrow(/REST v2 \(compute-rest-v2\) needs --rest-v2-url \(or CONFORM_REST_V2_URL\)/);
  });

  it('broker mode replaces the pact files with the broker', () => {
    const options = verifierOptions('queueV2', { target, broker: { settings: broker, version: { version: 'abc' }, env: {} } }, new ProviderWorld(target));
    expect(options.pactUrls).toBeUndefined();
    expect(options).toMatchObject({ pactBrokerUrl: 'https://broker.example', provider: 'compute-queue-v2', providerVersion: 'abc' });
  });
});
