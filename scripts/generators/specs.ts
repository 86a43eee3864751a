// Loads the split OpenAPI sources and bundles each into one document with internal refs only.
import { redocly } from './redocly.js';
import { join } from 'node:path';
import { repoRoot } from './output.js';

export type SurfaceName = 'restV1' | 'queueV2' | 'restV2';
/**
 * Every OpenAPI surface: bundled, typed, validated (generated/validators) and listed in generated/operations.ts.
 * Consumers that enumerate operations for the REST v1 error body (generic auth/HTTP checks) filter REST v2 out
 * explicitly (isHttpSurface); REST v2 behaviour is checked by the RESTV2-* rules.
 */
export const surfaces: Record<SurfaceName, { dir: string; title: string }> = {
  restV1: { dir: 'rest-v1', title: 'REST v1' },
  queueV2: { dir: 'queue-v2', title: 'queue v2' },
  restV2: { dir: 'rest-v2', title: 'REST v2' },
};
/** Specs bundled and typed but not a routed, validated surface: the worker protocol (specs/worker/, docs/workers.md). */
export type SpecName = SurfaceName | 'worker';
const specDirs: Record<SpecName, { dir: string }> = { ...surfaces, worker: { dir: 'worker' } };

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

export async function bundleSpec(spec: SpecName): Promise<OpenApiDocument> {
  const ref = join(repoRoot, 'specs', specDirs[spec].dir, 'openapi.yaml');
  const config = await redocly.createConfig({});
  const result = await redocly.bundle({ ref, config });
  const errors = result.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const lines = errors.map((p) => `  ${p.message} (${p.location[0]?.source.absoluteRef}#${p.location[0]?.pointer})`);
    throw new Error(`Cannot bundle ${ref}:\n${lines.join('\n')}`);
  }
  return result.bundle.parsed as OpenApiDocument;
}

/** Follows local `#/...` refs (components.responses, parameters …) until a non-ref node is reached. */
export function resolveLocal<T = Record<string, unknown>>(doc: OpenApiDocument, node: unknown): T {
  let current = node as Record<string, unknown>;
  for (let depth = 0; current && typeof current.$ref === 'string' && current.$ref.startsWith('#/'); depth++) {
    if (depth > 20) throw new Error(`Ref cycle at ${String(current.$ref)}`);
    const parts = current.$ref.slice(2).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let target: unknown = doc;
    for (const part of parts) target = (target as Record<string, unknown>)?.[part];
    if (target === undefined) throw new Error(`Unresolved ref ${current.$ref}`);
    current = target as Record<string, unknown>;
  }
  return current as T;
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export type OperationEntry = { path: string; method: (typeof httpMethods)[number]; op: Record<string, unknown> };

export function listOperations(doc: OpenApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of httpMethods) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (op) out.push({ path, method, op });
    }
  }
  return out;
}
