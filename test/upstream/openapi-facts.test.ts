// specs/upstream/ keeps facts of RunPod's public files and none of their prose (specs/upstream/README.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiFacts, operationCount } from '../../scripts/upstream/openapi-facts.js';

const extract = JSON.parse(readFileSync(new URL('../../specs/upstream/runpod-rest-v2.facts.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const prose = {
  openapi: '3.1.0',
  info: { title: 'API', version: '2.0.0', description: 'Prose about the API.' },
  tags: [{ name: 'Pods', description: 'Prose about pods.' }],
  paths: {
    '/v2/pods/{id}': {
      summary: 'Prose.',
      parameters: [{ name: 'id', in: 'path', required: true, description: 'Prose.', example: 'abc', schema: { type: 'string', minLength: 1 } }],
      patch: {
        operationId: 'updatePod', summary: 'Prose.', description: 'Prose.', tags: ['Pods'], 'x-codeSamples': [{ lang: 'sh', source: 'curl …' }],
        requestBody: {
          required: true, description: 'Prose.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Pod' }, examples: { one: { value: { name: 'x' } } } } },
        },
        responses: { '200': { description: 'Prose.', headers: { RateLimit: { description: 'Prose.', schema: { type: 'string' } } } } },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Prose.' } },
    schemas: {
      Pod: {
        type: 'object', title: 'Pod', description: 'Prose.', required: ['name'], additionalProperties: false, example: { name: 'x' },
        properties: {
          name: { type: 'string', maxLength: 191, description: 'Prose.', examples: ['x'] },
          description: { type: 'string', maxLength: 500, 'x-enum-varnames': ['A'] },
          kind: { enum: ['A', 'B'], default: 'A', $comment: 'Prose.' },
        },
        allOf: [{ if: { required: ['kind'] }, then: { required: ['name'] } }],
      },
    },
  },
};

describe('upstream facts (specs/upstream/)', () => {
  it('keeps paths, operations, parameters, bodies, responses and schema constraints, and no prose', () => {
    const facts = openApiFacts(prose);
    expect(facts).toEqual({
      openapi: '3.1.0',
      info: { title: 'API', version: '2.0.0' },
      paths: {
        '/v2/pods/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
          patch: {
            operationId: 'updatePod', tags: ['Pods'],
            requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pod' } } } },
            responses: { '200': { headers: { RateLimit: { schema: { type: 'string' } } } } },
          },
        },
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: {
          Pod: {
            type: 'object', required: ['name'], additionalProperties: false,
            // A property named `description` is a fact; the keyword is prose.
            properties: { name: { type: 'string', maxLength: 191 }, description: { type: 'string', maxLength: 500 }, kind: { enum: ['A', 'B'], default: 'A' } },
            allOf: [{ if: { required: ['kind'] }, then: { required: ['name'] } }],
          },
        },
      },
    });
  });

  it('the committed REST v2 extract is facts only: extracting it again changes nothing', () => {
    expect(openApiFacts(extract)).toEqual(extract);
    expect(operationCount(extract)).toBe(55);
  });

  it('refuses what is not an OpenAPI 3 document', () => {
    expect(() => openApiFacts({ swagger: '2.0', paths: {} })).toThrow(/not an OpenAPI 3/);
    expect(() => openApiFacts({ openapi: '3.1.0' })).toThrow(/no "paths"/);
  });
});
