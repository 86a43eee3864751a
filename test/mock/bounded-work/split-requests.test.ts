// Bounded work (issue 30, docs/mock.md "Bounded work"): each operation's most expensive request the limits
// allow is split across event-loop turns. Proven by counting turns (src/mock/turns.ts) and by ordering —
// cheap GET /v1/templates requests sent while the worst one runs are answered before it — never by time.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEED_ITEMS } from '../../../src/mock/control.js';
import { createDocsRoute } from '../../../src/mock/docs-route.js';
import { JSON_NODES_PER_TURN } from '../../../src/mock/json-in-turns.js';
import { PARSE_IN_ONE_TURN_BYTES } from '../../../src/mock/http.js';
import { turnsTaken, VIEWS_PER_TURN } from '../../../src/mock/turns.js';
import type { Site } from '../../../src/docs/index.js';
import { Harness, KEY } from '../harness.js';

const PODS = 20;
const STREAM_CHUNKS = 2_000;
const CHUNK = new Array<number>(50).fill(0);

let h: Harness;
let echoId: string;
let streamId: string;
let bigOutputId: string;

beforeAll(async () => {
  h = await Harness.start({
    clock: 'real', rateLimits: false, jobDurationMs: 0,
    workers: {
      echo: () => ({ ok: true }),
      stream: async function* () {
        for (let i = 0; i < STREAM_CHUNKS; i++) yield CHUNK;
      },
      'big-output': () => ({ values: new Array<number>(3 * JSON_NODES_PER_TURN).fill(1) }),
    },
  });
  for (let i = 0; i < PODS; i++) expect((await h.rest('POST', '/pods', { name: `pod-${i}`, imageName: 'repo/app:1' })).status).toBe(201);
  const templateId = await h.template();
  const endpoint = async (name: string) => (await h.rest('POST', '/endpoints', { name, templateId, workersMax: 1 })).body.id as string;
  echoId = await endpoint('echo');
  streamId = await endpoint('stream');
  bigOutputId = await endpoint('big-output');
});
afterAll(() => h.close());

const cheap = () => fetch(`${h.mock.restV1Url}/templates`, { headers: { authorization: `Bearer ${KEY}` } }).then((r) => r.arrayBuffer());

/** Runs `worst` while cheap requests go one after another; counts the turns it took and the cheap answers that came first. */
async function whileWorstRuns(worst: () => Promise<Response>): Promise<{ status: number; turns: number; cheapFirst: number; body: string }> {
  const before = turnsTaken();
  let finished = false;
  const pending = worst().then(async (res) => {
    const body = await res.text();
    finished = true;
    return { status: res.status, body };
  });
  let cheapFirst = 0;
  for (let i = 0; i < 1_000 && !finished; i++) {
    await cheap();
    if (!finished) cheapFirst++;
  }
  const { status, body } = await pending;
  return { status, body, turns: turnsTaken() - before, cheapFirst };
}

const get = (url: string) => () => fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
const post = (url: string, body: string) => () => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body });

async function completed(endpointId: string, jobId: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await h.status(endpointId, jobId)).body.status === 'COMPLETED') return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${jobId} did not complete`);
}

describe('bounded work: the worst request each operation allows is split across turns', () => {
  it('RESTV2 billing over the widest window (8784 hour buckets): a resource per turn, records and answer in slices', async () => {
    for (const path of ['/v2/billing', '/v2/billing/pods']) {
      const run = await whileWorstRuns(get(`${h.mock.url}${path}?bucketSize=hour&lastN=8784`));
      expect(run.status).toBe(200);
      expect(run.turns, path).toBeGreaterThanOrEqual(PODS - 1);
      expect(run.cheapFirst, path).toBeGreaterThanOrEqual(1);
    }
  });

  it('/__control/seed creates its resources in slices and refuses more than MAX_SEED_ITEMS', async () => {
    const templates = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i}`, imageName: 'repo/app:1' }));
    const run = await whileWorstRuns(post(`${h.mock.controlUrl}/seed`, JSON.stringify({ account: 'seeded', templates: templates(MAX_SEED_ITEMS, 'a') })));
    expect(run.status).toBe(200);
    expect((JSON.parse(run.body) as { created: { templates: string[] } }).created.templates).toHaveLength(MAX_SEED_ITEMS);
    expect(run.turns).toBeGreaterThanOrEqual(MAX_SEED_ITEMS / 25 - 1);
    expect(run.cheapFirst).toBeGreaterThanOrEqual(1);
    const tooMany = await h.control('POST', '/seed', { account: 'seeded-2', templates: templates(MAX_SEED_ITEMS + 1, 'b') });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain(`at most ${MAX_SEED_ITEMS}`);
    expect((await h.control('GET', '/state?account=seeded-2')).body.counts.templates).toBe(0);
  });

  it('a large job body (/run) is parsed in slices, and the handler gets a copy made in slices', async () => {
    const body = `{"input":{"values":[${'1,'.repeat(PARSE_IN_ONE_TURN_BYTES)}1]}}`;
    const run = await whileWorstRuns(post(`${h.mock.queueV2Url(echoId)}/run`, body));
    expect(run.status).toBe(200);
    expect(run.turns).toBeGreaterThanOrEqual(4);
    const jobId = (JSON.parse(run.body) as { id: string }).id;
    await completed(echoId, jobId);
    expect((await h.status(echoId, jobId)).body.output).toEqual({ ok: true });
  });

  it('a malformed large body is still a 400 naming /body', async () => {
    const res = await post(`${h.mock.queueV2Url(echoId)}/run`, `{"input":{"values":[${'1,'.repeat(PARSE_IN_ONE_TURN_BYTES)}]}}`)();
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ path: '/body' }] });
  });

  it('the webhook of a job with a large input is written in slices, the same JSON', async () => {
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => (received.push(body), res.end()));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const values = new Array<number>(2 * JSON_NODES_PER_TURN).fill(2);
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const before = turnsTaken();
      const jobId = await h.run(echoId, { values }, { webhook: hook });
      for (let i = 0; i < 500 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(turnsTaken() - before).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(received[0]!)).toMatchObject({ id: jobId, status: 'COMPLETED', input: { values }, webhook: hook });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('QUEUE /status of a large result is written in slices (chunked), the same JSON', async () => {
    const jobId = await h.run(bigOutputId);
    await completed(bigOutputId, jobId);
    const run = await whileWorstRuns(get(`${h.mock.queueV2Url(bigOutputId)}/status/${jobId}`));
    expect(run.status).toBe(200);
    expect(run.turns).toBeGreaterThanOrEqual(3);
    expect((JSON.parse(run.body) as { output: { values: number[] } }).output.values).toHaveLength(3 * JSON_NODES_PER_TURN);
  });

  it('QUEUE /stream hands out a long backlog in slices; the generator is drained a slice per turn', async () => {
    const before = turnsTaken();
    const jobId = await h.run(streamId);
    await completed(streamId, jobId);
    expect(turnsTaken() - before, 'turns while the worker streamed').toBeGreaterThanOrEqual(STREAM_CHUNKS / 64);
    const run = await whileWorstRuns(get(`${h.mock.queueV2Url(streamId)}/stream/${jobId}`));
    expect(run.status).toBe(200);
    expect(run.turns).toBeGreaterThanOrEqual(4);
    expect((JSON.parse(run.body) as { stream: unknown[] }).stream).toHaveLength(STREAM_CHUNKS);
  });

  it('lists of an account longer than VIEWS_PER_TURN are built in slices (REST v1, REST v2, GraphQL)', async () => {
    const store = h.mock.core.store;
    for (let i = 0; i < VIEWS_PER_TURN + 50; i++) {
      expect(store.createPod({ name: `many-${i}`, imageName: 'repo/app:1' }).ok).toBe(true);
      expect(store.saveTemplate({ name: `many-${i}`, imageName: 'repo/app:1' }).ok).toBe(true);
    }
    const cases: [string, () => Promise<Response>, (body: string) => number, number][] = [
      ['/v1/pods', get(`${h.mock.restV1Url}/pods`), (b) => (JSON.parse(b) as unknown[]).length, store.pods.size],
      ['/v1/templates', get(`${h.mock.restV1Url}/templates?includeEndpointBoundTemplates=true`), (b) => (JSON.parse(b) as unknown[]).length, store.templates.size],
      ['/v2/pods', get(`${h.mock.url}/v2/pods`), (b) => (JSON.parse(b) as { pods: unknown[] }).pods.length, store.pods.size],
      ['/v2/templates', get(`${h.mock.url}/v2/templates`), (b) => (JSON.parse(b) as { templates: unknown[] }).templates.length, store.templates.size],
      ['graphql myself.pods', post(h.mock.graphqlUrl, JSON.stringify({ query: '{ myself { pods { id } } }' })), (b) => (JSON.parse(b) as { data: { myself: { pods: unknown[] } } }).data.myself.pods.length, store.pods.size],
    ];
    for (const [name, request, count, expected] of cases) {
      const run = await whileWorstRuns(request);
      expect(run.status, name).toBe(200);
      expect(count(run.body), name).toBe(expected);
      expect(run.turns, name).toBeGreaterThanOrEqual(1);
    }
  });

  it('the docs site is built before the mock listens, once (no request waits for the build)', () => {
    let builds = 0;
    const route = createDocsRoute(() => {
      builds++;
      return { files: new Map() } as unknown as Site;
    });
    route.prepare();
    route.prepare();
    expect(builds).toBe(1);
  });
});
