// REST v2 log streams in the mock: SSE framing and headers, tail/since/source/Last-Event-ID, live
// following on the mock clock, resume through createRestV2Client without repeats or gaps, worker logs,
// and the retention bound (RESTV2-LOGS-*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestV2Client } from '../../src/clients/rest-v2/index.js';
import { LOG_RETENTION_LINES, SimulatedLog } from '../../src/mock/rest-v2/log-lines.js';
import { KEY } from './harness.js';
import { lineNumber, openStream, startV2, v2Pod, type V2Mock } from './rest-v2-pod-fixtures.js';

let mock: V2Mock;
beforeAll(async () => {
  mock = await startV2();
});
afterAll(() => mock.close());

/** A pod that has been RUNNING for `seconds` (container lines 1 … seconds exist). */
async function runningPod(seconds: number): Promise<string> {
  const pod = await v2Pod(mock);
  mock.advance(5_000 + seconds * 1000);
  return pod.id as string;
}

/** Reads a stream to its end by moving the mock clock past the follow window (30 s). */
async function readToEnd(path: string, headers: Record<string, string> = {}) {
  const stream = await openStream(mock, path, headers);
  expect(stream.status).toBe(200);
  await stream.events(0);
  mock.advance(30_000);
  return { stream, events: await stream.ended() };
}

describe('REST v2 pod logs', () => {
  it('RESTV2-LOGS-001 text/event-stream, no-cache, X-Accel-Buffering no; id = data.ts, increasing', async () => {
    const id = await runningPod(3);
    const stream = await openStream(mock, `/pods/${id}/logs`);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.headers.get('ratelimit')).not.toBeNull();
    const events = await stream.events(6);
    stream.close();
    expect(stream.text().startsWith('retry: 1000\n\n')).toBe(true);
    expect(events.map((e) => [e.source, e.line])).toEqual([
      ['system', 'pod created (1 x NVIDIA GeForce RTX 4090, image img:1)'],
      ['system', 'machine assigned; pulling image'],
      ['system', 'container started'],
      ['container', '[1] GET /health 200'],
      ['container', '[2] step 2: loss 0.5774'],
      ['container', '[3] checkpoint saved (step 3)'],
    ]);
    for (const [i, e] of events.entries()) {
      expect(e.id).toBe(e.ts);
      expect(new Date(e.ts).toISOString()).toBe(e.ts);
      if (i > 0) expect(Date.parse(e.ts)).toBeGreaterThan(Date.parse(events[i - 1]!.ts));
    }
  });

  it('RESTV2-LOGS-002 tail (default 100), tail=0, source, since', async () => {
    const id = await runningPod(150);
    const all = (await readToEnd(`/pods/${id}/logs?tail=5000`)).events;
    expect(all.length).toBe(3 + 150 + 30); // system lines, 150 s of container lines, 30 s followed
    const byDefault = (await readToEnd(`/pods/${id}/logs`)).events;
    expect(byDefault.slice(0, 100).map(lineNumber)).toEqual(Array.from({ length: 100 }, (_, i) => 81 + i));
    const tail3 = await openStream(mock, `/pods/${id}/logs?tail=3&source=container`);
    expect((await tail3.events(3)).map(lineNumber)).toEqual([208, 209, 210]);
    tail3.close();
    const none = await readToEnd(`/pods/${id}/logs?tail=0&source=system`);
    expect(none.events).toEqual([]);
    const system = (await readToEnd(`/pods/${id}/logs?source=system`)).events;
    expect(system.map((e) => e.line)).toEqual(['pod created (1 x NVIDIA GeForce RTX 4090, image img:1)', 'machine assigned; pulling image', 'container started']);
    const since = all[50]!.ts;
    const fromSince = await openStream(mock, `/pods/${id}/logs?since=${encodeURIComponent(since)}&tail=1`);
    const first = await fromSince.events(1);
    fromSince.close();
    expect(first[0]!.ts).toBe(since);
  });

  it('RESTV2-LOGS-003 Last-Event-ID resumes after that event and overrides tail and since', async () => {
    const id = await runningPod(20);
    const stream = await openStream(mock, `/pods/${id}/logs?tail=100`);
    const full = await stream.events(23);
    stream.close();
    const resumed = await openStream(mock, `/pods/${id}/logs?tail=1&since=2000-01-01T00:00:00Z`, { 'last-event-id': full[9]!.id! });
    expect((await resumed.events(13)).map((e) => e.id)).toEqual(full.slice(10).map((e) => e.id));
    resumed.close();
  });

  it('RESTV2-LOGS-003 the client resumes after the stream ends: no line repeated, none skipped', async () => {
    const id = await runningPod(10);
    const client = createRestV2Client({ apiKey: KEY, baseUrl: mock.h.mock.restV2Url.replace(/\/v2$/, ''), sleep: async () => undefined });
    const abort = new AbortController();
    const lines: number[] = [];
    let reconnects = 0;
    const reading = (async () => {
      const options = { tail: 5, source: 'container' as const, signal: abort.signal, onReconnect: () => void reconnects++ };
      for await (const line of client.pods.logs(id, options)) {
        lines.push(lineNumber({ line: line.line } as never));
        if (lines.length >= 5 + 95) abort.abort();
      }
    })();
    // The backlog (tail 5) first, with the clock standing still.
    for (let i = 0; i < 500 && lines.length < 5; i++) await new Promise((r) => setTimeout(r, 2));
    // Each stream follows 30 s of mock time and ends; the client reconnects with Last-Event-ID.
    for (let i = 0; i < 400 && lines.length < 100; i++) {
      await new Promise((r) => setTimeout(r, 2));
      mock.advance(1_000);
    }
    await reading;
    expect(lines).toEqual(Array.from({ length: 100 }, (_, i) => 6 + i));
    expect(reconnects).toBeGreaterThanOrEqual(2);
  });

  it('RESTV2-LOGS-004 follows new lines on the mock clock, then ends after 30 s; ends with the pod', async () => {
    const id = await runningPod(2);
    const stream = await openStream(mock, `/pods/${id}/logs?tail=0`);
    await stream.events(0);
    mock.advance(3_000);
    expect((await stream.events(3)).map(lineNumber)).toEqual([3, 4, 5]);
    await mock.v2('POST', `/pods/${id}/action`, { action: 'stop' });
    expect((await stream.events(4))[3]).toMatchObject({ source: 'system', line: 'stop requested; container stopped' });
    mock.advance(27_000);
    expect((await stream.ended()).length).toBe(4);

    const second = await openStream(mock, `/pods/${id}/logs?tail=0`);
    await second.events(0);
    await mock.v2('POST', `/pods/${id}/action`, { action: 'terminate' });
    const last = await second.ended();
    expect(last.map((e) => e.line)).toEqual(['pod terminated']);
    expect((await mock.v2('GET', `/pods/${id}/logs`)).status).toBe(404);
  });

  it('RESTV2-LOGS-005 bad cursors → 400; unknown pod → 404', async () => {
    const id = await runningPod(1);
    expect((await mock.v2('GET', `/pods/${id}/logs?tail=5001`)).status).toBe(400);
    expect((await mock.v2('GET', `/pods/${id}/logs?since=yesterday`)).status).toBe(400);
    expect((await mock.v2('GET', `/pods/${id}/logs?source=kernel`)).status).toBe(400);
    const badId = await mock.v2('GET', `/pods/${id}/logs`, undefined, { 'last-event-id': 'line-7' });
    expect(badId.status).toBe(400);
    expect(badId.body.errors).toEqual(['/header/Last-Event-ID: must match format "date-time"']);
    expect((await mock.v2('GET', '/pods/nope/logs')).status).toBe(404);
  });
});

describe('REST v2 worker logs', () => {
  it('RESTV2-LOGS-005 a listed worker streams from its start; unknown endpoint or worker → 404', async () => {
    const tpl = (await mock.h.rest('POST', '/templates', { name: 'worker-logs', imageName: 'w:1', isServerless: true })).body;
    const endpoint = (await mock.h.rest('POST', '/endpoints', { name: 'ep-logs', templateId: tpl.id, workersMin: 1 })).body;
    const workers = mock.h.mock.core.engine.workersOf(endpoint.id);
    expect(workers.length).toBe(1);
    mock.advance(3_000);
    const stream = await openStream(mock, `/serverless/${endpoint.id}/workers/${workers[0]!.id}/logs`);
    const events = await stream.events(4);
    stream.close();
    expect(events[0]).toMatchObject({ source: 'system', line: expect.stringMatching(/^worker started/) });
    expect(events.slice(1).map(lineNumber)).toEqual([1, 2, 3]);
    expect((await mock.v2('GET', `/serverless/${endpoint.id}/workers/nope/logs`)).status).toBe(404);
    expect((await mock.v2('GET', `/serverless/nope/workers/${workers[0]!.id}/logs`)).status).toBe(404);
  });
});

describe('simulated log lines', () => {
  it('keeps at most 5000 lines per source however long the container ran', () => {
    const log = new SimulatedLog((n) => `line ${n}`);
    log.begin(0, 'start', [], 0);
    log.advance(1_000_000_000); // ~11.6 days: generates only the last 5000 lines
    const lines = log.read('container', { tail: 10_000 });
    expect(lines.length).toBe(LOG_RETENTION_LINES);
    expect(lines.at(-1)!.line).toBe('line 1000000');
    for (let i = 0; i < 3 * LOG_RETENTION_LINES; i++) log.note(1_000_000_000, `event ${i}`);
    expect(log.read('system', { tail: 100_000 }).length).toBe(LOG_RETENTION_LINES);
  });

  it('gives events at the same instant distinct increasing timestamps (unique ids)', () => {
    const log = new SimulatedLog((n) => `line ${n}`);
    log.begin(1000, 'start', [], 0);
    log.advance(3000);
    log.end(3000, 'stop');
    log.begin(3000, 'start again', [], 0);
    log.advance(4000);
    const ts = log.read(undefined, { tail: 100 }).map((l) => l.ts);
    expect(ts).toEqual([1000, 2000, 3000, 3001, 3002, 4000]);
    expect(log.read(undefined, { after: 3000 }).map((l) => l.ts)).toEqual([3001, 3002, 4000]);
  });
});
