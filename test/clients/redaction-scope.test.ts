// The clients hide secrets and credential shapes only: names (templates, secrets, env keys) and env
// values stay readable in surfaced errors, secret values, passwords, accessSecret and keys do not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphqlClient, GraphQLResponseError, REDACTED, SecretRedactor } from '../../src/clients/index.js';
import { DEFAULT_API_KEY, startMock, type RunningMock } from '../../src/mock/index.js';

describe('SecretRedactor scope', () => {
  it('env pairs {key, value} are configuration: neither the value nor a name equal to it is hidden', () => {
    const redactor = new SecretRedactor(['rpa_KEY_123456']).addFromBody({
      input: { name: 'llama-3-8b', env: [{ key: 'MODEL', value: 'llama-3-8b' }] },
    });
    expect(redactor.text(`a template named 'llama-3-8b' already exists`)).toBe(`a template named 'llama-3-8b' already exists`);
    expect(redactor.value({ env: [{ key: 'MODEL', value: 'llama-3-8b' }] })).toEqual({ env: [{ key: 'MODEL', value: 'llama-3-8b' }] });
  });

  it('secret values, passwords, accessSecret, keys and bearer tokens are still hidden', () => {
    const redactor = new SecretRedactor(['rpa_KEY_123456']).addFromBody({
      input: { name: 'hf-token', value: 'hf_secret_value' },
      auth: { username: 'me', password: 'hunter2-pass' },
      s3Config: { accessId: 'AKIA1', accessSecret: 'aws/secret' },
    });
    const text = redactor.text('hf-token=hf_secret_value me:hunter2-pass aws/secret rpa_KEY_123456 Bearer abc.def');
    expect(text).toBe(`hf-token=${REDACTED} me:${REDACTED} ${REDACTED} ${REDACTED} Bearer ${REDACTED}`);
    expect(redactor.value({ name: 'hf-token', value: 'x1', password: 'p' })).toEqual({ name: 'hf-token', value: REDACTED, password: REDACTED });
  });
});

describe('GraphQL client errors against the mock', () => {
  let mock: RunningMock;
  beforeAll(async () => (mock = await startMock({ port: 0, clock: 'virtual' })));
  afterAll(() => mock.close());

  it('a duplicate template name is named in the thrown error', async () => {
    const gql = createGraphqlClient({ graphqlUrl: mock.graphqlUrl, apiKey: DEFAULT_API_KEY });
    const input = { name: 'dup-name', imageName: 'repo/img:1', containerDiskInGb: 10, volumeInGb: 0, env: [{ key: 'NAME', value: 'dup-name' }] };
    await gql.saveTemplate(input);
    const error = await gql.saveTemplate(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    expect((error as Error).message).toContain(`a template named 'dup-name' already exists`);
  });

  it('a duplicate secret is named, its value is not', async () => {
    const gql = createGraphqlClient({ graphqlUrl: mock.graphqlUrl, apiKey: DEFAULT_API_KEY });
    await gql.secretCreate({ name: 'dup-secret', value: 'first-value-123' });
    const error = (await gql.secretCreate({ name: 'dup-secret', value: 'second-value-456' }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(`'dup-secret'`);
    expect(JSON.stringify(error)).not.toContain('second-value-456');
  });
});
