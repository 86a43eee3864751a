// ISOLATION-* in live traffic: an answer to one key carrying an object id first seen in another key's
// traffic is flagged (proxy and check-traffic); keys are compared by a keyed hash, never stored or printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyBody, type Exchange } from '../../src/proxy/exchange.js';
import { IdOwners, MAX_REMEMBERED_IDS, mayCarryIds, objectIds } from '../../src/proxy/id-owners.js';
import { judgeExchange } from '../../src/proxy/judge.js';
import { checkTraffic, parseHar, startProxy, type RunningProxy } from '../../src/proxy/index.js';
import { SecretBook } from '../../src/proxy/secrets.js';
import { emptyHar, json, recordingFetch, startUpstream, type Upstream } from './harness.js';

const KEY_A = 'cross-account-key-aaaa';
const KEY_B = 'cross-account-key-bbbb';
const POD = { id: 'pod7f3k2x9q1', name: 'a-pod', imageName: 'img:1', gpuCount: 1, desiredStatus: 'RUNNING' };

function exchange(key: string, method: string, path: string, answer: unknown, status = 200): Exchange {
  const bytes = Buffer.from(JSON.stringify(answer));
  return {
    method, url: `http://upstream.test${path}`, requestHeaders: { authorization: `Bearer ${key}` }, requestBody: emptyBody(),
    status, responseHeaders: { 'content-type': 'application/json' }, responseBody: { bytes, totalBytes: bytes.length, recorded: true },
  };
}

describe('IdOwners', () => {
  it('ISOLATION-READ-001 an id first seen in A\'s answers, answered to B, is foreign; to A again it is not', () => {
    const owners = new IdOwners();
    expect(owners.observe(KEY_A, POD)).toEqual([]);
    expect(owners.observe(KEY_A, [POD])).toEqual([]);
    expect(owners.observe(KEY_B, { pods: [POD] })).toEqual([POD.id]);
  });
  it('object ids: own ids and owned references, not catalogue entries, machines or account identities', () => {
    const answer = { id: 'pod7f3k2x9q1', templateId: 'tpl-0123456', consumerUserId: 'user_12345', gpu: { id: 'NVIDIA-H100-80GB' }, machine: { gpuTypeId: 'NVIDIA-A100' }, count: 123456 };
    expect([...objectIds(answer)].sort()).toEqual(['pod7f3k2x9q1', 'tpl-0123456']);
  });
  it('answers whose JSON text cannot hold an id are not walked: every id key (and any \\u escape, which could spell one) is seen', () => {
    for (const answer of [POD, { pods: [] }, { podId: 'pod7f3k2x9q1' }, { networkVolumeId: 'vol-0123456' }, { 'i\u0064': 'x' }]) {
      expect(mayCarryIds(Buffer.from(JSON.stringify(answer)))).toBe(objectIds(answer).size > 0 || JSON.stringify(answer).includes('id"'));
    }
    expect(mayCarryIds(Buffer.from('{"i\\u0064":"pod7f3k2x9q1"}'))).toBe(true);
    expect(mayCarryIds(Buffer.from(JSON.stringify({ status: 'COMPLETED', output: { text: 'hello' }, delayTime: 3 })))).toBe(false);
  });
  it(`remembers at most ${MAX_REMEMBERED_IDS} ids, the oldest forgotten first`, () => {
    const owners = new IdOwners();
    owners.observe(KEY_A, { id: 'first-id-000' });
    for (let i = 0; i < MAX_REMEMBERED_IDS; i++) owners.observe(KEY_A, { id: `id-${String(i).padStart(8, '0')}` });
    expect(owners.size).toBe(MAX_REMEMBERED_IDS);
    // Forgotten: B's answer carrying it is no finding (and B now owns it).
    expect(owners.observe(KEY_B, { id: 'first-id-000' })).toEqual([]);
    expect(owners.observe(KEY_B, { id: `id-${String(MAX_REMEMBERED_IDS - 1).padStart(8, '0')}` })).toHaveLength(1);
  });
  it('keeps no API key: only keyed hashes, different from the key', () => {
    const owners = new IdOwners();
    owners.observe(KEY_A, POD);
    const kept = JSON.stringify([...(owners as unknown as { owners: Map<string, string> }).owners]);
    expect(kept).not.toContain(KEY_A);
    expect(kept).not.toContain(Buffer.from(KEY_A).toString('base64url'));
  });
});

describe('judgeExchange with owners', () => {
  const judgeAll = (exchanges: Exchange[]) => {
    const owners = new IdOwners();
    return exchanges.flatMap((ex) => judgeExchange(ex, new SecretBook(), { owners }).violations.filter((v) => v.ruleId.startsWith('ISOLATION-')).map((v) => `${v.ruleId}: ${v.message}`));
  };
  it('ISOLATION-READ-001 / LIST-001 / WRITE-001 by the kind of operation; the message names the id, never a key', () => {
    const found = judgeAll([
      exchange(KEY_A, 'POST', '/v1/pods', POD, 201),
      exchange(KEY_B, 'GET', `/v1/pods/${POD.id}`, POD),
      exchange(KEY_B, 'GET', '/v1/pods', [POD]),
      exchange(KEY_B, 'POST', `/v1/pods/${POD.id}/stop`, POD),
    ]);
    expect(found).toEqual([
      `ISOLATION-READ-001: getPod answered 200 to one API key with id(s) first seen in another key's traffic: ${POD.id}`,
      `ISOLATION-LIST-001: listPods answered 200 to one API key with id(s) first seen in another key's traffic: ${POD.id}`,
      `ISOLATION-WRITE-001: stopPod answered 200 to one API key with id(s) first seen in another key's traffic: ${POD.id}`,
    ]);
    expect(found.join()).not.toMatch(/cross-account-key/);
  });
  it('error answers, catalogue reads and one key\'s own objects are no finding', () => {
    expect(judgeAll([
      exchange(KEY_A, 'GET', `/v1/pods/${POD.id}`, POD),
      exchange(KEY_B, 'GET', `/v1/pods/${POD.id}`, { message: `pod ${POD.id} not found` }, 404),
      exchange(KEY_A, 'GET', '/v2/catalog/gpus', { gpus: [{ id: 'NVIDIA-GeForce-RTX-4090' }] }),
      exchange(KEY_B, 'GET', '/v2/catalog/gpus', { gpus: [{ id: 'NVIDIA-GeForce-RTX-4090' }] }),
      exchange(KEY_A, 'GET', '/v1/pods', [POD]),
    ])).toEqual([]);
  });
});

describe('proxy and check-traffic in front of a server that shares every object', () => {
  let upstream: Upstream;
  let proxy: RunningProxy;
  const har = emptyHar();
  beforeAll(async () => {
    upstream = await startUpstream((req, res) => {
      req.resume();
      if (req.url?.startsWith('/v1/pods/')) return json(res, 200, POD);
      json(res, 200, [POD]);
    });
    proxy = await startProxy({ upstream: upstream.url, port: 0 });
    const record = recordingFetch(har);
    await record(`${proxy.url}/v1/pods`, { headers: { authorization: `Bearer ${KEY_A}` } });
    await record(`${proxy.url}/v1/pods/${POD.id}`, { headers: { authorization: `Bearer ${KEY_B}` } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  it('ISOLATION-READ-001 the proxy flags B reading A\'s pod; the report holds neither key', () => {
    const report = proxy.report();
    expect(report.violations.map((v) => v.ruleId)).toEqual(['ISOLATION-READ-001']);
    expect(JSON.stringify(report)).not.toMatch(/cross-account-key/);
  });
  it('ISOLATION-READ-001 check-traffic flags the same in the recorded HAR', () => {
    const { report } = checkTraffic(parseHar(JSON.stringify(har)), 'traffic.har');
    expect(report.violations.map((v) => `${v.ruleId} ${v.operationId}`)).toEqual(['ISOLATION-READ-001 getPod']);
    expect(JSON.stringify(report)).not.toMatch(/cross-account-key/);
  });
});
