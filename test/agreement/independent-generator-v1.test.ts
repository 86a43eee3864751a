// The independent judge (json-schema-faker, see independent-generator.test.ts) on REST v1 and queue
// v2: every operation's parameters and body drawn from the bundled spec alone; each draw the spec's
// validators accept must be answered with a documented status, never 5xx, never the mock's schema
// refusal (400 "Invalid request"), with an answer matching the spec; every operation is reached.
import { JSONSchemaFaker } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { packageFile } from '../../src/contract/package-files.js';
import { parseQuery, querySuffix, queryStylesOf } from '../../src/contract/query-style.js';
import { validateRequest, validateResponse } from '../../src/validation/index.js';
import { operationsOf, readJson, seeded, send as sendAs, type Json, type Operation } from './jsf-judge.js';

const KEY = 'independent-judge-v1-key-0123456789';
const TRIES = 6;
const SURFACES = {
  restV1: operationsOf(readJson(packageFile('generated/rest-v1/openapi.json'))),
  queueV2: operationsOf(readJson(packageFile('generated/queue-v2/openapi.json'))),
};

let mock: RunningMock;
const ids: Record<string, string> = {};

const send = (method: string, url: string, body?: unknown) => sendAs(KEY, method, url, body);

beforeAll(async () => {
  // Real clock: held queue requests (runsync, status-sync) end when their 50 ms job does.
  mock = await startMock({ host: '127.0.0.1', port: 0, clock: 'real', rateLimits: false, templateDeleteDelayMs: 0, apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs'] }] });
  const made = async (path: string, body: Json) => String(((await send('POST', `${mock.restV1Url}${path}`, body)).body as { id: string }).id);
  ids['templateId'] = await made('/templates', { name: 'judge-template', imageName: 'judge/image:1', isServerless: true, volumeInGb: 0, containerDiskInGb: 10 });
  ids['podId'] = await made('/pods', { name: 'judge-pod', imageName: 'judge/image:1', gpuCount: 1 });
  ids['endpointId'] = await made('/endpoints', { name: 'judge-ep', templateId: ids['templateId'], workersMin: 1, workersMax: 2 });
  ids['networkVolumeId'] = await made('/networkvolumes', { name: 'judge-volume', size: 10, dataCenterId: 'EU-RO-1' });
  ids['containerRegistryAuthId'] = await made('/containerregistryauth', { name: 'judge-registry', username: 'u', password: 'judge-password-1' });
  const job = await send('POST', `${mock.queueV2Url(ids['endpointId'])}/run`, { input: { prompt: 'judge' } });
  ids['jobId'] = String((job.body as { id: string }).id);
  ids['openaiPath'] = 'v1/models';
});
afterAll(() => mock?.close());

/** The mock's validation step answered: it found the request outside the spec. */
const schemaRefusal = (status: number, body: unknown) => status === 400 && (body as { message?: string })?.message === 'Invalid request';

async function fuzz(surface: 'restV1' | 'queueV2', ops: Operation[], seed: number) {
  JSONSchemaFaker.option({ random: seeded(seed), alwaysFakeOptionals: false, optionalsProbability: 0.5, fillProperties: false, useDefaultValue: false, maxItems: 3, maxLength: 160, failOnInvalidFormat: false });
  const problems: string[] = [];
  const reached = new Set<string>();
  const invalidDraws: Record<string, number> = {};
  for (const op of ops) {
    const styles = queryStylesOf(surface, op.operationId);
    for (let i = 0; i < TRIES; i++) {
      const query: Json = {};
      for (const p of op.params.filter((x) => x['in'] === 'query')) {
        if (p['required'] === true || i % 2 === 1) query[String(p['name'])] = JSONSchemaFaker.generate(p['schema'] as never);
      }
      // A held request waits at most a second here (the job takes 50 ms).
      if ('wait' in query) query['wait'] = 1_000;
      const body = op.body === undefined ? undefined : JSONSchemaFaker.generate(op.body as never);
      const path = Object.fromEntries([...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, ids[name!]!]));
      if (validateRequest(surface, op.operationId, { path, query: parseQuery(querySuffix(query, styles), styles), body }).length > 0) {
        invalidDraws[op.operationId] = (invalidDraws[op.operationId] ?? 0) + 1;
        continue;
      }
      const rel = `${op.path.replace(/\{(\w+)\}/g, (_, name: string) => name === 'openaiPath' ? path[name]! : encodeURIComponent(path[name]!))}${querySuffix(query, styles)}`;
      const base = surface === 'restV1' ? mock.restV1Url : mock.queueV2Url(ids['endpointId']!);
      const answer = await send(op.method, `${base}${rel}`, body);
      const what = `${op.method} ${rel} ${JSON.stringify(body)?.slice(0, 200) ?? ''} → ${answer.status}`;
      if (answer.status >= 500 || !op.statuses.includes(answer.status)) problems.push(`${op.operationId}: undocumented or 5xx: ${what}`);
      else if (schemaRefusal(answer.status, answer.body)) problems.push(`${op.operationId}: spec-valid request refused by a schema rule: ${what} ${JSON.stringify(answer.body).slice(0, 200)}`);
      else {
        if (!answer.type.startsWith('text/event-stream')) {
          const issues = validateResponse(surface, op.operationId, answer.status, answer.body);
          if (issues.length) problems.push(`${op.operationId}: answer outside the spec: ${what}: ${issues.slice(0, 2).map((x) => `${x.path} ${x.message}`).join('; ')}`);
        }
        reached.add(op.operationId);
      }
    }
  }
  return { problems, reached, invalidDraws };
}

describe('json-schema-faker against the REST v1 and queue v2 mock', () => {
  it.each(['restV1', 'queueV2'] as const)('%s: every operation reached with generated spec-valid requests, each answered as the spec says', async (surface) => {
    const ops = SURFACES[surface];
    const { problems, reached, invalidDraws } = await fuzz(surface, ops, surface === 'restV1' ? 31 : 32);
    expect(problems).toEqual([]);
    expect(ops.map((o) => o.operationId).filter((id) => !reached.has(id)), `not reached with a valid request; invalid draws: ${JSON.stringify(invalidDraws)}`).toEqual([]);
  }, 60_000);
});
