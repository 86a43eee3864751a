// ISOLATION-* over GraphQL, from the SDL: every root field with an argument or input field that names
// an object (id, podId, endpointId, templateId, networkVolumeId, registryAuthId, containerRegistryAuthId)
// and that the agreement's generated operations do not already aim at A's objects. Variables are the
// smallest input the SDL accepts (required fields only, plus every id field set to one of A's ids);
// an input with an optional `id` is sent twice: with it (a change of A's object) and without it (a
// create of B's that references A's objects).
import { readFileSync } from 'node:fs';
import {
  buildSchema, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType,
  type GraphQLArgument, type GraphQLField, type GraphQLInputType, type GraphQLSchema,
} from 'graphql';
import type { Fixtures } from '../../src/agreement/fixtures.js';
import type { ManagedKind } from '../../src/agreement/fixtures-management.js';
import { placeholder, type ResourceKind, type Role } from '../../src/agreement/references.js';
import type { Transport } from '../../src/agreement/transport.js';
import { packageFile } from '../../src/contract/package-files.js';
import { inPool, PROBES_AT_ONCE, stable, twinOf, type Probe, type ProbeKind } from './isolation-probe.js';

/** Root fields whose ids the generated agreement requests already name (GRAPHQL_REFERENCES). */
const GENERATED = new Set(['podTemplate', 'saveTemplate', 'deleteTemplate', 'secretDelete']);
const ID_FIELDS: Record<string, ResourceKind> = {
  podId: 'pod', endpointId: 'endpoint', templateId: 'template', networkVolumeId: 'networkVolume',
  containerRegistryAuthId: 'registryAuth', registryAuthId: 'registryAuth',
};
/** A bare `id` names the object of its root field. */
const SUBJECTS: [RegExp, ResourceKind][] = [[/template/i, 'template'], [/secret/i, 'secret'], [/endpoint/i, 'endpoint'], [/registryauth/i, 'registryAuth'], [/pod/i, 'pod']];
/** The kinds A re-reads after B's GraphQL request, through the surface that made them (REST v1, else REST v2). */
const READABLE: ReadonlySet<ResourceKind> = new Set(['pod', 'endpoint', 'template', 'networkVolume', 'registryAuth']);

interface Slot {
  kind: ResourceKind;
  /** The field's own object (a change of it) rather than a reference to another one. */
  own: boolean;
}

let schema: GraphQLSchema | undefined;
const sdl = () => (schema ??= buildSchema(readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8')));

function subjectOf(field: string): ResourceKind | undefined {
  return SUBJECTS.find(([pattern]) => pattern.test(field))?.[1];
}

function slotOf(root: string, name: string): Slot | undefined {
  if (name === 'id') {
    const kind = subjectOf(root);
    return kind ? { kind, own: true } : undefined;
  }
  const kind = ID_FIELDS[name];
  return kind ? { kind, own: subjectOf(root) === kind && !/^save|^deploy|^podFind/.test(root) } : undefined;
}

/** The smallest value of an input type; id fields get placeholders (`withOwnId`: include an optional own id). */
function valueOf(type: GraphQLInputType, root: string, withOwnId: boolean, role: Role): unknown {
  if (isNonNullType(type)) return valueOf(type.ofType, root, withOwnId, role);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0]?.value;
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) {
      const slot = slotOf(root, f.name);
      if (slot && !isListType(isNonNullType(f.type) ? f.type.ofType : f.type)) {
        if (slot.own && !withOwnId && !isNonNullType(f.type)) continue;
        out[f.name] = placeholder(slot.kind, slot.own ? role : 'fixture');
      } else if (isNonNullType(f.type)) out[f.name] = valueOf(f.type, root, withOwnId, role);
    }
    return out;
  }
  if (isScalarType(type)) return type.name === 'Int' || type.name === 'Float' ? 1 : type.name === 'Boolean' ? false : 'cc-iso';
  return null;
}

function argValue(arg: GraphQLArgument, root: string, withOwnId: boolean, role: Role): unknown {
  const slot = slotOf(root, arg.name);
  if (slot && !isInputObjectType(getNamedType(arg.type))) return placeholder(slot.kind, slot.own ? role : 'fixture');
  return valueOf(arg.type, root, withOwnId, role);
}

function selectionOf(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (!isObjectType(named)) return '';
  return named.getFields()['id'] ? ' { id }' : ' { __typename }';
}

/** The placeholders in a value, resolved to A's ids through the agreement fixtures. */
async function resolveIds(value: unknown, fixtures: Fixtures, found: Map<string, ResourceKind>): Promise<unknown> {
  if (typeof value === 'string' && value.startsWith('\u0001ref:')) {
    const resolved = await fixtures.resolve({ op: undefined as never, path: { id: value }, query: {}, bodyMode: 'none' });
    const kind = value.slice(5).split(':')[0] as ResourceKind;
    found.set(resolved.path['id']!, kind);
    return resolved.path['id'];
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => resolveIds(v, fixtures, found)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await resolveIds(v, fixtures, found);
    return out;
  }
  return value;
}

const answerOrMessage = (t: Transport, query: string, variables: Record<string, unknown>) =>
  t.graphql(query, variables).catch((e: Error) => e.message);

export async function graphqlProbes(fixtures: Fixtures, owner: Transport, other: Transport, ownerIds: Set<string>): Promise<Probe[]> {
  const jobs: (() => Promise<Probe>)[] = [];
  const s = sdl();
  for (const [operation, type] of [['query', s.getQueryType()], ['mutation', s.getMutationType()]] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      if (GENERATED.has(field.name)) continue;
      const slots = field.args.flatMap((a) => {
        const direct = slotOf(field.name, a.name);
        const t = getNamedType(a.type);
        return direct ? [direct] : isInputObjectType(t) ? Object.keys(t.getFields()).map((n) => slotOf(field.name, n)).filter((x): x is Slot => x !== undefined) : [];
      });
      if (slots.length === 0) continue;
      const variants = slots.some((x) => x.own) && slots.some((x) => !x.own) ? [true, false] : [slots.some((x) => x.own)];
      for (const withOwnId of variants) jobs.push(async () => {
        const role: Role = /terminate|delete/i.test(field.name) ? 'fresh' : operation === 'query' ? 'fixture' : 'scratch';
        const kind: ProbeKind = operation === 'query' ? 'read' : withOwnId ? 'write' : 'ref';
        const declarations = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
        const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const query = `${operation}${declarations ? `(${declarations})` : ''} { ${field.name}${call ? `(${call})` : ''}${selectionOf(field)} }`;
        const found = new Map<string, ResourceKind>();
        const variables = await resolveIds(Object.fromEntries(field.args.map((a) => [a.name, argValue(a, field.name, withOwnId, role)])), fixtures, found) as Record<string, unknown>;
        for (const id of found.keys()) ownerIds.add(id);
        const twins = [...found.keys()].map((id) => [id, twinOf(id)] as [string, string]);
        const reread = async () => {
          const reads = await Promise.all([...found].filter(([, k]) => READABLE.has(k)).map(([id, k]) => fixtures.read(k as ManagedKind, id)));
          return reads.map((r) => `${r.status} ${stable(r.body)}`).join('|');
        };
        const before = kind === 'read' ? '' : await reread();
        const foreign = await answerOrMessage(other, query, variables);
        const after = kind === 'read' ? '' : await reread();
        let absentVariables = JSON.stringify(variables);
        for (const [from, to] of twins) absentVariables = absentVariables.split(from).join(to);
        const absent = await answerOrMessage(other, query, JSON.parse(absentVariables) as Record<string, unknown>);
        return {
          kind, surface: 'graphql', operationId: field.name, rootField: field.name, twins, foreign, absent,
          label: `graphql ${field.name}${kind === 'ref' ? ' (create referencing A\'s objects)' : ''}`,
          ...(before !== after ? { changed: `A's objects read back differently after B's ${field.name}` } : {}),
        };
      });
    }
  }
  return inPool(jobs, PROBES_AT_ONCE, (job) => job());
}
