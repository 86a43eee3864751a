// The REST v2 client's account.secrets against the mock: typed CRUD (RESTV2-SECRET-001, -005, -006), a
// taken name as ConflictError (RESTV2-SECRET-003), and the value never surfaced by an error (RESTV2-SECRET-002).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, UnprocessableEntityError } from '../../../src/clients/errors.js';
import { createRestV2Client, type RestV2Client } from '../../../src/clients/rest-v2/index.js';
import { startMock, type RunningMock } from '../../../src/mock/index.js';

let mock: RunningMock;
let client: RestV2Client;

beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', clock: 'virtual', apiKeys: [{ key: 'client-key', scopes: ['read', 'write', 'jobs', 'graphql'] }] });
  client = createRestV2Client({ apiKey: 'client-key', baseUrl: mock.url, validateResponses: true });
});
afterAll(() => mock?.close());

describe('restV2 account.secrets', () => {
  it('RESTV2-SECRET-001/005/006 create, list by name, get, update, delete', async () => {
    const made = await client.account.secrets.create({ name: 'hf-token', value: 'hf_client_value_1', description: 'read token' });
    expect(made).toMatchObject({ name: 'hf-token', description: 'read token' });
    const listed: { id: string }[] = await client.account.secrets.list({ name: 'HF-TOKEN' });
    expect(listed.map((s) => s.id)).toEqual([made.id]);
    expect(await client.account.secrets.get(made.id)).toEqual(made);
    const cleared = await client.account.secrets.update(made.id, { description: '' });
    expect(cleared.description).toBeNull();
    expect(await client.account.secrets.delete(made.id)).toBeUndefined();
    await expect(client.account.secrets.get(made.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('RESTV2-SECRET-003 a taken name is a ConflictError; RESTV2-SECRET-002 no error shows the value', async () => {
    await client.account.secrets.create({ name: 'taken', value: 'first_value_1' });
    const conflict = await client.account.secrets.create({ name: 'TAKEN', value: 'second_value_2' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    // The client's own validator refuses the reserved prefix before sending.
    const refused = await client.account.secrets.create({ name: 'RUNPOD_X', value: 'third_value_3' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    for (const error of [conflict, refused] as Error[]) {
      const shown = `${error.message} ${String(error)} ${JSON.stringify(error)}`;
      expect(shown).not.toMatch(/second_value_2|third_value_3/);
    }
    const raw = createRestV2Client({ apiKey: 'client-key', baseUrl: mock.url, validateRequests: false });
    const unprocessable = await raw.account.secrets.create({ name: 'RUNPOD_Y', value: 'fourth_value_4' }).catch((e: unknown) => e);
    expect(unprocessable).toBeInstanceOf(UnprocessableEntityError);
    expect(JSON.stringify(unprocessable)).not.toContain('fourth_value_4');
  });
});
