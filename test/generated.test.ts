// generated/ is complete, marked as generated, and agrees with the specs it came from.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations, rateLimitPolicy } from '../generated/operations.js';
import { schemas, validate, webhooks } from '../generated/validators/index.js';

const root = new URL('..', import.meta.url).pathname;
async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    out.push(...(e.isDirectory() ? await files(full) : [full]));
  }
  return out;
}

describe('generated/', () => {
  it('every generated file carries the DO-NOT-EDIT banner', async () => {
    for (const file of await files(join(root, 'generated'))) {
      const head = (await readFile(file, 'utf8')).slice(0, 300);
      expect(head, relative(root, file)).toMatch(/DO NOT EDIT/);
    }
  });

  it('REST v1 has the 35 operations of the seed table, queue v2 has 12 and REST v2 67 (the 53 public ones, the 3 builds, the 5 account secrets and the 6 sandbox operations)', () => {
    expect(operations.filter((o) => o.surface === 'restV1')).toHaveLength(35);
    expect(operations.filter((o) => o.surface === 'queueV2')).toHaveLength(12);
    expect(operations.filter((o) => o.surface === 'restV2')).toHaveLength(67);
    const ids = operations.map((o) => `${o.surface}:${o.operationId}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every operation has params and response validators, and a body validator when it takes one', () => {
    for (const op of operations) {
      const v = (validate[op.surface] as Record<string, { body?: unknown; params: unknown; responses: Record<string, unknown> }>)[op.operationId];
      expect(v, op.operationId).toBeDefined();
      expect(typeof v?.params).toBe('function');
      expect(Boolean(v?.body)).toBe(op.hasBody);
      expect(Object.keys(v?.responses ?? {})).toContain(String(op.successStatus));
    }
  });

  it('per-surface validator modules: the index is composed of them; required bodies agree with operations.ts', async () => {
    const modules = {
      restV1: await import('../generated/validators/rest-v1.index.js'),
      queueV2: await import('../generated/validators/queue-v2.index.js'),
      restV2: await import('../generated/validators/rest-v2.index.js'),
    };
    for (const [surface, module] of Object.entries(modules) as [keyof typeof modules, (typeof modules)[keyof typeof modules]][]) {
      expect(validate[surface], surface).toBe(module.validate);
      expect(schemas[surface], surface).toBe(module.schemas);
      const ids = operations.filter((o) => o.surface === surface);
      expect(Object.keys(module.validate).sort(), surface).toEqual(ids.map((o) => o.operationId).sort());
      expect([...module.requiredBodies].sort(), surface).toEqual(ids.filter((o) => o.bodyRequired).map((o) => o.operationId).sort());
    }
    expect(webhooks.jobCompleted).toBe(modules.queueV2.webhooks.jobCompleted);
  });

  it('every queue v2 operation carries its rate limit; every operation a scope', () => {
    for (const op of operations) {
      expect(op.requiredScope, op.operationId).toMatch(/^(read|write|jobs)$/);
      if (op.surface === 'queueV2') expect(op.rateLimit, op.operationId).toBeDefined();
    }
    expect(rateLimitPolicy.windowMs).toBe(10_000);
  });

  it('POST …/update operations are synonyms of their PATCH operation', () => {
    const viaPost = operations.filter((o) => o.operationId.endsWith('ViaPost'));
    expect(viaPost).toHaveLength(4);
    for (const op of viaPost) expect(op.synonymOf).toBe(op.operationId.replace('ViaPost', ''));
  });
});
