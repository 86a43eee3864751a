// The breaking-change gate (npm run lint:contract): each kind of change it must catch, and what it lets
// through, made on a copy of the committed last-release contract.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unreleasedSection } from '../../scripts/contract/changelog.js';
import { contractChanges, gate } from '../../scripts/contract/report.js';
import { readBaseline, type Contract } from '../../scripts/contract/sources.js';
import type { ContractChange } from '../../scripts/contract/change.js';

const baseline = readBaseline();
const copy = (): Contract => structuredClone(baseline);
type Schema = { properties?: Record<string, Schema>; required?: string[]; maxLength?: number; type?: string };
const schemas = (contract: Contract, surface: 'rest-v2' | 'rest-v1' = 'rest-v2') => (contract.openapi[surface].components as { schemas: Record<string, Schema> }).schemas;
const breaking = (changes: ContractChange[]) => changes.filter((change) => change.level === 'breaking');
const changelog = (...lines: string[]) => unreleasedSection(['# Changelog', '', '## Unreleased', '', ...lines, '', '## 0.1.0', '- **Breaking**: everything'].join('\n'));

describe('contract gate: breaking changes are caught', () => {
  it('a removed REST v2 response field (Secret.description) is breaking for callers of every operation answering it', async () => {
    const after = copy();
    delete schemas(after)['Secret']!.properties!['description'];
    const changes = breaking(await contractChanges(baseline, after));
    expect(changes.map((c) => c.subject)).toEqual(expect.arrayContaining(['getSecret', 'listSecrets', 'createSecret', 'updateSecret']));
    expect(changes.every((c) => c.party === 'caller' && c.surface === 'rest-v2')).toBe(true);
    expect(changes.find((c) => c.subject === 'getSecret')!.what).toContain('response 200 `description` removed');
  });

  it('a tightened maxLength on a request field is breaking for callers', async () => {
    const after = copy();
    schemas(after)['CreateSecretRequest']!.properties!['name']!.maxLength = 64;
    const changes = breaking(await contractChanges(baseline, after));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ surface: 'rest-v2', party: 'caller', subject: 'createSecret' });
    expect(changes[0]!.what).toContain('request body `name`: maxLength 191 -> 64');
  });

  it('a loosened request bound is breaking for implementers (the suite now sends what a server could refuse), not callers', async () => {
    const after = copy();
    schemas(after)['CreateSecretRequest']!.properties!['name']!.maxLength = 500;
    const changes = breaking(await contractChanges(baseline, after));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ party: 'implementer', subject: 'createSecret' });
  });

  it('a new required GraphQL argument is breaking', async () => {
    const after = copy();
    after.graphql = after.graphql.replace(/\n  secretDelete\(\n/, '\n  secretDelete(\n    force: Boolean!\n');
    const changes = breaking(await contractChanges(baseline, after));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ surface: 'graphql', subject: 'Mutation.secretDelete.force' });
    expect(changes[0]!.names).toContain('Mutation.secretDelete');
  });

  it('a removed client method is breaking (TypeScript API report)', async () => {
    const after = copy();
    const report = after.api['compute-contract.api.md']!;
    const edited = report.replace(/\n(\s+)logs: \(id: string, buildId: string, o\?: LogStreamOptions\) => AsyncGenerator<LogLine, void, unknown>;/, '');
    expect(edited).not.toBe(report);
    after.api['compute-contract.api.md'] = edited;
    const changes = breaking(await contractChanges(baseline, after));
    expect(changes.map((c) => c.what)).toEqual(['compute-contract: `createRestV2Client().serverless.builds.logs` removed']);
    expect(changes[0]!.names).toContain('serverless.builds.logs');
  });

  it('a client method whose result changed is breaking by name (last round: `serverless.builds.list(id)` went from pages to an array)', async () => {
    const after = copy();
    const report = after.api['compute-contract.api.md']!;
    const edited = report.replace(/(\n\s+builds: \{\n\s+list: \(value: string, o\?: CallOptions\) => Promise<)(\{[^]*?\}\[\])>;/, '$1{ builds: $2; nextCursor: string | null }>;');
    expect(edited).not.toBe(report);
    after.api['compute-contract.api.md'] = edited;
    const changes = breaking(await contractChanges(baseline, after));
    expect(changes.map((c) => c.subject)).toEqual(['compute-contract: createRestV2Client().serverless.builds.list']);
    expect(changes[0]!.what).toContain('result Promise<');
  });

  it('a renamed export is breaking under its old name; the new name is an addition', async () => {
    const after = copy();
    after.api['compute-contract-mock.api.md'] = after.api['compute-contract-mock.api.md']!.replace('export function startMock(', 'export function launchMock(');
    const changes = await contractChanges(baseline, after);
    expect(breaking(changes).map((c) => c.subject)).toEqual(['compute-contract/mock: startMock']);
    expect(changes.find((c) => c.subject === 'compute-contract/mock: launchMock')?.level).toBe('safe');
  });

  it('a new must rule on existing operations is breaking for implementers; a should rule is not', async () => {
    const after = copy();
    after.rules.push({ id: 'SECRET-NEW-001', title: 'A secret is answered within a second.', surface: 'rest-v2', level: 'must', check: 'black-box', operations: ['getSecret'] });
    after.rules.push({ id: 'SECRET-NEW-002', title: 'A secret list is sorted.', surface: 'rest-v2', level: 'should', check: 'black-box', operations: ['listSecrets'] });
    const changes = await contractChanges(baseline, after);
    expect(breaking(changes)).toEqual([expect.objectContaining({ surface: 'rules', party: 'implementer', subject: 'SECRET-NEW-001' })]);
    expect(changes.find((c) => c.subject === 'SECRET-NEW-002')?.level).toBe('dangerous');
  });

  it('a removed REST v2 operation is breaking', async () => {
    const after = copy();
    const paths = after.openapi['rest-v2'].paths!;
    delete paths['/v2/account/secrets/{id}']!['delete'];
    const changes = breaking(await contractChanges(baseline, after));
    expect(changes).toEqual([expect.objectContaining({ subject: 'deleteSecret', operation: 'removed', names: ['deleteSecret', 'DELETE /v2/account/secrets/{id}'] })]);
  });
});

describe('contract gate: additive changes pass', () => {
  it('an added optional response field and a new operation are safe, and the gate passes with no CHANGELOG line', async () => {
    const after = copy();
    schemas(after)['Secret']!.properties!['lastUsedAt'] = { type: 'string' };
    after.openapi['rest-v2'].paths!['/v2/account/secrets/{id}/usage'] = {
      get: { operationId: 'getSecretUsage', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { content: { 'application/json': { schema: { type: 'object' } } } } } },
    };
    const changes = await contractChanges(baseline, after);
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => c.level === 'safe')).toBe(true);
    expect(changes.find((c) => c.subject === 'getSecretUsage')).toMatchObject({ operation: 'added' });
    expect(gate(changes, changelog('- Added things.')).unacknowledged).toEqual([]);
  });

  it('the committed baseline equals itself: no change at all', async () => {
    expect(await contractChanges(baseline, copy())).toEqual([]);
  });
});

describe('contract gate: the CHANGELOG acknowledgement', () => {
  it('a breaking change needs a **Breaking** line of the unreleased section naming it', async () => {
    const after = copy();
    schemas(after)['CreateSecretRequest']!.properties!['name']!.maxLength = 64;
    after.rules.push({ id: 'SECRET-NEW-001', title: 'x', surface: 'rest-v2', level: 'must', check: 'black-box', operations: ['getSecret'] });
    const changes = await contractChanges(baseline, after);
    expect(gate(changes, changelog('- createSecret takes shorter names.')).unacknowledged).toHaveLength(2);
    // A **Breaking** line in a released section does not count.
    expect(gate(changes, changelog()).unacknowledged).toHaveLength(2);
    expect(gate(changes, changelog('- **Breaking**: `createSecret` takes names of at most 64 characters.')).unacknowledged.map((c) => c.subject)).toEqual(['SECRET-NEW-001']);
    expect(gate(changes, changelog('- **Breaking**: `createSecret` names ≤ 64.', '- **Breaking** (implementers): rules SECRET-NEW-001..003.')).unacknowledged).toEqual([]);
  });

  it('a name is matched whole: `createSecrets` does not acknowledge createSecret', async () => {
    const after = copy();
    schemas(after)['CreateSecretRequest']!.properties!['name']!.maxLength = 64;
    const changes = await contractChanges(baseline, after);
    expect(gate(changes, changelog('- **Breaking**: `createSecrets` …')).unacknowledged).toHaveLength(1);
  });

  it('the repository CHANGELOG has an unreleased section the gate reads', () => {
    expect(unreleasedSection(readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8'))).toBeDefined();
  });
});
