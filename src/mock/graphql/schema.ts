// Executable GraphQL schema: specs/graphql/schema.graphql (schema-first) + resolvers over the store:
// templates and secrets here, the operations the official SDKs send in sdk-resolvers.ts / sdk-pods.ts.
import { readFileSync } from 'node:fs';
import {
  buildSchema, defaultFieldResolver, GraphQLError, isObjectType, GraphQLScalarType, Kind, type GraphQLArgument, type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLSchema,
} from 'graphql';
import type { MockCore } from '../core.js';
import type { Failure } from '../state/store.js';
import type { TemplateRecord } from '../types.js';
import { TEMPLATE_INPUT_BOUNDS } from '../state/input-bounds.js';
import { parseDockerArgs, renderDockerArgs, startCommandOf } from './docker-args.js';
import { packageFile } from '../../contract/package-files.js';
import { describedBoundsProblem } from './described-bounds.js';
import { sdkMutationResolvers, sdkQueryResolvers } from './sdk-resolvers.js';

const SDL = readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8');
/** env entries of saveTemplate, as REST v1's env maxProperties. */
const ENV_MAX_ENTRIES = TEMPLATE_INPUT_BOUNDS['env']!.maxItems!;
const PORT_LIST = /^\d{1,5}\/(http|tcp)(,\d{1,5}\/(http|tcp))*$/;

interface EnvPair {
  key: string;
  value: string;
}

function failure(f: Failure): GraphQLError {
  return new GraphQLError(f.message, { extensions: { code: f.status === 404 ? 'NOT_FOUND' : 'BAD_USER_INPUT' } });
}

function parsePortList(value: unknown): string {
  if (typeof value !== 'string' || (value !== '' && !PORT_LIST.test(value))) {
    throw new GraphQLError('ports must be a comma-separated list of <port>/<http|tcp>, e.g. "8888/http,22/tcp"');
  }
  return value;
}

/** GraphQL template input → stored record fields (REST shape: env object, ports array, start command arrays). */
function toRecordFields(input: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, env, ports, dockerArgs, ...rest } = input;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== null && v !== undefined) fields[k] = v;
  if (Array.isArray(env)) fields['env'] = Object.fromEntries((env as EnvPair[]).map((e) => [e.key, e.value]));
  if (typeof ports === 'string') fields['ports'] = ports === '' ? [] : ports.split(',');
  // saveTemplate replaces the whole template, so no dockerArgs means no start command.
  Object.assign(fields, parseDockerArgs(typeof dockerArgs === 'string' ? dockerArgs : undefined));
  // The caller's own text, shown back while REST v1 has not changed the command since.
  if (typeof dockerArgs === 'string') fields['dockerArgs'] = dockerArgs;
  return fields;
}

/** Stored record → PodTemplate. */
function toPodTemplate(t: TemplateRecord): Record<string, unknown> {
  const env = (t['env'] as Record<string, string> | undefined) ?? {};
  const ports = t['ports'];
  return {
    ...t,
    env: Object.entries(env).map(([key, value]) => ({ key, value })),
    ports: Array.isArray(ports) ? ports.join(',') : ((ports as string | undefined) ?? null),
    dockerArgs: renderDockerArgs(startCommandOf(t), t['dockerArgs']),
    containerRegistryAuthId: t['containerRegistryAuthId'] ?? null,
  };
}

/** `resolve`, after refusing any argument beyond a bound its SDL description states (rule GQL-SDK-INPUT-001). */
function bounded(args: readonly GraphQLArgument[], resolve: GraphQLFieldResolver<unknown, MockCore>): GraphQLFieldResolver<unknown, MockCore> {
  return (source, values: Record<string, unknown>, core, info) => {
    // Fault graphql-sdk-bounds-unchecked: the bounds the descriptions state are not enforced.
    const problem = core.options.faults.has('graphql-sdk-bounds-unchecked') ? undefined : describedBoundsProblem(args, values);
    if (problem) throw new GraphQLError(problem, { extensions: { code: 'BAD_USER_INPUT' } });
    return resolve(source, values, core, info);
  };
}

export function buildExecutableSchema(): GraphQLSchema {
  const schema = buildSchema(SDL);
  const portList = schema.getType('PortList') as GraphQLScalarType;
  Object.assign(portList, {
    serialize: (v: unknown) => v,
    parseValue: parsePortList,
    parseLiteral: (ast: { kind: string; value?: string }) => {
      if (ast.kind !== Kind.STRING) throw new GraphQLError('ports must be a string');
      return parsePortList(ast.value);
    },
  });
  const voidType = schema.getType('Void') as GraphQLScalarType;
  Object.assign(voidType, { serialize: () => null, parseValue: () => null, parseLiteral: () => null });

  const resolvers: Record<string, Record<string, GraphQLFieldResolver<unknown, MockCore>>> = {
    Query: {
      podTemplate: (_root, args: { id?: string }, core) => {
        const t = args.id ? core.store.templates.get(args.id) : undefined;
        return t ? toPodTemplate(t) : null;
      },
    },
    Mutation: {
      saveTemplate: (_root, args: { input?: Record<string, unknown> | null }, core) => {
        if (!args.input) throw new GraphQLError('input is required', { extensions: { code: 'BAD_USER_INPUT' } });
        // Counted as sent: a repeated key still counts (the stored map keeps the last value).
        const env = args.input['env'];
        if (Array.isArray(env) && env.length > ENV_MAX_ENTRIES) {
          throw new GraphQLError(`input.env must have at most ${ENV_MAX_ENTRIES} entries`, { extensions: { code: 'BAD_USER_INPUT' } });
        }
        const id = args.input['id'];
        // With id: a full replace (fields left out are reset to their defaults).
        const result = core.store.saveTemplate(toRecordFields(args.input), typeof id === 'string' ? id : undefined);
        if (!result.ok) throw failure(result);
        core.touch();
        return toPodTemplate(result.value);
      },
      deleteTemplate: (_root, args: { templateName?: string | null }, core) => {
        const template = args.templateName ? core.store.templateByName(args.templateName) : undefined;
        if (!template) throw new GraphQLError(`no template named '${args.templateName ?? ''}'`, { extensions: { code: 'NOT_FOUND' } });
        const result = core.store.deleteTemplate(template.id);
        if (!result.ok) throw failure(result);
        core.touch();
        return null;
      },
      secretCreate: (_root, args: { input: { name: string; value: string; description?: string | null } }, core) => {
        const { name, value, description } = args.input;
        const result = core.store.createSecret(name, value, description ?? null);
        if (!result.ok) throw failure(result);
        core.touch();
        const { id, description: d } = result.value;
        return { id, name, description: d };
      },
      secretDelete: (_root, args: { id: string }, core) => {
        if (!core.store.secrets.delete(args.id)) throw new GraphQLError(`no secret with id '${args.id}'`, { extensions: { code: 'NOT_FOUND' } });
        core.touch();
        return null;
      },
    },
  };
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName) as GraphQLObjectType;
    const typeFields = type.getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = typeFields[fieldName];
      if (!field) throw new Error(`schema.graphql lacks ${typeName}.${fieldName}`);
      field.resolve = resolve;
    }
  }
  // The SDK operations check every argument against the bounds its description states, before resolving.
  for (const [typeName, fields] of [['Query', sdkQueryResolvers], ['Mutation', sdkMutationResolvers]] as const) {
    const typeFields = (schema.getType(typeName) as GraphQLObjectType).getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = typeFields[fieldName];
      if (!field) throw new Error(`schema.graphql lacks ${typeName}.${fieldName}`);
      field.resolve = bounded(field.args, resolve);
    }
  }
  // Arguments of nested fields (GpuType.lowestPrice(input: {gpuCount})) are bounded the same way.
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || type === schema.getQueryType() || type === schema.getMutationType()) continue;
    for (const field of Object.values(type.getFields())) if (field.args.length > 0) field.resolve = bounded(field.args, defaultFieldResolver);
  }
  return schema;
}
