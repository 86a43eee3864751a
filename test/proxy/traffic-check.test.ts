// check-traffic over a HAR recorded from the same traffic the proxy judged: the same violations.
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCheckTrafficArgs, runCheckTrafficCommand } from '../../src/cli/check-traffic-command.js';
import { createRestClient } from '../../src/clients/index.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { checkTraffic, HarError, MAX_HAR_BYTES, MAX_HAR_ENTRIES, parseHar, readHar, startProxy, type RunningProxy, type TrafficReport } from '../../src/proxy/index.js';
import { emptyHar, json, recordingFetch, startUpstream, type Har, type Upstream } from './harness.js';

const KEY = 'traffic-test-key';
const PASSWORD = 'recorded-password-1';
let dir: string;
let mock: RunningMock;
let upstream: Upstream;
let proxies: RunningProxy[];
const har: Har = emptyHar();

/** Distinct violations without first-seen examples (the same across proxy and HAR). */
const essence = (report: TrafficReport) => report.violations.map((v) => `${v.level} ${v.ruleId} ${v.surface} ${v.operationId} ×${v.count}: ${v.message}`).sort();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'check-traffic-'));
  mock = await startMock({ clock: 'virtual', port: 0, host: '127.0.0.1', rateLimits: false, faults: ['password-echoed'], apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }] });
  upstream = await startUpstream((req, res) => {
    req.resume();
    if (req.url === '/v1/pods' && !req.headers.authorization) return json(res, 200, []);
    json(res, 429, { message: 'Too many requests' });
  });
  proxies = [await startProxy({ upstream: mock.url, port: 0 }), await startProxy({ upstream: upstream.url, port: 0 })];
  const record = recordingFetch(har);
  const rest = createRestClient({ baseUrl: `${proxies[0]!.url}/v1`, apiKey: KEY, fetch: record, maxRetries: 0 });
  const created = await rest.containerRegistryAuths.create({ name: 'reg-1', username: 'u', password: PASSWORD });
  await rest.containerRegistryAuths.get(created.id);
  await rest.pods.list();
  await record(`${proxies[0]!.url}/graphql?api_key=${KEY}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ podTemplate(id: "none") { id name } }' }) });
  await record(`${proxies[1]!.url}/v2/ep1/status/job-1`, { headers: { authorization: `Bearer ${KEY}` } });
  await record(`${proxies[1]!.url}/v1/pods`);
  writeFileSync(join(dir, 'traffic.har'), JSON.stringify(har));
});

afterAll(async () => {
  for (const p of proxies ?? []) await p.close();
  await upstream?.close();
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('check-traffic FILE.har', () => {
  it('judges recorded traffic exactly as the proxy judged it live', () => {
    const live = [...essence(proxies[0]!.report()), ...essence(proxies[1]!.report())].sort();
    const { report } = checkTraffic(readHar(join(dir, 'traffic.har')), 'traffic.har');
    expect(essence(report)).toEqual(live);
    expect(report.violations.map((v) => `${v.ruleId} ${v.operationId}`).sort()).toEqual([
      'AGREE-VALID-001 createContainerRegistryAuth', 'AGREE-VALID-001 getContainerRegistryAuth', 'AUTH-001 listPods',
      'RATE-429-001 getJobStatus', 'SECRET-001 createContainerRegistryAuth', 'SECRET-001 getContainerRegistryAuth',
    ]);
    expect(report.totals).toMatchObject({ exchanges: 6, judged: 6, unmatched: 0 });
  });

  it('CLI: summary, reports with secrets redacted, exit 1 on a must violation, 0 when only may counts are asked off', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const reports = join(dir, 'reports');
      expect(await runCheckTrafficCommand([join(dir, 'traffic.har'), '--report', reports])).toBe(1);
      expect(out.mock.calls.map((c) => String(c[0])).join('')).toMatch(/✗ \[must\] SECRET-001 restV1 createContainerRegistryAuth: secret leaked/);
      expect(readdirSync(reports).sort()).toEqual(['conformance-report.html', 'conformance-report.json', 'conformance-report.md', 'junit.xml']);
      for (const file of readdirSync(reports)) {
        const text = readFileSync(join(reports, file), 'utf8');
        expect(text, file).not.toContain(PASSWORD);
        expect(text, file).not.toContain(KEY);
        expect(text, file).toContain('SECRET-001');
      }
      const saved = JSON.parse(readFileSync(join(reports, 'conformance-report.json'), 'utf8')) as TrafficReport;
      expect(saved.violations.every((v) => typeof v.operationId === 'string' && typeof v.ruleId === 'string' && ['must', 'should', 'may'].includes(v.level) && v.message.length > 0)).toBe(true);
      expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toMatch(/<failure message="2 violation\(s\) at level must"/);
      expect(await runCheckTrafficCommand([join(dir, 'traffic.har'), '--level', 'may'])).toBe(1);
      const onlyShould = join(dir, 'only-429.har');
      writeFileSync(onlyShould, JSON.stringify({ log: { ...har.log, entries: har.log.entries.slice(4, 5) } }));
      expect(await runCheckTrafficCommand([onlyShould])).toBe(0);
      expect(await runCheckTrafficCommand([onlyShould, '--strict'])).toBe(1);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it('bad input is a clear error with exit code 2, never a crash', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const cases: [string, string | null, RegExp][] = [
        ['bad.har', '{"log": ', /not JSON/],
        ['nohar.har', '{"entries": []}', /log\.entries must be an array/],
        ['badurl.har', JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: '/relative' }, response: { status: 200 } }] } }), /entry 0: request\.url must be an absolute URL/],
        ['badhdr.har', JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: 'http://x/v1/pods', headers: [{ name: 1 }] }, response: { status: 200 } }] } }), /entry 0 request: headers\[0\]/],
        ['missing.har', null, /cannot read .*ENOENT/],
      ];
      for (const [name, text, message] of cases) {
        if (text !== null) writeFileSync(join(dir, name), text);
        err.mockClear();
        expect(await runCheckTrafficCommand([join(dir, name)]), name).toBe(2);
        expect(err.mock.calls.map((c) => String(c[0])).join(''), name).toMatch(message);
      }
      const huge = join(dir, 'huge.har');
      writeFileSync(huge, '');
      truncateSync(huge, MAX_HAR_BYTES + 1);
      expect(() => readHar(huge)).toThrow(HarError);
      expect(() => readHar(huge)).toThrow(/at most 67108864 are read/);
      expect(() => parseHar(JSON.stringify({ log: { entries: new Array(MAX_HAR_ENTRIES + 1).fill({}) } }))).toThrow(/at most 10000 are read/);
      expect(() => parseCheckTrafficArgs([])).toThrow(/one HAR file expected/);
      expect(() => parseCheckTrafficArgs(['a.har', '--surface', 'rest'])).toThrow(/--surface must be/);
      expect(() => parseCheckTrafficArgs(['a.har', '--strict', '--level', 'must'])).toThrow(/exclude each other/);
      expect(() => parseCheckTrafficArgs(['a.har', '--level', 'must,never'])).toThrow(/--level takes/);
      expect(await runCheckTrafficCommand(['--bogus'])).toBe(2);
    } finally {
      err.mockRestore();
    }
  });

  it('reads base64 bodies, counts entries without an answer, and marks bodies it did not get', () => {
    const entries = parseHar(JSON.stringify({ log: { entries: [
      { request: { method: 'GET', url: 'http://h/v1/pods', headers: [{ name: 'Authorization', value: `Bearer ${KEY}` }] }, response: { status: 200, headers: [{ name: 'Content-Type', value: 'application/json' }], content: { text: Buffer.from('[]').toString('base64'), encoding: 'base64' } } },
      { request: { method: 'GET', url: 'http://h/v1/pods' }, response: { status: 0 } },
      { request: { method: 'GET', url: 'http://h/v1/pods', headers: [{ name: 'Authorization', value: `Bearer ${KEY}` }] }, response: { status: 200, content: {} } },
    ] } }));
    const { report } = checkTraffic(entries, 'inline');
    expect(report.totals).toMatchObject({ exchanges: 3, judged: 2, upstreamErrors: 1, violations: 0 });
    expect(report.notes).toEqual([{ note: 'answer not judged: body not recorded', count: 1 }]);
  });
});
