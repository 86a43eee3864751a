// npm run upstream:diff: RunPod's REST v2 file against the facts extract and our spec, in the rows of
// specs/rest-v2/CHANGES-since-2.9.0.md. The "new file" here is the extract with changes of the kinds that
// document lists (a schema gaining required fields, a new bound, new schemas, a new operation, a withdrawn one).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { upstreamRows } from '../../scripts/upstream/facts-diff.js';

type Json = Record<string, any>;
const read = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as Json;
const extract = read('specs/upstream/runpod-rest-v2.facts.json');
const ours = read('generated/rest-v2/openapi.json');

/** The extract as it was before the builds arrived (the base the rows are counted from). */
function olderExtract(): Json {
  const old = structuredClone(extract);
  delete old['paths']['/v2/serverless/{id}/builds'];
  delete old['components'].schemas.Build;
  return old;
}

function newerFile(): Json {
  const next = structuredClone(extract);
  const schemas = next['components'].schemas;
  schemas.BaseGpuConfig.required = ['id', 'vcpuCount'];
  schemas.BaseGpuConfig.properties.vcpuCount = { type: 'number', minimum: 1 };
  schemas.CreateGpuConfig.allOf[1].properties.minDiskPerGpu = { type: 'integer', minimum: 1 };
  next['paths']['/v2/tags'] = { get: { operationId: 'listTags', responses: { '200': {} } } };
  delete next['paths']['/v2/account/ssh-keys'].put;
  return next;
}

describe('upstream:diff rows', () => {
  const rows = upstreamRows(olderExtract(), newerFile(), ours);
  const find = (text: string) => rows.find((row) => row.what.includes(text));

  it('names a new operation with its method, path, parameters and statuses, and whether our spec has it', () => {
    expect(find('New operation `listEndpointBuilds`')).toEqual({ what: 'New operation `listEndpointBuilds` `GET /v2/serverless/{id}/builds`: parameters id (path, required); responses 200, 401, 403, 404, 429, default', ours: 'has `listEndpointBuilds`' });
    expect(find('New operation `listTags`')?.ours).toBe('not in our spec');
  });

  it('names a removed operation', () => {
    expect(find('Operation `updateSshKeys` `PUT /v2/account/ssh-keys` removed')?.ours).toBe('we still have it: has `updateSshKeys`');
  });

  it('lists a schema change field by field, each with its path, once (not again under every operation using it)', () => {
    const gpu = find('Schema `BaseGpuConfig`');
    expect(gpu?.what).toContain('`properties.vcpuCount` added {"type":"number","minimum":1}');
    expect(gpu?.what).toContain('`required[1]` added "vcpuCount"');
    expect(find('Schema `CreateGpuConfig`')?.what).toContain('`allOf[1].properties.minDiskPerGpu` added {"type":"integer","minimum":1}');
    expect(find('Schema `CreateGpuConfig`')?.ours).toBe('ours: missing');
    expect(rows.filter((row) => row.what.includes('vcpuCount'))).toHaveLength(1);
    expect(find('Schema `Build`: new')?.ours).toBe('ours: has it');
  });

  it('the extract against itself: no row', () => {
    expect(upstreamRows(extract, structuredClone(extract), ours)).toEqual([]);
  });
});

// Each case starts the command (tsx) as a user would.
describe('upstream:diff command', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'upstream-diff-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (file: string) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/upstream-diff.ts', file], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' });

  it('prints the table of CHANGES-since-2.9.0.md for a newer file', () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(newerFile()));
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/upstream-diff.ts', file], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' });
    expect(out).toContain('| # | What changed (source) | Our spec now | What we did | Why |');
    expect(out).toMatch(/\| \d+ \| New operation `listTags` `GET \/v2\/tags`: no parameters; responses 200 \| not in our spec \|/);
  });

  it.each([
    ['not OpenAPI 3.x', JSON.stringify({ swagger: '2.0', paths: { '/v2/pods': {} } }), /is not an OpenAPI 3\.x document/],
    ['no /v2/ paths', JSON.stringify({ openapi: '3.1.0', paths: { '/pets': {} } }), /has no \/v2\/ paths/],
  ])('bad input (%s): one line, exit code 2', (_, text, message) => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, text);
    const result = run(file);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});
