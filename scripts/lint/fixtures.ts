// Reads specs/fixtures/<surface>/index.yaml files: which example file belongs to which schema.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

export const repoRoot = new URL('../../', import.meta.url).pathname;

export type Fixture = {
  surface: string;
  file: string;
  /** `rest-v1#/components/schemas/Pod`, `queue-v2#/components/schemas/JobSubmission` or `graphql#SaveTemplateInput`. */
  schema: string;
  valid: boolean;
  note?: string;
  value: unknown;
};

export async function loadFixtures(): Promise<Fixture[]> {
  const base = join(repoRoot, 'specs/fixtures');
  const fixtures: Fixture[] = [];
  for (const surface of (await readdir(base, { withFileTypes: true })).filter((d) => d.isDirectory())) {
    const index = parse(await readFile(join(base, surface.name, 'index.yaml'), 'utf8')) as {
      fixtures: Omit<Fixture, 'surface' | 'value'>[];
    };
    for (const entry of index.fixtures) {
      const value = JSON.parse(await readFile(join(base, surface.name, entry.file), 'utf8')) as unknown;
      fixtures.push({ ...entry, surface: surface.name, valid: entry.valid !== false, value });
    }
  }
  return fixtures;
}

/** `rest-v1#/components/schemas/Pod` → { surface: 'restV1', name: 'Pod' }; undefined for GraphQL. */
export function openApiSchemaRef(ref: string): { surface: 'restV1' | 'queueV2'; name: string } | undefined {
  const m = /^(rest-v1|queue-v2)#\/components\/schemas\/([A-Za-z0-9]+)$/.exec(ref);
  if (!m) return undefined;
  return { surface: m[1] === 'rest-v1' ? 'restV1' : 'queueV2', name: m[2] as string };
}
