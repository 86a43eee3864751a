// Query lists travel as the spec declares them, decided in one place (src/contract/query-style.ts) for the
// clients, the mock, the conformance suite, the proxy and the agreement phase: one test per style in
// use (form exploded: REST v1; form not exploded: REST v2 catalogue), the table generated from the
// specs, and the mock and the REST v2 client meeting on the wire.
import { createQuerySerializer } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryStyles } from '../../generated/query-styles.js';
import { createRestV2Client } from '../../src/clients/rest-v2/index.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { parseQuery, queryStylesOf, serializeQuery } from '../../src/contract/query-style.js';

const KEY = 'query-style-key-0123456789';
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ host: '127.0.0.1', port: 0, clock: 'virtual', rateLimits: false, apiKeys: [{ key: KEY, scopes: ['read', 'write'] }] });
});
afterAll(() => mock?.close());

describe('query style table (generated from the specs)', () => {
  it('holds the list parameters of every surface with their style and explode', () => {
    expect(queryStylesOf('restV1', 'listPods')['gpuTypeId']).toEqual({ style: 'form', explode: true });
    expect(queryStylesOf('restV2', 'listGpuTypes')['product']).toEqual({ style: 'form', explode: false });
    expect(queryStylesOf('restV2', 'listPods')).toEqual({});
    expect(queryStylesOf('queueV2', 'runJob')).toEqual({});
    const all = queryStyles as Record<string, Record<string, Record<string, { style: string; explode: boolean }>>>;
    const styles = new Set(Object.values(all).flatMap((ops) => Object.values(ops).flatMap((params) => Object.values(params).map((p) => `${p.style}/${p.explode}`))));
    // The styles in use; a new one needs its own test below.
    expect([...styles].sort()).toEqual(['form/false', 'form/true']);
  });
});

describe('style form, explode true (REST v1 gpuTypeId, dataCenterId, cpuFlavorId)', () => {
  const styles = queryStylesOf('restV1', 'listPods');

  it('sends one key per item and reads them back as a list, a single item included', () => {
    const text = serializeQuery({ gpuTypeId: ['NVIDIA A40', 'NVIDIA L4'], computeType: 'GPU' }, styles);
    expect(text).toBe('gpuTypeId=NVIDIA%20A40&gpuTypeId=NVIDIA%20L4&computeType=GPU');
    expect(parseQuery(text, styles)).toEqual({ gpuTypeId: ['NVIDIA A40', 'NVIDIA L4'], computeType: 'GPU' });
    expect(parseQuery('gpuTypeId=NVIDIA+A40', styles)).toEqual({ gpuTypeId: ['NVIDIA A40'] });
  });

  it('is what the REST v1 / queue v2 clients send (openapi-fetch\'s default serializer, which they keep for speed)', () => {
    const query = { gpuTypeId: ['NVIDIA A40', 'NVIDIA L4'], computeType: 'GPU', includeMachine: true };
    expect(createQuerySerializer()(query)).toBe(serializeQuery(query, styles));
  });

  it('keeps a comma inside an item (no splitting when exploded)', () => {
    expect(parseQuery('dataCenterId=a,b', styles)).toEqual({ dataCenterId: ['a,b'] });
  });
});

describe('style form, explode false (REST v2 catalogue filters)', () => {
  const styles = queryStylesOf('restV2', 'listGpuTypes');

  it('sends one key, items joined by a literal comma, an item\'s own comma percent-encoded', () => {
    expect(serializeQuery({ include: ['AVAILABILITY'], product: ['POD', 'SERVERLESS'], count: 2 }, styles)).toBe('include=AVAILABILITY&product=POD,SERVERLESS&count=2');
    expect(serializeQuery({ countryCodes: ['a,b', 'c'] }, styles)).toBe('countryCodes=a%2Cb,c');
    expect(serializeQuery({ product: [] }, styles)).toBe('');
  });

  it('reads the comma form, an encoded comma as part of an item, and repeated keys as one list (lenient)', () => {
    expect(parseQuery('?include=AVAILABILITY&product=POD,SERVERLESS', styles)).toEqual({ include: ['AVAILABILITY'], product: ['POD', 'SERVERLESS'] });
    expect(parseQuery('countryCodes=a%2Cb,c', styles)).toEqual({ countryCodes: ['a,b', 'c'] });
    expect(parseQuery('product=POD&product=CLUSTER,SERVERLESS', styles)).toEqual({ product: ['POD', 'CLUSTER', 'SERVERLESS'] });
  });

  it('the mock answers the comma form the spec declares (issue 21, case 1)', async () => {
    const res = await fetch(`${mock.restV2Url}/catalog/gpus?include=AVAILABILITY&product=POD,SERVERLESS`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = await res.json() as { gpus: { availability?: unknown }[] };
    expect(res.status).toBe(200);
    expect(body.gpus.length).toBeGreaterThan(0);
    expect(body.gpus.every((g) => g.availability !== undefined)).toBe(true);
  });

  it('the REST v2 client sends the comma form', async () => {
    const urls: string[] = [];
    const client = createRestV2Client({
      apiKey: KEY, baseUrl: mock.url,
      fetch: (input, init) => {
        urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        return globalThis.fetch(input, init);
      },
    });
    const gpus = await client.catalog.gpus({ include: ['AVAILABILITY'], product: ['POD', 'SERVERLESS'] });
    expect(gpus.length).toBeGreaterThan(0);
    expect(urls.at(-1)).toMatch(/\/v2\/catalog\/gpus\?include=AVAILABILITY&product=POD,SERVERLESS$/);
  });
});
