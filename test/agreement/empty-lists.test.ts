// Agreement case (issue 28, found by Schemathesis 4.25 on our bundled spec): OpenAPI serialises an empty
// array in a form / explode:false query parameter as `name=` (`GET /v2/catalog/cpus?include=&product=POD`).
// The spec says an empty list is the parameter left out; so for every such parameter of REST v2 the
// mock answers `name=` exactly as it answers the request without it — never a schema refusal (include/0
// not in the enum).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { queryStyles } from '../../generated/query-styles.js';
import { parseQuery, queryStylesOf } from '../../src/contract/query-style.js';
import { operations } from '../../generated/operations.js';

const KEY = 'empty-lists-key-0123456789';
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ host: '127.0.0.1', port: 0, clock: 'virtual', rateLimits: false, apiKeys: [{ key: KEY, scopes: ['read'] }] });
});
afterAll(() => mock?.close());

const PATH_IDS: Record<string, string> = { getGpuType: 'NVIDIA GeForce RTX 4090', getCpuType: 'cpu3c', getDataCenter: 'EU-RO-1' };
/** Other parameters each case is sent with: alone, and beside a stock request where stock filters apply. */
const BESIDE = ['', 'include=AVAILABILITY&product=POD'];

const cases = Object.entries(queryStyles.restV2 as Record<string, Record<string, { explode: boolean }>>).flatMap(([operationId, styles]) =>
  Object.entries(styles).filter(([, style]) => !style.explode).flatMap(([name]) => BESIDE.filter((b) => !b.includes(`${name}=`)).map((beside) => [operationId, name, beside] as const)));

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
  return { status: res.status, body: await res.json() };
}

describe('an empty list in a form / explode:false query parameter is the parameter left out', () => {
  it('parseQuery reads `include=` as no include, and keeps the other parameters', () => {
    const styles = queryStylesOf('restV2', 'listCpuTypes');
    expect(parseQuery('include=&product=POD', styles)).toEqual({ product: ['POD'] });
    expect(parseQuery('include=&include=AVAILABILITY', styles)).toEqual({ include: ['AVAILABILITY'] });
  });

  it('GET /v2/catalog/cpus?include=&product=POD is answered as ?product=POD (the documented 400 for product without include, no schema refusal)', async () => {
    const empty = await get('/v2/catalog/cpus?include=&product=POD');
    expect(empty).toEqual(await get('/v2/catalog/cpus?product=POD'));
    expect(JSON.stringify(empty.body)).not.toMatch(/include\/0|enum/);
  });

  it.each(cases)('%s %s= (beside "%s") answers as without it', async (operationId, name, beside) => {
    const op = operations.find((o) => o.surface === 'restV2' && o.operationId === operationId)!;
    const path = op.path.replace('{id}', encodeURIComponent(PATH_IDS[operationId] ?? ''));
    const without = await get(`${path}${beside ? `?${beside}` : ''}`);
    const withEmpty = await get(`${path}?${name}=${beside ? `&${beside}` : ''}`);
    expect(withEmpty).toEqual(without);
    expect([200, 400]).toContain(withEmpty.status);
  });
});
