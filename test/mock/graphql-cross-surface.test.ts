// One template, two surfaces: GraphQL dockerArgs ⇄ REST v1 dockerStartCmd/dockerEntrypoint
// (GQL-TEMPLATE-014), and GraphQL error messages that hide secret values only, never names (GQL-ERROR-002).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

const SAVE = 'mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { id name dockerArgs } }';
const READ = 'query($id: String!) { podTemplate(id: $id) { id dockerArgs } }';
const base = { imageName: 'repo/img:1', containerDiskInGb: 10, volumeInGb: 0, isServerless: true };

async function saveViaGraphql(input: Record<string, unknown>): Promise<{ id: string; dockerArgs: string | null }> {
  const res = await h.graphql(SAVE, { input: { ...base, ...input } });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.saveTemplate;
}
const readViaGraphql = async (id: string) => (await h.graphql(READ, { id })).body.data.podTemplate.dockerArgs;
const readViaRest = async (id: string) => {
  const body = (await h.rest('GET', `/templates/${id}`)).body;
  return { dockerStartCmd: body.dockerStartCmd, dockerEntrypoint: body.dockerEntrypoint };
};

describe('GQL-TEMPLATE-014 dockerArgs and dockerStartCmd are one value', () => {
  it('dockerArgs saved through GraphQL reads back in REST v1 as dockerStartCmd, split like a shell', async () => {
    const args = `python -u handler.py --name "my model" --note 'it''s'`;
    const t = await saveViaGraphql({ name: 'split', dockerArgs: args });
    expect(t.dockerArgs).toBe(args);
    expect(await readViaRest(t.id)).toEqual({ dockerStartCmd: ['python', '-u', 'handler.py', '--name', 'my model', '--note', 'its'], dockerEntrypoint: [] });
    expect(await readViaGraphql(t.id)).toBe(args);
  });

  it('dockerStartCmd set through REST v1 reads back in GraphQL joined like a shell, quoting where needed', async () => {
    const created = await h.rest('POST', '/templates', { name: 'rest', imageName: 'repo/img:1', dockerStartCmd: ['python', 'serve.py', '--greeting', 'hello world', ''] });
    expect(created.status).toBe(200);
    const joined = await readViaGraphql(created.body.id);
    expect(joined).toBe(`python serve.py --greeting 'hello world' ''`);
    // And back: saving the joined text changes nothing.
    const same = await saveViaGraphql({ id: created.body.id, name: 'rest', dockerArgs: joined });
    expect(same.dockerArgs).toBe(joined);
    expect((await readViaRest(created.body.id)).dockerStartCmd).toEqual(['python', 'serve.py', '--greeting', 'hello world', '']);
  });

  it('a REST v1 change after a GraphQL save wins on both surfaces', async () => {
    const t = await saveViaGraphql({ name: 'patched', dockerArgs: 'python a.py' });
    expect((await h.rest('PATCH', `/templates/${t.id}`, { dockerStartCmd: ['python', 'b.py'] })).status).toBe(200);
    expect(await readViaGraphql(t.id)).toBe('python b.py');
  });

  it('with an entrypoint, dockerArgs carries the encoding {"cmd":[…],"entrypoint":[…]} both ways', async () => {
    const created = await h.rest('POST', '/templates', { name: 'ep', imageName: 'repo/img:1', dockerEntrypoint: ['/bin/sh', '-c'], dockerStartCmd: ['echo hi'] });
    const encoded = await readViaGraphql(created.body.id);
    expect(JSON.parse(encoded)).toEqual({ cmd: ['echo hi'], entrypoint: ['/bin/sh', '-c'] });
    const t = await saveViaGraphql({ name: 'from-json', dockerArgs: JSON.stringify({ cmd: ['run'], entrypoint: ['/init'] }) });
    expect(await readViaRest(t.id)).toEqual({ dockerStartCmd: ['run'], dockerEntrypoint: ['/init'] });
  });

  it('no dockerArgs (or an empty one) is an empty start command; a replace without it resets it', async () => {
    const t = await saveViaGraphql({ name: 'reset', dockerArgs: 'a b' });
    const replaced = await saveViaGraphql({ id: t.id, name: 'reset' });
    expect(replaced.dockerArgs).toBe('');
    expect(await readViaRest(t.id)).toEqual({ dockerStartCmd: [], dockerEntrypoint: [] });
  });
});

describe('GQL-ERROR-002 error messages hide secret values only', () => {
  it('a duplicate template name is named in the error', async () => {
    await saveViaGraphql({ name: 'my-template' });
    const res = await h.graphql(SAVE, { input: { ...base, name: 'my-template' } });
    expect(res.body.errors[0].message).toBe(`a template named 'my-template' already exists`);
  });

  it('deleteTemplate and secretCreate errors name what the caller sent', async () => {
    const del = await h.graphql('mutation($n: String) { deleteTemplate(templateName: $n) }', { n: 'no-such-template' });
    expect(del.body.errors[0].message).toContain(`'no-such-template'`);
    const create = 'mutation($input: SecretCreateInput!) { secretCreate(input: $input) { id } }';
    await h.graphql(create, { input: { name: 'hf-token', value: 'first-secret-value' } });
    const dup = await h.graphql(create, { input: { name: 'hf-token', value: 'second-secret-value' } });
    expect(dup.body.errors[0].message).toContain(`'hf-token'`);
    expect(JSON.stringify(dup.body)).not.toContain('second-secret-value');
  });

  it('a secret value echoed by graphql-js is hidden, the rest of the message is kept', async () => {
    const secret = 'sv-"quoted"-s3cr3t';
    const res = await h.graphql('mutation($input: SecretCreateInput!) { secretCreate(input: $input) { id } }', { input: { name: 'visible-name', value: secret, bogus: 1 } });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('s3cr3t');
    expect(res.body.errors[0].message).toContain('bogus');
    expect(res.body.errors[0].message).toContain('visible-name');
    // A syntax error quotes the token where parsing stopped: here the secret literal after a missing colon.
    const literal = await h.graphql(`mutation { secretCreate(input: {name: "lit-name", value "lit-s3cr3t-value"}) { id } }`);
    expect(literal.body.errors[0].message).toMatch(/^Syntax Error/);
    expect(JSON.stringify(literal.body)).not.toContain('lit-s3cr3t-value');
  });
});
