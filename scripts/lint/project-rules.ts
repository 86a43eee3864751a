// Project lint rules Redocly cannot express: documented extensions, schema provenance,
// examples-or-fixtures for every property, and a valid GraphQL schema with valid operations.
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildSchema, parse as parseGraphql, validate } from 'graphql';
import { documentedExtensions } from '../generators/extensions.js';
import { bundleSpec, type OpenApiDocument, type SpecName } from '../generators/specs.js';
import { loadFixtures, openApiSchemaRef, repoRoot, type Fixture } from './fixtures.js';

type Json = Record<string, unknown>;

export async function projectLintProblems(): Promise<string[]> {
  const problems: string[] = [];
  problems.push(...(await undocumentedExtensions()));
  const fixtures = await loadFixtures();
  for (const surface of ['restV1', 'queueV2', 'restV2'] as SpecName[]) {
    const doc = await bundleSpec(surface);
    problems.push(...schemaProvenance(surface, doc));
    problems.push(...propertiesWithoutExamples(surface, doc, fixtures));
  }
  problems.push(...(await graphqlProblems()));
  return problems;
}

async function yamlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await yamlFiles(full)));
    else if (entry.name.endsWith('.yaml')) out.push(full);
  }
  return out;
}

async function undocumentedExtensions(): Promise<string[]> {
  const documented = new Set(await documentedExtensions());
  const problems: string[] = [];
  for (const file of await yamlFiles(join(repoRoot, 'specs'))) {
    if (file.includes('/fixtures/')) continue;
    const used = new Set<string>();
    collectKeys(parseYaml(await readFile(file, 'utf8')), used);
    for (const key of used) {
      if (key.startsWith('x-') && !documented.has(key)) problems.push(`${relative(repoRoot, file)}: ${key} is not documented in specs/EXTENSIONS.md`);
    }
  }
  return problems;
}

function collectKeys(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) node.forEach((n) => collectKeys(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      into.add(k);
      collectKeys(v, into);
    }
  }
}

function schemaProvenance(surface: SpecName, doc: OpenApiDocument): string[] {
  return Object.entries(doc.components?.schemas ?? {})
    .filter(([, s]) => !['seed', 'observed', 'assumed'].includes(String((s as Json)['x-source'])))
    .map(([name]) => `${surface} schema ${name}: x-source must be seed, observed or assumed`);
}

/** Every property has an example, sits under a property that has one, or is present in a valid fixture. */
function propertiesWithoutExamples(surface: SpecName, doc: OpenApiDocument, fixtures: Fixture[]): string[] {
  const problems: string[] = [];
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    const covered = new Set<string>();
    for (const f of fixtures) {
      const ref = openApiSchemaRef(f.schema);
      if (f.valid && ref?.surface === surface && ref.name === name) collectPaths(f.value, '', covered);
    }
    walkProperties(schema as Json, '', (path, prop) => {
      if ('example' in prop || 'examples' in prop || '$ref' in prop || covered.has(path)) return true;
      problems.push(`${surface} ${name}${path}: no example and not present in any valid fixture`);
      return false;
    });
  }
  return problems;
}

function walkProperties(schema: Json, prefix: string, visit: (path: string, prop: Json) => boolean): void {
  for (const [key, prop] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    // A `false` property is one an alternative excludes (oneOf templateId | imageName): nothing to exemplify.
    if (prop === null || typeof prop !== 'object') continue;
    const path = `${prefix}/${key}`;
    // A property with its own example covers everything beneath it.
    if (visit(path, prop) && ('example' in prop || 'examples' in prop)) continue;
    walkProperties(prop, path, visit);
    if (prop.items && typeof prop.items === 'object') walkProperties(prop.items as Json, path, visit);
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    for (const sub of (schema[key] ?? []) as Json[]) walkProperties(sub, prefix, visit);
  }
}

function collectPaths(value: unknown, prefix: string, into: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => collectPaths(v, prefix, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.add(`${prefix}/${k}`);
      collectPaths(v, `${prefix}/${k}`, into);
    }
  }
}

async function graphqlProblems(): Promise<string[]> {
  const dir = join(repoRoot, 'specs/graphql');
  let schema;
  try {
    schema = buildSchema(await readFile(join(dir, 'schema.graphql'), 'utf8'));
  } catch (error) {
    return [`specs/graphql/schema.graphql: ${(error as Error).message}`];
  }
  const opsDir = join(dir, 'operations');
  const files = (await readdir(opsDir)).filter((f) => f.endsWith('.graphql'));
  const source = (await Promise.all(files.map((f) => readFile(join(opsDir, f), 'utf8')))).join('\n');
  return validate(schema, parseGraphql(source)).map((e) => `specs/graphql/operations: ${e.message}`);
}
