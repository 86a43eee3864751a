// Bounded everything (issue 11, Found 2): inputs beyond the spec's maxima are answered 400 naming the
// path, and the mock keeps answering; past its global ceilings it answers a documented error.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let h: Harness;
beforeEach(async () => (h = await Harness.start()));
afterEach(() => h.close());

const HUGE = { workersMin: 100_000_000, workersMax: 100_000_000 };
const paths = (res: { body: { errors?: { path: string }[] } }) => (res.body.errors ?? []).map((e) => e.path);

describe('Found 2: one request cannot take the mock down', () => {
  it('REST-BOUNDS-001 workersMin/workersMax 100000000 via PATCH, POST …/update and create → 400 naming /body/workersMin; the mock still answers', async () => {
    const endpointId = await h.endpoint();
    const templateId = await h.template();
    const answers = [
      await h.rest('PATCH', `/endpoints/${endpointId}`, HUGE),
      await h.rest('POST', `/endpoints/${endpointId}/update`, HUGE),
      await h.rest('POST', '/endpoints', { templateId, ...HUGE }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(paths(res)).toContain('/body/workersMin');
    }
    await h.advance(1_000);
    const after = await h.rest('GET', `/endpoints/${endpointId}?includeWorkers=true`);
    expect(after.status).toBe(200);
    expect(after.body.workersMin).toBe(0);
    expect((await h.queue(endpointId, 'GET', '/health')).status).toBe(200);
  });
});

describe('REST v1, queue v2 and GraphQL inputs are bounded', () => {
  it('REST-BOUNDS-001 strings, lists, maps and counts beyond the spec maxima → 400 naming the path, nothing stored', async () => {
    const templateId = await h.template();
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/templates', { name: 'n'.repeat(192), imageName: 'i' }, '/body/name'],
      ['POST', '/templates', { name: 't', imageName: 'i', env: Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`K${i}`, 'v'])) }, '/body/env'],
      ['POST', '/templates', { name: 't', imageName: 'i', env: { K: 'v'.repeat(16_385) } }, '/body/env/K'],
      ['POST', '/templates', { name: 't', imageName: 'i', ports: Array(65).fill('22/tcp') }, '/body/ports'],
      ['POST', '/templates', { name: 't', imageName: 'i', dockerStartCmd: Array(65).fill('x') }, '/body/dockerStartCmd'],
      ['POST', '/pods', { imageName: 'i', gpuCount: 9 }, '/body/gpuCount'],
      ['POST', '/pods', { imageName: 'i'.repeat(1025) }, '/body/imageName'],
      ['POST', '/pods', { imageName: 'i', gpuTypeIds: Array(65).fill('NVIDIA A40') }, '/body/gpuTypeIds'],
      ['POST', '/endpoints', { templateId, idleTimeout: 3601 }, '/body/idleTimeout'],
      ['POST', '/endpoints', { templateId, scalerValue: 3601 }, '/body/scalerValue'],
      ['POST', '/networkvolumes', { name: 'v', size: 4001, dataCenterId: 'EU-RO-1' }, '/body/size'],
      ['POST', '/containerregistryauth', { name: 'a', username: 'u', password: 'p'.repeat(8193) }, '/body/password'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await h.rest(method, path, body);
      expect(res.status, `${path} ${field}`).toBe(400);
      expect(paths(res), `${path} ${field}`).toContain(field);
    }
    for (const list of ['/pods', '/networkvolumes', '/containerregistryauth']) expect((await h.rest('GET', list)).body).toEqual([]);
    expect((await h.rest('GET', '/templates')).body).toHaveLength(1);
    expect((await h.rest('GET', `/pods?imageName=${'i'.repeat(1025)}`)).status).toBe(400);
  });

  it('QUEUE-BOUNDS-001 a webhook or s3Config string beyond its maxLength → 400 naming the path, no job stored', async () => {
    const endpointId = await h.endpoint({ workersMax: 0 });
    const webhook = await h.queue(endpointId, 'POST', '/run', { input: {}, webhook: `https://example.com/${'a'.repeat(2048)}` });
    expect(paths(webhook)).toContain('/body/webhook');
    const s3 = await h.queue(endpointId, 'POST', '/run', { input: {}, s3Config: { accessId: 'a', accessSecret: 's', bucketName: 'b', endpointUrl: 'https://s3.example.test', objectPath: 'p'.repeat(1025) } });
    expect(paths(s3)).toContain('/body/s3Config/objectPath');
    expect(h.mock.core.engine.jobCount).toBe(0);
  });

  it('GQL-BOUNDS-001 saveTemplate and secretCreate beyond the bounds in the SDL descriptions → errors[] naming the field, nothing stored', async () => {
    const SAVE = 'mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { id } }';
    const base = { name: 'g', imageName: 'i:1', containerDiskInGb: 5, volumeInGb: 0 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, name: 'n'.repeat(192) }, 'input.name'],
      [{ ...base, imageName: '' }, 'input.imageName'],
      [{ ...base, containerDiskInGb: 4001 }, 'input.containerDiskInGb'],
      [{ ...base, volumeInGb: -1 }, 'input.volumeInGb'],
      [{ ...base, env: Array.from({ length: 257 }, (_, i) => ({ key: `K${i}`, value: 'v' })) }, 'input.env'],
      [{ ...base, ports: Array(65).fill('22/tcp').join(',') }, 'input.ports'],
      [{ ...base, readme: 'r'.repeat(65_537) }, 'input.readme'],
      [{ ...base, startScript: 's'.repeat(16_385) }, 'input.startScript'],
    ];
    for (const [input, field] of cases) {
      const res = await h.graphql(SAVE, { input });
      expect(res.body.errors?.[0]?.message, field).toContain(field);
      expect(res.body.data?.saveTemplate ?? null).toBeNull();
    }
    expect((await h.rest('GET', '/templates')).body).toEqual([]);
    const SECRET = 'mutation($input: SecretCreateInput!) { secretCreate(input: $input) { id } }';
    for (const [input, field] of [[{ name: 'n'.repeat(192), value: 'v' }, 'input.name'], [{ name: 's', value: 'v'.repeat(65_537) }, 'input.value'], [{ name: 's', value: 'v', description: 'd'.repeat(1025) }, 'input.description']] as const) {
      expect((await h.graphql(SECRET, { input })).body.errors?.[0]?.message).toContain(field);
    }
    expect(h.mock.core.store.secrets.size).toBe(0);
  });

  it('GQL-BOUNDS-001 saveTemplate env counts entries as sent: 257 entries with a repeated key are refused', async () => {
    const env = Array.from({ length: 257 }, (_, i) => ({ key: `K${i % 256}`, value: 'v' }));
    const res = await h.graphql('mutation($i: SaveTemplateInput) { saveTemplate(input: $i) { id } }', {
      i: { name: 'env-257', imageName: 'x:1', containerDiskInGb: 10, volumeInGb: 0, env },
    });
    expect(String(res.body.errors?.[0]?.message)).toMatch(/input\.env must have at most 256 entries/);
    expect((await h.rest('GET', '/templates')).body.some((t: { name: string }) => t.name === 'env-257')).toBe(false);
  });

  it('GQL-BOUNDS-001 an over-long saveTemplate id is named as a bound error, not "template not found"', async () => {
    const res = await h.graphql('mutation($i: SaveTemplateInput) { saveTemplate(input: $i) { id } }', {
      i: { id: 'x'.repeat(129), name: 'long-id', imageName: 'x:1', containerDiskInGb: 10, volumeInGb: 0 },
    });
    expect(String(res.body.errors?.[0]?.message)).toMatch(/input\.id must have at most 128 characters/);
  });

  it('GQL-BOUNDS-001 lengths count Unicode code points, as JSON Schema maxLength does (a surrogate pair is one character)', async () => {
    const astral = '\u{1F600}';
    const create = (name: string) => h.graphql('mutation($i: SecretCreateInput!) { secretCreate(input: $i) { id name } }', { i: { name, value: 'v' } });
    const atMax = await create(astral.repeat(191));
    expect(atMax.body.errors).toBeUndefined();
    expect(atMax.body.data.secretCreate.name).toBe(astral.repeat(191));
    const over = await create(astral.repeat(192));
    expect(String(over.body.errors?.[0]?.message)).toMatch(/name/);
    const rest = await h.rest('POST', '/templates', { name: 'astral', imageName: 'x:1', dockerStartCmd: [astral.repeat(4096)] });
    expect(rest.status).toBe(200);
  });

  it('GQL-BOUNDS-001 the bounds the mock enforces are the ones the SDL descriptions state', async () => {
    const { TEMPLATE_INPUT_BOUNDS, SECRET_INPUT_BOUNDS } = await import('../../src/mock/state/input-bounds.js');
    const sdl = readFileSync(new URL('../../specs/graphql/schema.graphql', import.meta.url), 'utf8');
    const stated = (type: string, field: string): number[] => {
      const block = sdl.slice(sdl.indexOf(`input ${type} {`));
      const at = block.indexOf(`\n  ${field}:`);
      const description = block.slice(block.lastIndexOf('"""', block.lastIndexOf('"""', at) - 1) + 3, at).split('x-source:')[0]!;
      // Numbers in code spans are examples (`8888/http`), not bounds.
      const numbers = [...description.replace(/`[^`]*`/g, '').matchAll(/\b(\d+)\b/g)].map((x) => Number(x[1]));
      return [...new Set(numbers)].sort((x, y) => x - y);
    };
    const enforced = (b: Record<string, number | undefined>) =>
      [b['minLength'] ?? b['minimum'], b['maxLength'] ?? b['maximum'] ?? b['maxItems'], b['keyMaxLength'] === undefined ? undefined : 1, b['keyMaxLength'], b['itemMaxLength']]
        .filter((n): n is number => n !== undefined).sort((x, y) => x - y);
    for (const [field, bound] of Object.entries(TEMPLATE_INPUT_BOUNDS)) {
      if (field === 'dockerStartCmd' || field === 'dockerEntrypoint') continue; // stored shape of dockerArgs
      expect(stated('SaveTemplateInput', field), `SaveTemplateInput.${field}`).toEqual(enforced(bound as never));
    }
    for (const [field, bound] of Object.entries(SECRET_INPUT_BOUNDS)) expect(stated('SecretCreateInput', field), `SecretCreateInput.${field}`).toEqual(enforced(bound as never));
  });
});

describe('request head: every spec-valid query fits (specs/CONVENTIONS.md)', () => {
  it('REST-BOUNDS-001 the longest query the bounds allow is answered (not 431); a head over 1 MiB is 431 and the mock keeps answering', async () => {
    const item = encodeURIComponent('\u{1F600}'.repeat(128));
    const list = (name: string) => Array.from({ length: 64 }, () => `${name}[]=${item}`).join('&');
    const query = [list('gpuTypeId'), list('dataCenterId'), list('cpuFlavorId')].join('&');
    expect(query.length).toBeGreaterThan(200_000);
    const longest = await h.rest('GET', `/pods?${query}`);
    expect(longest.status).not.toBe(431);
    const tooLong = await fetch(`${h.mock.restV1Url}/pods?x=${'a'.repeat(1024 * 1024)}`, { headers: { authorization: 'Bearer test-key' } });
    await tooLong.arrayBuffer();
    expect(tooLong.status).toBe(431);
    expect((await h.rest('GET', '/pods')).status).toBe(200);
  });
});

describe('global ceilings: past them the mock answers a documented error and keeps answering', () => {
  it('QUEUE-CAPACITY-001 stored jobs per endpoint and in total → 429 with Retry-After, nothing stored; room again after purge', async () => {
    await h.close();
    h = await Harness.start({ limits: { maxJobsPerEndpoint: 3, maxJobsTotal: 5 } });
    const a = await h.endpoint({ workersMax: 0 });
    const b = await h.endpoint({ workersMax: 0 });
    for (let i = 0; i < 3; i++) await h.run(a);
    for (const path of ['/run', '/runsync?wait=1000']) {
      const full = await h.queue(a, 'POST', path, { input: {} });
      expect(full.status).toBe(429);
      expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    for (let i = 0; i < 2; i++) await h.run(b);
    expect((await h.queue(b, 'POST', '/run', { input: {} })).status).toBe(429); // 5 stored in total
    expect(h.mock.core.engine.jobCount).toBe(5);
    expect((await h.queue(a, 'POST', '/purge-queue')).body.removed).toBe(3);
    expect((await h.queue(b, 'POST', '/run', { input: {} })).status).toBe(200);
  });

  it('CAPACITY-HEAP-001 above the heap ceiling: creates and submissions → 503 with Retry-After (GraphQL: errors[]), reads still answer', async () => {
    const endpointId = await h.endpoint({ workersMax: 0 });
    const templateId = await h.template();
    h.mock.core.options.limits.heapLimitBytes = 0;
    const refused = [
      await h.rest('POST', '/templates', { name: 'x', imageName: 'i' }),
      await h.rest('POST', '/endpoints', { templateId }),
      await h.rest('POST', '/pods', { imageName: 'i' }),
      await h.rest('POST', '/networkvolumes', { name: 'v', size: 1, dataCenterId: 'EU-RO-1' }),
      await h.rest('POST', '/containerregistryauth', { name: 'a', username: 'u', password: 'p' }),
      await h.queue(endpointId, 'POST', '/run', { input: {} }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    const gql = await h.graphql('mutation { secretCreate(input: {name: "s", value: "v"}) { id } }');
    expect(gql.body.errors?.[0]?.message).toMatch(/memory ceiling/);
    expect((await h.rest('GET', '/templates')).body).toHaveLength(2);
    expect((await h.queue(endpointId, 'GET', '/health')).status).toBe(200);
    h.mock.core.options.limits.heapLimitBytes = Number.MAX_SAFE_INTEGER;
    expect((await h.queue(endpointId, 'POST', '/run', { input: {} })).status).toBe(200);
  });

  it('a restored or out-of-band endpoint config never makes the pool spawn more workers than the spec maximum', async () => {
    const { WorkerPool } = await import('../../src/mock/jobs/workers.js');
    const { WORKERS_CEILING } = await import('../../src/mock/state/input-bounds.js');
    const pool = new WorkerPool(h.mock.clock, () => ({ workersMin: 100_000_000, workersMax: 100_000_000 }), () => true);
    pool.scale(100_000_000);
    expect(pool.workers).toHaveLength(WORKERS_CEILING);
    pool.clear();
  });
});
