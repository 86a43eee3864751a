import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageFile, packageRoot } from '../../src/contract/package-files.js';

describe('package data files', () => {
  it('finds the package root: the directory holding package.json named compute-contract and specs/', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { name: string };
    expect(manifest.name).toBe('compute-contract');
    expect(existsSync(join(packageRoot, 'specs'))).toBe(true);
  });

  it('resolves the data files read at runtime (GraphQL SDL, bundled OpenAPI, rules)', () => {
    for (const rel of ['specs/graphql/schema.graphql', 'specs/rules.yaml', 'generated/rest-v1/openapi.json', 'generated/queue-v2/openapi.json']) {
      expect(existsSync(packageFile(rel)), rel).toBe(true);
    }
  });
});
