// Every OpenAPI fixture validates (or is rejected) exactly as its index says.
import { describe, expect, it } from 'vitest';
import { loadFixtures, openApiSchemaRef } from '../scripts/lint/fixtures.js';
import { validateSchema } from '../src/validation/index.js';

const fixtures = (await loadFixtures()).filter((f) => openApiSchemaRef(f.schema));

describe('OpenAPI fixtures', () => {
  it('there are valid and invalid fixtures for both OpenAPI surfaces', () => {
    for (const surface of ['rest-v1', 'queue-v2']) {
      expect(fixtures.filter((f) => f.surface === surface && f.valid).length).toBeGreaterThan(5);
      expect(fixtures.filter((f) => f.surface === surface && !f.valid).length).toBeGreaterThan(3);
    }
  });

  it.each(fixtures.map((f) => [`${f.surface}/${f.file}`, f] as const))('%s', (_name, fixture) => {
    const ref = openApiSchemaRef(fixture.schema);
    if (!ref) throw new Error(`not an OpenAPI schema ref: ${fixture.schema}`);
    const issues = validateSchema(ref.surface, ref.name, fixture.value);
    if (fixture.valid) expect(issues).toEqual([]);
    else expect(issues.length, `${fixture.file} should be rejected (${fixture.note ?? ''})`).toBeGreaterThan(0);
  });
});
