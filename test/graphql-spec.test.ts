// The GraphQL SDL, its operation documents and its fixtures agree with each other and with the seed.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  assertValidSchema,
  buildSchema,
  getNamedType,
  getNullableType,
  getVariableValues,
  isInputObjectType,
  isIntrospectionType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';

const specDir = fileURLToPath(new URL('../specs/graphql/', import.meta.url));
const fixtureDir = fileURLToPath(new URL('../specs/fixtures/graphql/', import.meta.url));

const schema: GraphQLSchema = buildSchema(readFileSync(`${specDir}schema.graphql`, 'utf8'));
const operationFiles = readdirSync(`${specDir}operations`).filter((f) => f.endsWith('.graphql'));
// One document holding every file, so operations can use fragments defined in sibling files.
const documents: DocumentNode = parse(
  operationFiles.map((f) => readFileSync(`${specDir}operations/${f}`, 'utf8')).join('\n'),
);
const operations = documents.definitions.filter(
  (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
);

/** The PortList pattern, read from the scalar's description so the SDL stays the single source. */
function portListPattern(): RegExp {
  const description = schema.getType('PortList')?.description ?? '';
  const match = /Pattern: `([^`]+)`/.exec(description);
  if (!match?.[1]) throw new Error('PortList description does not state its pattern');
  return new RegExp(match[1]);
}

/** Every PortList value inside an already-coerced input value. */
function collectPortLists(type: GraphQLInputType, value: unknown, found: unknown[]): void {
  if (value === null || value === undefined) return;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    for (const item of value as unknown[]) collectPortLists(nullable.ofType, item, found);
  } else if (isInputObjectType(nullable)) {
    const record = value as Record<string, unknown>;
    for (const field of Object.values(nullable.getFields())) collectPortLists(field.type, record[field.name], found);
  } else if (isScalarType(nullable) && nullable.name === 'PortList') {
    found.push(value);
  }
}

/** Errors from coercing `value` as the variable of type `typeName` of the operation that declares it. */
function coercionErrors(typeName: string, value: unknown): string[] {
  for (const operation of operations) {
    for (const definition of operation.variableDefinitions ?? []) {
      let typeNode = definition.type;
      if (typeNode.kind === Kind.NON_NULL_TYPE) typeNode = typeNode.type;
      if (typeNode.kind !== Kind.NAMED_TYPE || typeNode.name.value !== typeName) continue;
      const name = definition.variable.name.value;
      const result = getVariableValues(schema, [definition], { [name]: value });
      if (result.errors) return result.errors.map((e) => e.message);
      const ports: unknown[] = [];
      collectPortLists(schema.getType(typeName) as GraphQLInputType, result.coerced[name], ports);
      const pattern = portListPattern();
      return ports.filter((p) => typeof p !== 'string' || !pattern.test(p)).map((p) => `ports ${JSON.stringify(p)} does not match ${pattern}`);
    }
  }
  throw new Error(`no operation declares a variable of type ${typeName}`);
}

interface FixtureEntry {
  file: string;
  schema: string;
  valid: boolean;
  note?: string;
}
const fixtureIndex = parseYaml(readFileSync(`${fixtureDir}index.yaml`, 'utf8')) as { fixtures: FixtureEntry[] };

describe('GraphQL schema', () => {
  it('builds and is valid', () => {
    expect(() => assertValidSchema(schema)).not.toThrow();
  });

  it('has the seed\'s four mutations, the podTemplate query and the operations the official SDKs send', () => {
    expect(Object.keys(schema.getMutationType()?.getFields() ?? {}).sort()).toEqual([
      'deleteRegistryAuth', 'deleteTemplate', 'deployCpuPod', 'podFindAndDeployOnDemand', 'podResume', 'podStop', 'podTerminate',
      'saveEndpoint', 'saveRegistryAuth', 'saveTemplate', 'secretCreate', 'secretDelete', 'updateEndpointTemplate', 'updateRegistryAuth',
      'updateUserSettings',
    ]);
    expect(Object.keys(schema.getQueryType()?.getFields() ?? {}).sort()).toEqual(['allAiApiPublicConfigs', 'gpuTypes', 'listings', 'myself', 'pod', 'podTemplate']);
  });

  it('x-auth: none marks exactly the catalogue queries public, and no account type is reachable from them', () => {
    const fields = schema.getQueryType()!.getFields();
    const marked = Object.values(fields).filter((f) => /^x-auth: none$/m.test(f.description ?? '')).map((f) => f.name).sort();
    expect(marked).toEqual(['allAiApiPublicConfigs', 'gpuTypes', 'listings']);
    const reachable = new Set<string>();
    const walk = (name: string): void => {
      if (reachable.has(name)) return;
      reachable.add(name);
      const type = schema.getType(name);
      if (isObjectType(type)) for (const field of Object.values(type.getFields())) walk(getNamedType(field.type).name);
    };
    for (const name of marked) walk(getNamedType(fields[name]!.type).name);
    for (const account of ['User', 'Pod', 'Endpoint', 'PodTemplate', 'Secret', 'NetworkVolume', 'ContainerRegistryAuth']) expect(reachable.has(account), account).toBe(false);
  });

  it('no type has a password or secret value field (registry passwords and secret values are write-only)', () => {
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || isIntrospectionType(type)) continue;
      expect(Object.keys(type.getFields()), type.name).not.toContain('password');
    }
  });

  it('every SDK operation returning nothing is Void, so a caller may select nothing (podTerminate, deleteRegistryAuth)', () => {
    const mutations = schema.getMutationType()!.getFields();
    expect(String(mutations['podTerminate']!.type)).toBe('Void');
    expect(String(mutations['deleteRegistryAuth']!.type)).toBe('Void');
  });

  it('deleteTemplate and secretDelete return Void', () => {
    const mutations = schema.getMutationType()!.getFields();
    expect(String(mutations['deleteTemplate']!.type)).toBe('Void');
    expect(String(mutations['secretDelete']!.type)).toBe('Void');
  });

  it('Secret has no value field (secret values are never readable)', () => {
    const secret = schema.getType('Secret');
    expect(isObjectType(secret)).toBe(true);
    if (!isObjectType(secret)) return;
    expect(Object.keys(secret.getFields()).sort()).toEqual(['description', 'id', 'name']);
    for (const type of Object.values(schema.getTypeMap())) {
      if (isObjectType(type) && !isIntrospectionType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (getNamedType(field.type).name === 'Secret') expect(field.name).not.toBe('value');
        }
      }
    }
  });

  it('saveTemplate requires exactly containerDiskInGb, imageName, name, volumeInGb', () => {
    const input = schema.getType('SaveTemplateInput');
    if (!isInputObjectType(input)) throw new Error('SaveTemplateInput is not an input type');
    const required = Object.values(input.getFields())
      .filter((f) => isNonNullType(f.type) && f.defaultValue === undefined)
      .map((f) => f.name)
      .sort();
    expect(required).toEqual(['containerDiskInGb', 'imageName', 'name', 'volumeInGb']);
  });

  it('every type, field and argument has a description ending in an x-source line', () => {
    const missing: string[] = [];
    const check = (where: string, description: string | null | undefined): void => {
      const last = description?.trim().split('\n').at(-1) ?? '';
      if (!/^x-source: (seed|observed|assumed)\b/.test(last)) missing.push(where);
    };
    for (const type of Object.values(schema.getTypeMap())) {
      if (isIntrospectionType(type) || (isScalarType(type) && isSpecifiedScalarType(type))) continue;
      check(type.name, type.description);
      if (isObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          check(`${type.name}.${field.name}`, field.description);
          for (const arg of field.args) check(`${type.name}.${field.name}(${arg.name})`, arg.description);
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) check(`${type.name}.${field.name}`, field.description);
      }
    }
    expect(missing).toEqual([]);
  });

  it('PortList documents a pattern accepting http/tcp lists only', () => {
    const pattern = portListPattern();
    expect(pattern.test('8888/http,22/tcp')).toBe(true);
    expect(pattern.test('8888/ftp')).toBe(false);
    expect(pattern.test('8888/http,')).toBe(false);
  });
});

describe('GraphQL operations', () => {
  it('are the named operations: templates and secrets, and the management operations the SDKs send', () => {
    expect(operations.map((o) => o.name?.value).sort()).toEqual([
      'DeleteRegistryAuth', 'DeleteTemplate', 'DeployCpuPod', 'GetPod', 'GetPodTemplate', 'GpuTypes', 'Myself', 'PodFindAndDeployOnDemand',
      'PodResume', 'PodStop', 'PodTerminate', 'SaveEndpoint', 'SaveRegistryAuth', 'SaveTemplate', 'SecretCreate', 'SecretDelete',
      'UpdateEndpointTemplate', 'UpdateRegistryAuth', 'UpdateUserSettings',
    ]);
  });

  it('validate against the schema', () => {
    expect(validate(schema, documents).map((e) => e.message)).toEqual([]);
  });
});

describe('GraphQL fixtures', () => {
  it('index lists every fixture file', () => {
    const files = readdirSync(fixtureDir).filter((f) => f.endsWith('.json')).sort();
    expect(fixtureIndex.fixtures.map((f) => f.file).sort()).toEqual(files);
  });

  for (const entry of fixtureIndex.fixtures) {
    it(`${entry.file} is ${entry.valid ? 'accepted' : 'rejected'} as ${entry.schema}`, () => {
      const [surface, typeName] = entry.schema.split('#');
      expect(surface).toBe('graphql');
      const value: unknown = JSON.parse(readFileSync(`${fixtureDir}${entry.file}`, 'utf8'));
      const errors = coercionErrors(typeName!, value);
      if (entry.valid) expect(errors).toEqual([]);
      else expect(errors).not.toEqual([]);
    });
  }
});
