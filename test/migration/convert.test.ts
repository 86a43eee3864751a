// migrate.<v1OperationId>(v1Body) turns REST v1 requests into REST v2 ones as the migration map says.
// Every valid REST v1 request fixture converts, no v1-only field name survives in the result, and the result is
// a valid request of the REST v2 operation the map names (generated restV2 validators).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFixtures, openApiSchemaRef } from '../../scripts/lint/fixtures.js';
import {
  convertPath,
  convertQuery,
  migrate,
  MigrationError,
  isNone,
  migrationMap,
  problemFromV1Error,
  shellQuote,
  v1ListFromV2,
  type FieldEntry,
} from '../../src/migration/index.js';
import { packageFile } from '../../src/contract/package-files.js';
import { formatIssues, getOperation, validateRequest } from '../../src/validation/index.js';

type Json = Record<string, unknown>;
const v1Doc = JSON.parse(readFileSync(packageFile('generated/rest-v1/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Json>>;
};

/** v1 operationIds taking each request-body schema, e.g. TemplateUpdateInput → updateTemplate, updateTemplateViaPost. */
const operationsBySchema = new Map<string, string[]>();
for (const item of Object.values(v1Doc.paths)) {
  for (const op of Object.values(item)) {
    const ref = ((op['requestBody'] as Json | undefined)?.['content'] as Record<string, { schema?: { $ref?: string } }> | undefined)?.[
      'application/json'
    ]?.schema?.$ref;
    const name = ref?.split('/').pop();
    if (name) operationsBySchema.set(name, [...(operationsBySchema.get(name) ?? []), op['operationId'] as string]);
  }
}

const requestFixtures = (await loadFixtures()).flatMap((f) => {
  const ref = openApiSchemaRef(f.schema);
  if (!f.valid || ref?.surface !== 'restV1') return [];
  return (operationsBySchema.get(ref.name) ?? []).map((operationId) => ({ operationId, file: f.file, value: f.value as Json }));
});

/** Names a v2 body may contain: every segment of every `to`, `set` and `fill` key, and transform-made keys. */
function v2Names(operationId: string): Set<string> {
  const entry = migrationMap.operations[operationId]!;
  const names = new Set<string>(['id', 'vcpuCount']);
  const addPath = (p: string) => p.split('.').filter((s) => !/^\d+$/.test(s)).forEach((s) => names.add(s));
  const visit = (e: FieldEntry) => {
    if (typeof e === 'string') addPath(e);
    else if ('to' in e) addPath(e.to);
    else if ('by' in e) Object.values(e.cases).forEach(visit);
  };
  Object.values(entry.body?.fields ?? {}).forEach(visit);
  Object.keys(entry.set ?? {}).forEach(addPath);
  for (const [prefix, keys] of Object.entries(entry.body?.fill ?? {})) {
    addPath(prefix);
    Object.keys(keys).forEach((k) => names.add(k));
  }
  return names;
}

/** Path values for a v2 path template (`{id}` → a plausible id). */
function samplePath(path: string): Record<string, string> {
  return Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, 'x1']));
}

function keysDeep(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      if (k !== 'env') keysDeep(v, into); // env keys are the caller's variable names
    }
  }
  return into;
}

describe('migrate.<v1OperationId>(v1Body)', () => {
  it('every v1 operation with a request-body schema has a valid fixture to convert (13)', () => {
    const withSchema = [...operationsBySchema.values()].flat().sort();
    expect(withSchema).toHaveLength(13);
    expect([...new Set(requestFixtures.map((f) => f.operationId))].sort()).toEqual(withSchema);
  });

  it.each(requestFixtures.map((f) => [`${f.operationId} ← ${f.file}`, f] as const))('%s: only mapped v2 names remain', (_n, f) => {
    const body = migrate[f.operationId as keyof typeof migrate](f.value as never);
    expect(body).toBeTypeOf('object');
    const allowed = v2Names(f.operationId);
    const renamedAway = Object.keys(f.value).filter((k) => !allowed.has(k));
    for (const key of keysDeep(body)) {
      expect(allowed.has(key), `${key} is not a v2 name of ${f.operationId}`).toBe(true);
      expect(renamedAway, `v1-only field ${key} survived`).not.toContain(key);
    }
  });

  it.each(requestFixtures.map((f) => [`${f.operationId} ← ${f.file}`, f] as const))('%s: a valid REST v2 request body', (_n, f) => {
    const target = migrationMap.operations[f.operationId]!.v2;
    if (isNone(target)) throw new Error(`${f.operationId} has a body fixture but no REST v2 operation`);
    const body = migrate[f.operationId as keyof typeof migrate](f.value as never);
    const issues = validateRequest('restV2', target.operationId, { body, path: samplePath(target.path) });
    expect(issues, `${target.operationId}: ${formatIssues(issues)}`).toEqual([]);
  });

  it('hand-written conversions are valid REST v2 request bodies too', () => {
    const cases: [string, unknown][] = [
      ['createEndpoint', migrate.createEndpoint({ templateId: 'tpl', workersMin: 1, workersMax: 5, idleTimeout: 9, scalerType: 'REQUEST_COUNT', scalerValue: 7, flashboot: true })],
      ['createEndpoint', migrate.createEndpoint({ templateId: 'tpl' })],
      ['updateEndpoint', migrate.updateEndpoint({ cpuFlavorIds: ['cpu3c', 'cpu5c'], vcpuCount: 4, flashboot: false })],
      ['createPod', migrate.createPod({ imageName: 'img', gpuTypeIds: ['A', 'B'], gpuCount: 2, volumeInGb: 50, cloudType: 'COMMUNITY' })],
      ['createPod', migrate.createPod({ name: 'c', imageName: 'img', computeType: 'CPU', cpuFlavorIds: ['cpu3c'], vcpuCount: 4 })],
      ['createNetworkVolume', migrate.createNetworkVolume({ name: 'v', size: 50, dataCenterId: 'EU-RO-1' })],
      ['podAction', migrate.stopPod({})],
    ];
    for (const [operationId, body] of cases) {
      const issues = validateRequest('restV2', operationId, { body, path: samplePath(getOperation('restV2', operationId).path) });
      expect(issues, `${operationId}: ${formatIssues(issues)}`).toEqual([]);
    }
    // A LOAD_BALANCER endpoint scales by request count only (the conditional CreateEndpointRequest keeps).
    const lb = { name: 'lb', type: 'LOAD_BALANCER', templateId: 'tpl', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 } };
    expect(validateRequest('restV2', 'createEndpoint', { body: lb })).not.toEqual([]);
    expect(validateRequest('restV2', 'createEndpoint', { body: { ...lb, scaling: { type: 'REQUEST_COUNT', requestCount: 4 } } })).toEqual([]);
  });

  it('template: imageName → image, containerDiskInGb → disk, isPublic → public, containerRegistryAuthId → registry', () => {
    const body = migrate.createTemplate({
      name: 't', imageName: 'img:1', containerDiskInGb: 30, isPublic: true, containerRegistryAuthId: 'reg1',
      dockerStartCmd: ['python', 'run it.py'], volumeInGb: 40, readme: 'x',
    });
    expect(body).toEqual({
      name: 't', image: 'img:1', disk: 30, public: true, registry: 'reg1', args: "python 'run it.py'",
      mounts: { persistent: { size: 40, path: '/workspace' } },
    });
  });

  it('endpoint: flat workers/scaling nest, flashboot becomes an enum, defaults v2 requires are explicit', () => {
    expect(migrate.createEndpoint({ templateId: 'tpl', workersMin: 1, workersMax: 5, idleTimeout: 9, scalerType: 'REQUEST_COUNT', scalerValue: 7, flashboot: true, networkVolumeId: 'nv1', networkVolumeIds: ['nv1', 'nv2'] })).toEqual({
      templateId: 'tpl', name: 'endpoint-tpl', type: 'QUEUE', flashboot: 'FLASHBOOT',
      workers: { min: 1, max: 5, idleTimeout: 9 }, scaling: { type: 'REQUEST_COUNT', requestCount: 7 },
      networkVolumes: ['nv1', 'nv2'],
    });
    expect(migrate.createEndpoint({ templateId: 'tpl' })).toEqual({
      templateId: 'tpl', name: 'endpoint-tpl', type: 'QUEUE', scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
    });
    expect(migrate.updateEndpoint({ cpuFlavorIds: ['cpu3c', 'cpu5c'], vcpuCount: 4, flashboot: false })).toEqual({
      cpu: [{ id: 'cpu3c', vcpuCount: 4 }, { id: 'cpu5c', vcpuCount: 4 }], flashboot: 'OFF',
    });
  });

  it('pod: GPU or CPU nests by computeType, storage goes under mounts', () => {
    expect(migrate.createPod({ imageName: 'img', gpuTypeIds: ['A', 'B'], gpuCount: 2, volumeInGb: 50, cloudType: 'COMMUNITY', minRAMPerGPU: 8 })).toEqual({
      name: 'my pod', image: 'img', gpu: { id: 'A', count: 2 }, cloud: 'COMMUNITY', mounts: { persistent: { size: 50, path: '/workspace' } },
    });
    expect(migrate.createPod({ name: 'c', computeType: 'CPU', cpuFlavorIds: ['cpu3c'], vcpuCount: 4, volumeInGb: 20 })).toEqual({
      name: 'c', cpu: { id: 'cpu3c', vcpuCount: 4 },
    });
    expect(migrate.createPod({ name: 'n', networkVolumeId: 'nv', volumeInGb: 20, volumeMountPath: '/data' })).toEqual({
      name: 'n', mounts: { network: [{ volumeId: 'nv', path: '/data' }] },
    });
  });

  it('network volume: dataCenterId → dataCenter', () => {
    expect(migrate.createNetworkVolume({ name: 'v', size: 50, dataCenterId: 'EU-RO-1' })).toEqual({ name: 'v', size: 50, dataCenter: 'EU-RO-1' });
  });

  it('pod lifecycle: start/stop/restart become the /action body; reset has no v2 equivalent', () => {
    expect(migrate.startPod()).toEqual({ action: 'start' });
    expect(migrate.stopPod({})).toEqual({ action: 'stop' });
    expect(migrate.restartPod()).toEqual({ action: 'restart' });
    expect(() => migrate.resetPod()).toThrow(MigrationError);
    expect(() => migrate.resetPod()).toThrow(/no REST v2 equivalent/);
  });

  it('operations without a body give none; a v1 field the map does not know is refused', () => {
    expect(migrate.getPod()).toBeUndefined();
    expect(() => migrate.createNetworkVolume({ name: 'v', size: 1, dataCenterId: 'x', bogus: 1 } as never)).toThrow(/bogus/);
  });

  it('paths rename their parameter to {id}; queries drop what v2 lacks', () => {
    expect(convertPath('getPod', { podId: 'p 1' })).toBe('/v2/pods/p%201');
    expect(convertPath('deleteContainerRegistryAuth', { containerRegistryAuthId: 'r' })).toBe('/v2/registries/r');
    const q = convertQuery('getEndpointBilling', { endpointId: 'e', bucketSize: 'day', grouping: 'podId' });
    expect(q.value).toEqual({ serverlessId: 'e', bucketSize: 'day' });
    expect(q.dropped.map((d) => d.field)).toEqual(['grouping']);
  });

  it('lists and errors: v2 wraps lists; v1 errors become problem+json', () => {
    expect(v1ListFromV2('listContainerRegistryAuths', { registries: [{ id: 'r' }] })).toEqual([{ id: 'r' }]);
    expect(problemFromV1Error(400, { message: 'bad', errors: [{ path: '/name', message: 'too long' }] })).toEqual({
      title: 'Bad Request', status: 400, detail: 'bad', errors: ['/name: too long'],
    });
  });

  it('shellQuote keeps safe words and single-quotes the rest', () => {
    expect(['a', "it's", ''].map(shellQuote)).toEqual(['a', `'it'\\''s'`, `''`]);
  });
});
