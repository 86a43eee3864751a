// The real service's URL layout on one port (RESTV2-LAYOUT-001): /v2/<REST v2 collection>/… is REST v2
// management, /v2/{endpointId}/… is queue v2, /graphql and /v1 as before, /rest/v2 an alias.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { createRestV2Client } from '../../src/clients/rest-v2/index.js';
import { surfaceOfUrl } from '../../src/conform/surfaces.js';
import { resourceId } from '../../src/mock/state/ids.js';
import { REST_V2_COLLECTIONS, surfaceOfV2Segment } from '../../src/contract/url-layout.js';
import { Harness, KEY } from './harness.js';

let h: Harness;
let endpointId: string;
beforeAll(async () => {
  h = await Harness.start();
  endpointId = await h.endpoint();
});
afterAll(() => h.close());

const queueSpec = JSON.parse(readFileSync(new URL('../../generated/queue-v2/openapi.json', import.meta.url), 'utf8')) as {
  servers: { variables: { endpointId: { 'x-endpoint-id-excludes': string[] } } }[];
};
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');

describe('which surface a /v2 path names', () => {
  it('the collections are the first segments after /v2 of the REST v2 paths, as the queue spec excludes them', () => {
    expect([...REST_V2_COLLECTIONS].sort()).toEqual(['account', 'billing', 'catalog', 'clusters', 'network-volumes', 'pods', 'registries', 'sandboxes', 'serverless', 'templates']);
    expect(queueSpec.servers[0]!.variables.endpointId['x-endpoint-id-excludes']).toEqual([...REST_V2_COLLECTIONS].sort());
  });

  it('no id the mock issues can be a collection name: ids are 14 lowercase alphanumerics, no collection is', () => {
    for (const name of REST_V2_COLLECTIONS) expect(name).not.toMatch(/^[a-z0-9]{14}$/);
    for (let i = 0; i < 1_000; i++) expect(resourceId()).toMatch(/^[a-z0-9]{14}$/);
    expect(surfaceOfV2Segment(endpointId)).toBe('queueV2');
  });

  it('every REST v2 operation path is answered by REST v2 at /v2/… (OPTIONS lists its method)', async () => {
    for (const op of operations.filter((o) => o.surface === 'restV2')) {
      const res = await fetch(`${h.mock.url}${concrete(op.path)}`, { method: 'OPTIONS' });
      await res.arrayBuffer();
      expect(res.status, op.path).toBe(204);
      expect(res.headers.get('allow')?.split(', '), op.path).toContain(op.method);
    }
  });

  it('every queue v2 operation path is answered by queue v2 at /v2/{endpointId}/…', async () => {
    for (const op of operations.filter((o) => o.surface === 'queueV2')) {
      const res = await fetch(`${h.mock.queueV2Url(endpointId)}${concrete(op.path)}`, { method: 'OPTIONS' });
      await res.arrayBuffer();
      expect(res.status, op.path).toBe(204);
      expect(res.headers.get('allow')?.split(', '), op.path).toContain(op.method);
    }
  });
});

describe('one base URL for REST v2, GraphQL and jobs, as official clients expect', () => {
  it('restV2Url is …/v2 and the client takes the mock root as baseUrl, as it takes https://api.runpod.io', async () => {
    expect(h.mock.restV2Url).toBe(`${h.mock.url}/v2`);
    const v2 = createRestV2Client({ baseUrl: h.mock.url, apiKey: KEY, sleep: async () => undefined });
    const created = await v2.templates.create({ name: 'layout', image: 'x:1' });
    expect((await v2.templates.list()).map((t) => t.id)).toContain(created.id);
  });

  it('REST v2, queue v2 and GraphQL answer on the same root', async () => {
    const pods = await h.request('GET', `${h.mock.url}/v2/pods`);
    expect(pods.status).toBe(200);
    expect(pods.body).toEqual({ pods: expect.any(Array) });
    const health = await h.request('GET', `${h.mock.url}/v2/${endpointId}/health`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ jobs: expect.any(Object), workers: expect.any(Object) });
    const gql = await h.graphql('{ __typename }');
    expect(gql.status).toBe(200);
  });

  it('an unknown endpoint id is a queue v2 404 (REST v1 error body); an unknown REST v2 path is a REST v2 404 (problem)', async () => {
    const queue = await h.request('GET', `${h.mock.url}/v2/noendpoint0001/health`);
    expect(queue.status).toBe(404);
    expect(queue.body).toMatchObject({ message: expect.stringContaining('noendpoint0001') });
    const res = await fetch(`${h.mock.url}/v2/pods/x1/nothing`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    await res.arrayBuffer();
  });

  it('/rest/v2 stays an alias of /v2 for REST v2', async () => {
    const template = await h.request('POST', `${h.mock.url}/rest/v2/templates`, { body: { name: 'alias', image: 'x:1' } });
    expect(template.status).toBe(201);
    const viaV2 = await h.request('GET', `${h.mock.url}/v2/templates/${template.body.id}`);
    expect(viaV2.body).toEqual(template.body);
  });
});

describe('conformance targets whose REST v2 and queue v2 share a base', () => {
  it('a URL belongs to REST v2 when the segment after the base is a collection, else to queue v2', () => {
    const base = 'http://127.0.0.1:1/v2';
    const target = { name: 't', apiKey: 'k', workerImage: 'w', queueUrl: base, restV2Url: base };
    expect(surfaceOfUrl(target, `${base}/templates`)).toBe('restV2');
    expect(surfaceOfUrl(target, `${base}/pods/abc/logs?tail=1`)).toBe('restV2');
    expect(surfaceOfUrl(target, `${base}/abc123/health`)).toBe('queueV2');
    expect(surfaceOfUrl({ ...target, restV2Url: 'https://api.example/v2' }, `${base}/templates`)).toBe('queueV2');
  });
});
