import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

const op = (name: string) =>
  readFileSync(new URL(`../../specs/graphql/operations/${name}.graphql`, import.meta.url), 'utf8') +
  (name === 'SaveTemplate' || name === 'GetPodTemplate' ? readFileSync(new URL('../../specs/graphql/operations/PodTemplateFields.graphql', import.meta.url), 'utf8') : '');

const base = { name: 'gql-t', imageName: 'repo/img:1', containerDiskInGb: 10, volumeInGb: 0, isServerless: true };

describe('GraphQL templates', () => {
  it('GQL-TEMPLATE-001 GQL-TEMPLATE-003 GQL-TEMPLATE-013 saveTemplate creates; the template is visible over REST v1 too', async () => {
    const res = await h.graphql(op('SaveTemplate'), { input: { ...base, env: [{ key: 'A', value: '1' }], ports: '8888/http,22/tcp' } });
    expect(res.status).toBe(200);
    const t = res.body.data.saveTemplate;
    expect(t).toMatchObject({ ...base, env: [{ key: 'A', value: '1' }], ports: '8888/http,22/tcp', containerRegistryAuthId: null });
    const rest = await h.rest('GET', `/templates/${t.id}`);
    expect(rest.body).toMatchObject({ name: 'gql-t', env: { A: '1' }, ports: ['8888/http', '22/tcp'] });
  });

  it('GQL-TEMPLATE-005 saveTemplate with id replaces the whole template', async () => {
    const created = (await h.graphql(op('SaveTemplate'), { input: { ...base, readme: 'old', env: [{ key: 'A', value: '1' }] } })).body.data.saveTemplate;
    const res = await h.graphql(op('SaveTemplate'), { input: { ...base, id: created.id, imageName: 'repo/img:2' } });
    expect(res.body.data.saveTemplate).toMatchObject({ id: created.id, imageName: 'repo/img:2', readme: '', env: [] });
    expect((await h.graphql(op('GetPodTemplate'), { id: created.id })).body.data.podTemplate.imageName).toBe('repo/img:2');
  });

  it('GQL-TEMPLATE-002 required fields are enforced', async () => {
    const res = await h.graphql(op('SaveTemplate'), { input: { name: 'x', imageName: 'y' } });
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(res.body.data).toBeUndefined();
  });

  it('GQL-TEMPLATE-007 a duplicate name fails with a GraphQL error', async () => {
    await h.graphql(op('SaveTemplate'), { input: base });
    const res = await h.graphql(op('SaveTemplate'), { input: base });
    expect(res.body.data.saveTemplate).toBeNull();
    expect(res.body.errors[0].message).toMatch(/already exists/);
  });

  it('GQL-TEMPLATE-010 GQL-TEMPLATE-011 GQL-TEMPLATE-012 deleteTemplate by name: null on success, error while in use', async () => {
    const t = (await h.graphql(op('SaveTemplate'), { input: base })).body.data.saveTemplate;
    const ep = await h.endpoint({ templateId: t.id });
    const refused = await h.graphql(op('DeleteTemplate'), { templateName: base.name });
    expect(refused.body.errors[0].message).toMatch(/in use/);
    await h.rest('DELETE', `/endpoints/${ep}`);
    await h.advance(120_000);
    const res = await h.graphql(op('DeleteTemplate'), { templateName: base.name });
    expect(res.body).toEqual({ data: { deleteTemplate: null } });
    expect((await h.graphql(op('DeleteTemplate'), { templateName: base.name })).body.errors).toHaveLength(1);
  });

  it('GQL-TEMPLATE-009 rejects malformed ports', async () => {
    const res = await h.graphql(op('SaveTemplate'), { input: { ...base, ports: '8888/udp' } });
    expect(res.body.errors[0].message).toMatch(/ports/);
  });

  it('GQL-ERROR-001 a syntax error answers 200 with errors[]', async () => {
    const res = await h.graphql('mutation { saveTemplate(');
    expect(res.status).toBe(200);
    expect(res.body.errors).toHaveLength(1);
  });
});

describe('GraphQL secrets', () => {
  it('GQL-SECRET-001 SECRET-002 secretCreate returns id, name, description; the value is never returned', async () => {
    const res = await h.graphql(op('SecretCreate'), { input: { name: 'HF_TOKEN', value: 'hf_topsecret' } });
    expect(res.body.data.secretCreate).toEqual({ id: expect.any(String), name: 'HF_TOKEN', description: null });
    expect(JSON.stringify(res.body)).not.toContain('hf_topsecret');
    const probe = await h.graphql('mutation { secretCreate(input: {name: "B", value: "v"}) { id value } }');
    expect(probe.status).toBe(200);
    expect(probe.body.errors[0].message).toMatch(/value/);
    expect(probe.body.data).toBeUndefined();
  });

  it('GQL-SECRET-003 secretDelete: null on success, error for an unknown id', async () => {
    const id = (await h.graphql(op('SecretCreate'), { input: { name: 'S', value: 'v' } })).body.data.secretCreate.id;
    expect((await h.graphql(op('SecretDelete'), { id })).body).toEqual({ data: { secretDelete: null } });
    expect((await h.graphql(op('SecretDelete'), { id })).body.errors).toHaveLength(1);
  });

  it('{{ RUNPOD_SECRET_name }} in template env resolves inside the simulated worker only', async () => {
    await h.graphql(op('SecretCreate'), { input: { name: 'HF_TOKEN', value: 'hf_topsecret' } });
    const t = (await h.graphql(op('SaveTemplate'), { input: { ...base, env: [{ key: 'TOKEN', value: '{{ RUNPOD_SECRET_HF_TOKEN }}' }] } })).body.data.saveTemplate;
    expect(t.env[0].value).toBe('{{ RUNPOD_SECRET_HF_TOKEN }}');
    const ep = await h.endpoint({ templateId: t.id });
    const id = await h.run(ep, { mock: { durationMs: 0, envCheck: { TOKEN: 'hf_topsecret' } } });
    await h.advance(0);
    const status = await h.status(ep, id);
    expect(status.body.output).toEqual({ envCheck: { TOKEN: true } });
  });
});

describe('GraphQL error messages', () => {
  it('GQL-ERROR-001 SECRET-002 never echo a secret value, even for invalid input', async () => {
    const viaVariables = await h.graphql(op('SecretCreate'), { input: { value: 'leaky-secret-value' } });
    const viaLiteral = await h.graphql('mutation { secretCreate(input: {value: "leaky-literal-secret", name: 5}) { id } }');
    for (const res of [viaVariables, viaLiteral]) {
      expect(res.status).toBe(200);
      expect(res.body.errors.length).toBeGreaterThan(0);
      for (const e of res.body.errors) expect(e.message.length).toBeGreaterThan(0);
    }
    expect(JSON.stringify([viaVariables.body, viaLiteral.body])).not.toMatch(/leaky/);
  });
});
