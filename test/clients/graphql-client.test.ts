import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  GraphQLResponseError,
  RateLimitError,
  ValidationError,
  createGraphqlClient,
  type GraphqlClientOptions,
} from '../../src/clients/index.js';
import { recordingSleep, startFakeServer, type FakeServer, type Route } from './fake-server.js';

const API_KEY = 'rpa_GQLKEY_zyxwvutsrq';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(route: Route, extra: Partial<GraphqlClientOptions> = {}) {
  server = await startFakeServer(route);
  const { sleep, delays } = recordingSleep();
  const gql = createGraphqlClient({ graphqlUrl: `${server.url}/graphql`, apiKey: API_KEY, sleep, ...extra });
  return { gql, server, delays };
}

const template = {
  id: 'tpl-1',
  name: 'my-template',
  imageName: 'runpod/worker:1',
  containerDiskInGb: 10,
  volumeInGb: 0,
  isServerless: true,
  dockerArgs: null,
  env: [{ key: 'A', value: '1' }],
  ports: null,
  readme: null,
  volumeMountPath: null,
  containerRegistryAuthId: null,
  isPublic: false,
  startSsh: null,
  startJupyter: null,
  startScript: null,
  category: null,
};
const input = { name: 'my-template', imageName: 'runpod/worker:1', containerDiskInGb: 10, volumeInGb: 0, isServerless: true };

describe('GraphQL transport', () => {
  it('key goes in ?api_key= by default (seed); body is {query, variables}', async () => {
    const { gql, server } = await client(() => ({ body: { data: { saveTemplate: template } } }));
    const saved = await gql.saveTemplate(input);
    expect(saved.id).toBe('tpl-1');
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.pathname).toBe('/graphql');
    expect(request?.query.get('api_key')).toBe(API_KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers['content-type']).toContain('application/json');
    const body = request?.json as { query: string; variables: unknown };
    expect(body.query).toContain('mutation SaveTemplate');
    expect(body.variables).toEqual({ input });
  });

  it("auth: 'header' sends Authorization: Bearer and no api_key parameter", async () => {
    const { gql, server } = await client(() => ({ body: { data: { secretDelete: null } } }), { auth: 'header' });
    await gql.secretDelete('sec-1');
    expect(server.requests[0]?.query.has('api_key')).toBe(false);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });
});

describe('GraphQL operations', () => {
  it('deleteTemplate, secretCreate, secretDelete, podTemplate', async () => {
    const answers: Record<string, unknown> = {
      DeleteTemplate: { deleteTemplate: null },
      SecretCreate: { secretCreate: { id: 's-1', name: 'token', description: null } },
      SecretDelete: { secretDelete: null },
      GetPodTemplate: { podTemplate: template },
    };
    const { gql, server } = await client((req) => ({ body: { data: answers[(req.json as { operationName: string }).operationName] } }));
    await expect(gql.deleteTemplate('my-template')).resolves.toBeUndefined();
    await expect(gql.secretCreate({ name: 'token', value: 's3cr3t-value' })).resolves.toEqual({ id: 's-1', name: 'token', description: null });
    await expect(gql.secretDelete('s-1')).resolves.toBeUndefined();
    expect((await gql.podTemplate('tpl-1'))?.name).toBe('my-template');
    expect(server.requests.map((r) => (r.json as { variables: unknown }).variables)).toEqual([
      { templateName: 'my-template' },
      { input: { name: 'token', value: 's3cr3t-value' } },
      { id: 's-1' },
      { id: 'tpl-1' },
    ]);
  });
});

describe('GraphQL errors', () => {
  it('errors[] → GraphQLResponseError carrying every message and path', async () => {
    const { gql } = await client(() => ({
      body: {
        data: { saveTemplate: null },
        errors: [
          { message: 'Template name must be unique', path: ['saveTemplate'], extensions: { code: 'BAD_USER_INPUT' } },
          { message: 'second', path: ['saveTemplate', 'name'] },
        ],
      },
    }));
    const error = await gql.saveTemplate(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    const gqlError = error as GraphQLResponseError;
    expect(gqlError.errors.map((e) => [e.message, e.path])).toEqual([
      ['Template name must be unique', ['saveTemplate']],
      ['second', ['saveTemplate', 'name']],
    ]);
    expect(gqlError.errors[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT' });
    expect(gqlError.message).toBe('Template name must be unique at saveTemplate (+1 more) (SaveTemplate)');
    expect(gqlError.operationId).toBe('SaveTemplate');
  });

  it('the secret value and api key never appear in a GraphQL error', async () => {
    const value = 'very-secret-value-42';
    const { gql } = await client((req) => ({ body: { data: null, errors: [{ message: `rejected ${JSON.stringify(req.json)} key=${API_KEY}` }] } }));
    const error = await gql.secretCreate({ name: 'n', value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    for (const text of [String(error), JSON.stringify(error), (error as Error).stack ?? '']) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(API_KEY);
    }
  });

  it('HTTP 401 → AuthenticationError (not a raw ClientError), without the key', async () => {
    const { gql } = await client(() => ({ status: 401, body: { errors: [{ message: 'Unauthorized' }] } }));
    const error = await gql.deleteTemplate('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String(error)).not.toContain(API_KEY);
  });

  it('429 on a mutation is retried after Retry-After, then succeeds', async () => {
    const { gql, delays } = await client((_req, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: { errors: [{ message: 'slow' }] } } : { body: { data: { secretDelete: null } } },
    );
    await gql.secretDelete('s');
    expect(delays).toEqual([1000]);
  });

  it('429 after retries → RateLimitError', async () => {
    const { gql } = await client(() => ({ status: 429, headers: { 'retry-after': '1' }, body: { errors: [{ message: 'slow' }] } }), { maxRetries: 0 });
    await expect(gql.secretDelete('s')).rejects.toBeInstanceOf(RateLimitError);
  });

  it('variables are checked against the SDL before sending', async () => {
    const { gql, server } = await client(() => ({ body: { data: {} } }));
    const error = await gql.saveTemplate({ ...input, containerDiskInGb: 'ten' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe('/variables/input/containerDiskInGb');
    await expect(gql.saveTemplate({ imageName: 'i', containerDiskInGb: 1, volumeInGb: 0 } as never)).rejects.toThrow(/name/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('GraphQL transport options', () => {
  it('per-call AbortSignal and timeoutMs reach the request', async () => {
    const { gql } = await client(() => ({ hang: true }), { maxRetries: 0 });
    const controller = new AbortController();
    const pending = gql.secretDelete('secret-1', { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', operationId: 'SecretDelete' });
    await expect(gql.deleteTemplate('t', { timeoutMs: 20 })).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
