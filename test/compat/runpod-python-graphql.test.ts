// Wire-level interop of runpod-python 1.12.0 (and its REST v2 wrapper's two GraphQL calls): replays the
// recorded GraphQL request bodies (test/compat/sdk-wire/runpod-python-1.12.0-graphql.json: arguments
// inlined as the SDK formats them, Authorization: Bearer) against a mock on 127.0.0.1:0 with base URL = the
// mock's root, and checks each answer has what the SDK reads. Then checks the same pods, templates and
// endpoints are what REST v1 and REST v2 show, and that no answer ever carried a registry password.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGraphqlAnswer } from '../../src/contract/graphql-shape.js';
import { Harness, KEY } from '../mock/harness.js';

interface WireRequest {
  method: 'POST';
  path: string;
  body: string;
  read?: string;
  error?: boolean;
  equals?: Record<string, unknown>;
  includes?: Record<string, unknown>;
  defined?: string[];
  capture?: Record<string, string>;
}
interface WireStep {
  generation: '1.12.0' | 'rest-v2-wrapper';
  call: string;
  note?: string;
  requests: WireRequest[];
}
interface WireFile {
  headers: Record<string, string>;
  steps: WireStep[];
}

const wire = JSON.parse(readFileSync(new URL('./sdk-wire/runpod-python-1.12.0-graphql.json', import.meta.url), 'utf8')) as WireFile;
const PASSWORD_PREFIX = 'sdk-registry-password-';

/** `data.myself.pods.0.id` → the value there; undefined when a segment is missing. */
function at(value: unknown, path: string): unknown {
  let node = value;
  for (const segment of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

const fill = (text: string, values: Record<string, string>): string =>
  text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);

/** Placeholders in expectations, filled recursively. */
function filled(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === 'string') return fill(value, values);
  if (Array.isArray(value)) return value.map((v) => filled(v, values));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, filled(v, values)]));
  return value;
}

let h: Harness;
const values: Record<string, string> = { apiKey: KEY };
const answers: string[] = [];

async function send(request: WireRequest, key = KEY): Promise<{ status: number; text: string; body: any }> {
  const headers = { ...wire.headers, authorization: `Bearer ${key}` };
  const response = await fetch(`${h.mock.url}${request.path}`, { method: request.method, headers, body: fill(request.body, values) });
  const text = await response.text();
  answers.push(text);
  return { status: response.status, text, body: JSON.parse(text) };
}

beforeAll(async () => {
  h = await Harness.start();
  const volume = await h.rest('POST', '/networkvolumes', { name: 'sdk-volume', size: 10, dataCenterId: 'EU-RO-1' });
  expect(volume.status).toBe(200);
  values['networkVolumeId'] = volume.body.id;
});
afterAll(() => h?.close());

describe('runpod-python 1.12.0 GraphQL helpers against the mock (base URL = mock root)', () => {
  // Steps depend on ids captured by earlier ones: one test per step, in file order.
  for (const [index, step] of wire.steps.entries()) {
    it(`#${index + 1} ${step.generation} ${step.call}${step.note ? ` (${step.note})` : ''}`, async () => {
      for (const request of step.requests) {
        const { status, body } = await send(request);
        // The SDK only tells 401 apart; everything else is judged by the body, so it must be GraphQL JSON.
        expect(status, JSON.stringify(body)).toBe(200);
        const query = (JSON.parse(fill(request.body, values)) as { query: string }).query;
        expect(checkGraphqlAnswer(query, body), JSON.stringify(body)).toEqual([]);
        if (request.error) {
          // QueryError(errors[0].message)
          expect(typeof body.errors?.[0]?.message).toBe('string');
          expect(body.errors[0].message.length).toBeGreaterThan(0);
          continue;
        }
        expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
        if (request.read) expect(at(body, request.read), `the SDK reads ${request.read}`).not.toBeUndefined();
        for (const [path, expected] of Object.entries(request.equals ?? {})) expect(at(body, path), path).toEqual(filled(expected, values));
        for (const [path, expected] of Object.entries(request.includes ?? {})) {
          const want = filled(expected, values);
          expect(at(body, path), path).toEqual(expect.arrayContaining([typeof want === 'object' ? expect.objectContaining(want as object) : want]));
        }
        for (const path of request.defined ?? []) expect(at(body, path), path).not.toBeNull();
        for (const [name, path] of Object.entries(request.capture ?? {})) {
          const captured = at(body, path);
          expect(typeof captured, `capture ${name} from ${path}`).toBe('string');
          values[name] = captured as string;
        }
      }
    });
  }

  it('a wrong key: HTTP 401, which the SDK turns into AuthenticationError', async () => {
    const getUser = wire.steps.find((s) => s.call === 'runpod.get_user()')!.requests[0]!;
    expect((await send(getUser, 'not-the-key')).status).toBe(401);
  });

  it('the pods the SDK deployed are the same pods in REST v1 and REST v2', async () => {
    const v1 = await h.rest('GET', `/pods/${values['gpuPodId']}`);
    expect(v1.body).toMatchObject({ id: values['gpuPodId'], name: 'sdk-gpu-pod', image: 'runpod/pytorch:2.4.0', desiredStatus: 'RUNNING', env: { MODEL: 'llama' }, ports: ['8888/http', '22/tcp'] });
    const v2 = await h.request('GET', `${h.mock.url}/v2/pods/${values['gpuPodId']}`);
    expect(v2.body).toMatchObject({ id: values['gpuPodId'], image: 'runpod/pytorch:2.4.0', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 1 } });
    const volumePod = await h.request('GET', `${h.mock.url}/v2/pods/${values['volumePodId']}`);
    expect(volumePod.body).toMatchObject({ dataCenterId: values['networkVolumeDataCenterId'], mounts: { network: [{ volumeId: values['networkVolumeId'] }] } });
    const cpu = await h.rest('GET', `/pods/${values['templatePodId']}`);
    expect(cpu.body).toMatchObject({ templateId: values['podTemplateId'], vcpuCount: 4, image: 'repo/app:1' });
    expect((await h.rest('GET', `/pods/${values['cpuPodId']}`)).status).toBe(404);
  });

  it('a template a GraphQL-deployed pod uses cannot be deleted (the store rule of every surface)', async () => {
    expect((await h.rest('DELETE', `/templates/${values['podTemplateId']}`)).status).toBe(400);
  });

  it('the endpoints the SDK saved are REST v1 endpoints with the pools\' GPU types', async () => {
    const endpoint = await h.rest('GET', `/endpoints/${values['endpointId']}`);
    expect(endpoint.body).toMatchObject({ id: values['endpointId'], templateId: values['serverlessTemplateId2'], workersMax: 3 });
    expect(endpoint.body.gpuTypeIds).toEqual(expect.arrayContaining(['NVIDIA RTX A4000']));
  });

  it('no answer carried a registry password', () => {
    expect(answers.length).toBeGreaterThan(wire.steps.length);
    for (const text of answers) expect(text).not.toContain(PASSWORD_PREFIX);
  });
});
