// Each fault is a named deliberate deviation; these tests prove each one really deviates (so the
// conformance suite has something to catch) and that none is active by default.
import { afterEach, describe, expect, it } from 'vitest';
import { FAULT_NAMES, type FaultName } from '../../src/mock/index.js';
import { Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Requests here deviate from the spec on purpose, so responses are not schema-checked. */
async function raw(method: string, url: string, body?: unknown, key: string | null = 'test-key') {
  const headers: Record<string, string> = {};
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A key of a second account (`acme`), for the account isolation faults. */
const OTHER = 'other-account-key';
const ALL = ['read', 'write', 'jobs', 'graphql'] as const;
const keys = [{ key: 'test-key', scopes: [...ALL] }, { key: OTHER, scopes: [...ALL], account: 'acme' }];
const start = async (fault?: FaultName) => (h = await Harness.start(fault ? { faults: [fault], apiKeys: keys } : { apiKeys: keys }));

const deviations: Record<FaultName, (h: Harness) => Promise<boolean>> = {
  'ttl-min-off-by-one': async (h) => {
    const ep = await h.endpoint();
    return (await raw('POST', `${h.mock.queueV2Url(ep)}/run`, { input: {}, policy: { ttl: 9_999 } })).status === 200;
  },
  'no-401-on-bad-key': async (h) => (await raw('GET', `${h.mock.restV1Url}/pods`, undefined, 'wrong')).status === 200,
  'status-after-ttl-200': async (h) => {
    const ep = await h.endpoint({ workersMax: 0 });
    const id = await h.run(ep, {}, { policy: { ttl: 10_000 } });
    await h.advance(10_000);
    return (await raw('GET', `${h.mock.queueV2Url(ep)}/status/${id}`)).status === 200;
  },
  'retry-new-id': async (h) => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 0, error: 'x' } });
    await h.advance(0);
    return (await raw('POST', `${h.mock.queueV2Url(ep)}/retry/${id}`)).body.id !== id;
  },
  'purge-removes-running': async (h) => {
    const ep = await h.endpoint();
    await h.run(ep, { mock: { durationMs: 60_000 } });
    await h.advance(0);
    return (await raw('POST', `${h.mock.queueV2Url(ep)}/purge-queue`)).body.removed === 1;
  },
  'no-webhook-retry': async (h) => {
    const ep = await h.endpoint();
    await h.run(ep, { mock: { durationMs: 0 } }, { webhook: 'http://127.0.0.1:1/down' });
    await h.advance(0);
    await h.advance(60_000);
    return (await h.control('GET', '/webhooks')).body.deliveries.length === 1;
  },
  'no-429': async (h) => {
    const ep = await h.endpoint();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await raw('POST', `${h.mock.queueV2Url(ep)}/purge-queue`)).status);
    return !statuses.includes(429);
  },
  'password-echoed': async (h) =>
    'password' in (await raw('POST', `${h.mock.restV1Url}/containerregistryauth`, { name: 'n', username: 'u', password: 'pw' })).body,
  'retention-too-short': async (h) => {
    const ep = await h.endpoint();
    const id = await h.run(ep, { mock: { durationMs: 0 } });
    await h.advance(0);
    await h.advance(20 * 60_000);
    return (await raw('GET', `${h.mock.queueV2Url(ep)}/status/${id}`)).status === 404;
  },
  'template-delete-in-use': async (h) => {
    const templateId = await h.template();
    await h.endpoint({ templateId });
    return (await raw('DELETE', `${h.mock.restV1Url}/templates/${templateId}`)).status === 204;
  },
  'bodyless-rejects-empty-object': async (h) => {
    const ep = await h.endpoint();
    return (await raw('POST', `${h.mock.queueV2Url(ep)}/purge-queue`, {})).status === 400;
  },
  'workers-unbounded': async (h) => {
    const templateId = await h.template();
    return (await raw('POST', `${h.mock.restV1Url}/endpoints`, { templateId, workersMin: 101, workersMax: 101 })).status === 200;
  },
  'stopped-pod-restart-refused': async (h) => {
    const pod = (await raw('POST', `${h.mock.restV1Url}/pods`, { imageName: 'img:1' })).body as { id: string };
    await raw('POST', `${h.mock.restV1Url}/pods/${pod.id}/stop`);
    return (await raw('POST', `${h.mock.restV1Url}/pods/${pod.id}/restart`)).status === 400;
  },
  'no-allow-header': async (h) => {
    const res = await fetch(`${h.mock.restV1Url}/pods`, { method: 'PUT', headers: { authorization: 'Bearer test-key' } });
    await res.arrayBuffer();
    return res.status === 405 && !res.headers.has('allow');
  },
  'graphql-redacts-names': async (h) => {
    const res = await h.graphql('mutation { deleteTemplate(templateName: "fault-probe") }');
    return String(res.body.errors?.[0]?.message).includes('[redacted]');
  },
  'rest-v2-list-not-wrapped': async (h) => Array.isArray((await raw('GET', `${h.mock.restV2Url}/templates`)).body),
  'rest-v2-error-not-problem': async (h) => {
    const res = await fetch(`${h.mock.restV2Url}/templates/none`, { headers: { authorization: 'Bearer test-key' } });
    return res.status === 404 && res.headers.get('content-type') === 'application/json' && 'message' in (await res.json() as object);
  },
  'rest-v2-429-without-retry-after': async (h) => {
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${h.mock.restV2Url}/templates`, { headers: { authorization: 'Bearer test-key' } });
      await res.arrayBuffer();
      if (res.status === 429) return res.headers.get('retry-after') === null;
    }
    return false;
  },
  'rest-v2-reset-accepted': async (h) => {
    const pod = await raw('POST', `${h.mock.restV1Url}/pods`, { name: 'fault-probe', imageName: 'x:1' });
    return (await raw('POST', `${h.mock.restV2Url}/pods/${pod.body.id}/action`, { action: 'reset' })).status === 200;
  },
  'rest-v2-v1-template-invisible': async (h) => {
    const created = await raw('POST', `${h.mock.restV1Url}/templates`, { name: 'fault-probe', imageName: 'x:1' });
    return (await raw('GET', `${h.mock.restV2Url}/templates/${created.body.id}`)).status === 404;
  },
  'rest-v2-pod-template-dropped': async (h) => {
    const template = await raw('POST', `${h.mock.restV2Url}/templates`, { name: 'fault-probe', image: 'x:1' });
    const pod = await raw('POST', `${h.mock.restV2Url}/pods`, { name: 'fault-probe', templateId: template.body.id, gpu: { id: 'NVIDIA GeForce RTX 4090' } });
    return pod.body.template === null && (await raw('DELETE', `${h.mock.restV2Url}/templates/${template.body.id}`)).status === 204;
  },
  'rest-v2-global-networking-unchecked': async (h) => {
    const pod = await raw('POST', `${h.mock.restV2Url}/pods`, { name: 'fault-probe', image: 'x:1', cpu: { id: 'cpu3c', vcpuCount: 2 }, globalNetworking: true });
    return pod.status === 201 && pod.body.globalNetworking?.enabled === true;
  },
  'rest-v2-template-volume-default': async (h) => {
    const template = await raw('POST', `${h.mock.restV2Url}/templates`, { name: 'fault-probe', image: 'x:1' });
    return template.body.mounts?.persistent?.size === 20;
  },
  'rest-v1-pod-memory-constant': async (h) => {
    const pod = await raw('POST', `${h.mock.restV2Url}/pods`, { name: 'fault-probe', image: 'x:1', cpu: { id: 'cpu3c', vcpuCount: 2 } });
    const v1 = await raw('GET', `${h.mock.restV1Url}/pods/${pod.body.id}`);
    return v1.body.memoryInGb === 31 && v1.body.cpuFlavorId === undefined;
  },
  'rest-v2-comma-list-refused': async (h) => (await raw('GET', `${h.mock.restV2Url}/catalog/gpus?include=AVAILABILITY&product=POD,SERVERLESS`)).status === 400,
  'rest-v2-undocumented-refusal': async (h) => (await raw('POST', `${h.mock.restV2Url}/templates`, { name: 'fault-probe', image: 'x:1', env: { lower: 'x' } })).status === 422,
  'rest-v2-port-private-null': async (h) => {
    const pod = await raw('POST', `${h.mock.restV2Url}/pods`, { name: 'fault-probe', image: 'x:1', ports: ['8888/http'], gpu: { id: 'NVIDIA GeForce RTX 4090' } });
    await h.advance(60_000);
    return (await raw('GET', `${h.mock.restV2Url}/pods/${pod.body.id}`)).body.runtime?.ports?.[0]?.private === null;
  },
  'graphql-sdk-bounds-unchecked': async (h) => {
    const answer = await raw('POST', h.mock.graphqlUrl, { query: `mutation { podStop(input: {podId: "${'p'.repeat(129)}"}) { id } }` });
    return !/at most 128 characters/.test(answer.body.errors?.[0]?.message ?? '');
  },
  'graphql-pod-template-dropped': async (h) => {
    const template = await raw('POST', `${h.mock.restV1Url}/templates`, { name: 'fault-probe', imageName: 'x:1' });
    const query = `mutation { deployCpuPod(input: {name: "fault-probe", imageName: "", templateId: "${template.body.id}"}) { id } }`;
    const pod = await raw('POST', h.mock.graphqlUrl, { query });
    return typeof pod.body.data?.deployCpuPod?.id === 'string' && (await raw('DELETE', `${h.mock.restV1Url}/templates/${template.body.id}`)).status === 204;
  },
  'graphql-public-leaks-account': async (h) => {
    const answer = await raw('POST', h.mock.graphqlUrl, { query: '{ gpuTypes { id } myself { id } }' }, null);
    return answer.status === 200 && typeof answer.body.data?.myself?.id === 'string';
  },
  'graphql-unbounded': async (h) => {
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(' ');
    return (await raw('POST', h.mock.graphqlUrl, { query: `{ ${aliases} }` })).body.data?.a30 === 'Query';
  },
  'graphql-limit-after-execution': async (h) => {
    const saves = Array.from({ length: 11 }, (_, i) => `s${i}: updateUserSettings(input: {pubKey: "ssh-ed25519 AAAA after-${i}"}) { pubKey }`).join(' ');
    const refused = await raw('POST', h.mock.graphqlUrl, { query: `mutation { ${saves} }` });
    const read = await raw('POST', h.mock.graphqlUrl, { query: '{ myself { pubKey } }' });
    return refused.body.errors !== undefined && read.body.data?.myself?.pubKey === 'ssh-ed25519 AAAA after-10';
  },
  'cross-account-read': async (h) => {
    const template = await raw('POST', `${h.mock.restV1Url}/templates`, { name: 'fault-probe', imageName: 'x:1' });
    return (await raw('GET', `${h.mock.restV1Url}/templates/${template.body.id}`, undefined, OTHER)).status === 200;
  },
  'cross-account-write': async (h) => {
    const template = await raw('POST', `${h.mock.restV2Url}/templates`, { name: 'fault-probe', image: 'x:1' });
    await raw('PATCH', `${h.mock.restV2Url}/templates/${template.body.id}`, { name: 'changed-by-acme' }, OTHER);
    return (await raw('GET', `${h.mock.restV2Url}/templates/${template.body.id}`)).body.name === 'changed-by-acme';
  },
  'cross-account-list': async (h) => {
    const template = await raw('POST', `${h.mock.restV1Url}/templates`, { name: 'fault-probe', imageName: 'x:1' });
    return JSON.stringify((await raw('GET', `${h.mock.restV2Url}/templates`, undefined, OTHER)).body).includes(template.body.id);
  },
  'cross-account-job': async (h) => {
    const ep = await h.endpoint();
    return (await raw('POST', `${h.mock.queueV2Url(ep)}/run`, { input: {} }, OTHER)).status === 200;
  },
  'foreign-reference-accepted': async (h) => {
    const template = await raw('POST', `${h.mock.restV1Url}/templates`, { name: 'fault-probe', imageName: 'x:1', isServerless: true, volumeInGb: 0 });
    return (await raw('POST', `${h.mock.restV1Url}/endpoints`, { name: 'e', templateId: template.body.id }, OTHER)).status === 200;
  },
  'existence-oracle': async (h) => {
    const template = await raw('POST', `${h.mock.restV1Url}/templates`, { name: 'fault-probe', imageName: 'x:1' });
    const foreign = await raw('GET', `${h.mock.restV1Url}/templates/${template.body.id}`, undefined, OTHER);
    return foreign.status !== (await raw('GET', `${h.mock.restV1Url}/templates/zzzzzzzzzzzzzz`, undefined, OTHER)).status;
  },
  'shared-rate-window': async (h) => {
    await raw('GET', `${h.mock.restV2Url}/templates`, undefined, OTHER);
    const mine = await fetch(`${h.mock.restV2Url}/templates`, { headers: { authorization: 'Bearer test-key' } });
    // The other account's request counted in this account's minute window.
    return /"minute";r=58;/.test(mine.headers.get('ratelimit') ?? '');
  },
  'openai-stream-no-done': async (h) => {
    const ep = await h.endpoint();
    const res = await fetch(`${h.mock.queueV2Url(ep)}/openai/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await res.text();
    return text.includes('"finish_reason":"stop"') && !text.includes('[DONE]');
  },
  'secret-value-returned': async (h) =>
    (await raw('POST', `${h.mock.restV2Url}/account/secrets`, { name: 'fault-probe', value: 'probe-value' })).body.value === 'probe-value',
  'secret-name-filter-ignored': async (h) => {
    for (const name of ['probe-a', 'probe-b']) await raw('POST', `${h.mock.restV2Url}/account/secrets`, { name, value: 'v' });
    return (await raw('GET', `${h.mock.restV2Url}/account/secrets?name=PROBE-A`)).body.secrets.length === 2;
  },
  'secret-duplicate-name-accepted': async (h) => {
    await raw('POST', `${h.mock.restV2Url}/account/secrets`, { name: 'fault-probe', value: 'v' });
    return (await raw('POST', `${h.mock.restV2Url}/account/secrets`, { name: 'FAULT-probe', value: 'v' })).status === 201;
  },
  'secret-bounds-unchecked': async (h) => (await raw('POST', `${h.mock.restV2Url}/account/secrets`, { name: 'runpod_probe', value: 'v' })).status === 201,
  'secret-rotation-ignored': async (h) => {
    const made = await raw('POST', `${h.mock.restV2Url}/account/secrets`, { name: 'fault-probe', value: 'v1' });
    await h.advance(5_000);
    return (await raw('PATCH', `${h.mock.restV2Url}/account/secrets/${made.body.id}`, { value: 'v2' })).body.valueLastUpdatedAt === made.body.valueLastUpdatedAt;
  },
  'secret-delete-keeps-record': async (h) => {
    const made = await raw('POST', `${h.mock.restV2Url}/account/secrets`, { name: 'fault-probe', value: 'v' });
    await raw('DELETE', `${h.mock.restV2Url}/account/secrets/${made.body.id}`);
    return (await raw('GET', `${h.mock.restV2Url}/account/secrets/${made.body.id}`)).status === 200;
  },
  'rest-v2-graphql-secret-invisible': async (h) => {
    const made = await h.graphql('mutation { secretCreate(input: {name: "fault-probe", value: "probe-value"}) { id } }');
    return (await raw('GET', `${h.mock.restV2Url}/account/secrets/${made.body.data.secretCreate.id}`)).status === 404;
  },
  'secret-count-unbounded': async (h) => {
    // 101 creates: past REST v2's 60-a-minute window, so a 429 waits a minute of the virtual clock.
    let status = 0;
    for (let i = 0; i <= 100 && status !== 400; ) {
      status = (await raw('POST', `${h.mock.restV2Url}/account/secrets`, { name: `probe-${i}`, value: 'v' })).status;
      if (status === 429) await h.advance(60_000);
      else i++;
    }
    return status === 201;
  },
  'openai-usage-zeroed': async (h) => {
    const ep = await h.endpoint();
    const res = await raw('POST', `${h.mock.queueV2Url(ep)}/openai/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'hello there' }] });
    return res.status === 200 && res.body.usage.total_tokens === 0;
  },
  'sandbox-created-running': async (h) => (await sandbox(h)).state === 'RUNNING',
  'sandbox-both-sources-accepted': async (h) => {
    const template = (await raw('POST', `${h.mock.restV2Url}/templates`, { name: 'fault-sbx', image: 'python:3.12-slim' })).body;
    return (await raw('POST', `${h.mock.restV2Url}/sandboxes`, { imageName: 'python:3.12-slim', templateId: template.id })).status === 201;
  },
  'sandbox-timeouts-unclamped': async (h) => (await sandbox(h, { idleTimeoutSeconds: 9_000 })).idleTimeoutSeconds === 9_000,
  'sandbox-terminate-not-idempotent': async (h) => {
    const { id } = await sandbox(h);
    await raw('DELETE', `${h.mock.restV2Url}/sandboxes/${id}`);
    return (await raw('DELETE', `${h.mock.restV2Url}/sandboxes/${id}`)).status !== 204;
  },
  'sandbox-exec-not-activity': async (h) => {
    const { id, lastActivityAt } = await sandbox(h);
    await h.advance(20_000);
    await raw('POST', `${h.mock.restV2Url}/sandboxes/${id}/exec`, { command: ['true'] });
    return (await raw('GET', `${h.mock.restV2Url}/sandboxes/${id}`)).body.lastActivityAt === lastActivityAt;
  },
  'sandbox-label-filter-any': async (h) => {
    await sandbox(h, { labels: { a: '1' } });
    return (await raw('GET', `${h.mock.restV2Url}/sandboxes?labels=a=1&labels=b=2`)).body.sandboxes.length === 1;
  },
  'sandbox-exec-after-terminate': async (h) => {
    const { id } = await sandbox(h);
    await h.advance(20_000);
    await raw('DELETE', `${h.mock.restV2Url}/sandboxes/${id}`);
    return (await raw('POST', `${h.mock.restV2Url}/sandboxes/${id}/exec`, { command: ['true'] })).status === 200;
  },
  'sandbox-logs-after-terminate': async (h) => {
    const { id } = await sandbox(h);
    await h.advance(20_000);
    await raw('DELETE', `${h.mock.restV2Url}/sandboxes/${id}`);
    const res = await fetch(`${h.mock.restV2Url}/sandboxes/${id}/logs?tail=0`, { headers: { authorization: 'Bearer test-key' } });
    await res.body?.cancel();
    return res.status === 200;
  },
  'lb-job-operations-accepted': async (h) => {
    const created = await raw('POST', `${h.mock.restV2Url}/serverless`, {
      name: 'lb', type: 'LOAD_BALANCER', image: 'x:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'REQUEST_COUNT', requestCount: 4 },
    });
    return (await raw('POST', `${h.mock.queueV2Url(created.body.id)}/run`, { input: {} })).status === 200;
  },
  'lb-direct-access-keyless': async (h) => {
    const id = await lbEndpoint();
    return (await raw('POST', `${h.mock.lbUrl(id)}/generate`, {}, null)).status === 200 && (await raw('POST', `${h.mock.lbUrl(id)}/generate`, {}, OTHER)).status === 200;
  },
  'lb-forward-drops-query': async (h) => {
    const echoed = await raw('GET', `${h.mock.lbUrl(await lbEndpoint())}/echo?alpha=1`);
    return echoed.status === 200 && echoed.body.query.alpha === undefined;
  },
};

/** A load-balancing endpoint of test-key's account (its worker: the echo worker). */
async function lbEndpoint(): Promise<string> {
  return (await raw('POST', `${h!.mock.restV2Url}/serverless`, {
    name: 'lb', type: 'LOAD_BALANCER', image: 'x:1', gpu: { pools: ['ADA_24'] }, scaling: { type: 'REQUEST_COUNT', requestCount: 4 },
  })).body.id;
}

async function sandbox(h: Harness, extra: Record<string, unknown> = {}) {
  return (await raw('POST', `${h.mock.restV2Url}/sandboxes`, { imageName: 'python:3.12-slim', ...extra })).body;
}

describe('fault injection', () => {
  it.each(FAULT_NAMES)('%s deviates when enabled', async (fault) => {
    expect(await deviations[fault](await start(fault))).toBe(true);
  });

  it.each(FAULT_NAMES)('%s does not deviate by default', async (fault) => {
    expect(await deviations[fault](await start())).toBe(false);
  });

  it('an unknown fault name is refused', async () => {
    await expect(Harness.start({ faults: ['nope' as FaultName] })).rejects.toThrow(/unknown fault/);
  });
});
