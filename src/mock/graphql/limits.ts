// The one place the GraphQL handler applies the operation limits (specs/graphql/schema.graphql, schema
// description; measured by src/validation/graphql-limits.ts): parse with the token limit, measure, and
// refuse before validation or execution. The two faults of rules GRAPHQL-COST-* live here too:
// `graphql-unbounded` measures nothing, `graphql-limit-after-execution` runs the operation first.
// Within the limits, a list of records longer than LIST_CHUNK is completed a chunk per event-loop turn
// (splitLongLists), so an account's long lists, even aliased 30 times, never hold the loop for long.
import {
  defaultFieldResolver, getNamedType, getNullableType, GraphQLError, isListType, isObjectType, Kind, parse,
  type DocumentNode, type ExecutionResult, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import { breachOf, checkGraphqlLimits } from '../../validation/graphql-limits.js';
import type { ServerResponse } from 'node:http';
import type { MockCore } from '../core.js';
import { sendJson } from '../http.js';
import type { FaultName } from '../options.js';
import { abandonTurns, nextTurn } from '../turns.js';
import { sendJsonInTurns } from '../json-in-turns.js';

export type GraphqlGate =
  /** Go on: validate and execute `document`, then answer `refusalAfter(result)` instead when it gives one. */
  | { kind: 'run'; document: DocumentNode; refusalAfter: (result: ExecutionResult) => { message: string } | undefined }
  /** Over a limit: answer this error, run nothing. */
  | { kind: 'refuse'; message: string }
  /** Not a GraphQL document (within the token limit). */
  | { kind: 'syntax'; error: GraphQLError };

/** Thrown by a list resolver once an answer's records pass the limit; the whole answer becomes the refusal. */
class RecordsLimitExceeded extends Error {
  constructor(readonly max: number) {
    super(breachOf('records', max, `more than ${max}`).message);
  }
}

/** The records limit's refusal when execution stopped at it (a list resolver threw RecordsLimitExceeded). */
function recordsRefusal(result: ExecutionResult): { message: string } | undefined {
  const stopped = result.errors?.find((e) => e.originalError instanceof RecordsLimitExceeded);
  return stopped && { message: stopped.originalError!.message };
}

function parseUnbounded(source: string, refuseAfter?: { message: string }): GraphqlGate {
  try {
    return { kind: 'run', document: parse(source), refusalAfter: () => refuseAfter };
  } catch (error) {
    return { kind: 'syntax', error: error as GraphQLError };
  }
}

export function gateGraphqlOperation(faults: ReadonlySet<FaultName>, schema: GraphQLSchema, source: string): GraphqlGate {
  if (faults.has('graphql-unbounded')) return parseUnbounded(source);
  const checked = checkGraphqlLimits(schema, source);
  if (checked.ok) return { kind: 'run', document: checked.document, refusalAfter: recordsRefusal };
  if ('syntaxError' in checked) return { kind: 'syntax', error: checked.syntaxError };
  if (!faults.has('graphql-limit-after-execution')) return { kind: 'refuse', message: checked.breach.message };
  return parseUnbounded(source, { message: checked.breach.message });
}

/** Records of one list completed per event-loop turn (a pod record with its nested fields is ~40 fields). */
export const LIST_CHUNK = 25;

// Operations stopped at the records limit: their chunks still waiting fail at once instead of completing
// (turns.ts releases an abandoned owner's slices without a turn of their own).
const stopped = new WeakSet<object>();

/** A list longer than LIST_CHUNK as items that resolve a chunk per turn (graphql-js completes each when it resolves). */
function inTurns(value: unknown, operation: OperationDefinitionNode, max: number): unknown {
  if (!Array.isArray(value) || value.length <= LIST_CHUNK) return value;
  const items: unknown[] = [];
  for (let start = 0; start < value.length; start += LIST_CHUNK) {
    const turn = nextTurn(operation).then(() => {
      if (stopped.has(operation)) throw new RecordsLimitExceeded(max);
    });
    for (const item of value.slice(start, start + LIST_CHUNK)) items.push(turn.then(() => item));
  }
  return items;
}

// Records handed out per running operation (each request parses its own document, so its own node).
const recordsServed = new WeakMap<OperationDefinitionNode, number>();

/** Counts `count` more records for the operation; throws once past the mock's records limit. */
function countRecords(core: MockCore, operation: OperationDefinitionNode, count: number): void {
  if (core.options.faults.has('graphql-unbounded')) return;
  const served = (recordsServed.get(operation) ?? 0) + count;
  recordsServed.set(operation, served);
  const max = core.options.limits.graphqlRecords;
  if (served > max) {
    stopped.add(operation);
    abandonTurns(operation);
    throw new RecordsLimitExceeded(max);
  }
}

/** Whether a field sits inside an item of a list (its path has an index above it). */
function insideList(path: GraphQLResolveInfo['path']): boolean {
  for (let step = path.prev; step; step = step.prev) if (typeof step.key === 'number') return true;
  return false;
}

/**
 * Wraps the resolver of every field answering a list of records (introspection aside): a list outside
 * any list item (an account's pods, the GPU catalog, …) is resolved in a turn of its own, so aliased
 * listings are built one per turn; its records are counted against the records limit, and a long list
 * is completed in turns (inTurns). A stopped operation's waiting listings fail without being built.
 */
export function splitLongLists(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const listType = getNullableType(field.type);
      if (!isListType(listType) || !isObjectType(getNamedType(listType))) continue;
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      const counted = (value: unknown, core: MockCore, operation: OperationDefinitionNode) => {
        if (Array.isArray(value)) countRecords(core, operation, value.length);
        return inTurns(value, operation, core.options.limits.graphqlRecords);
      };
      const run = (source: unknown, args: Record<string, unknown>, core: MockCore, info: GraphQLResolveInfo) => {
        const value = resolve(source, args, core, info);
        return value instanceof Promise ? value.then((v) => counted(v, core, info.operation)) : counted(value, core, info.operation);
      };
      field.resolve = (source, args, context, info) => {
        const core = context as MockCore;
        if (insideList(info.path)) return run(source, args, core, info);
        return nextTurn(info.operation).then(() => {
          if (stopped.has(info.operation)) throw new RecordsLimitExceeded(core.options.limits.graphqlRecords);
          return run(source, args, core, info);
        });
      };
    }
  }
  return schema;
}

/** Records the operations of `document` listed (0 when none ran). */
function recordsOf(document: DocumentNode): number {
  let total = 0;
  for (const definition of document.definitions) if (definition.kind === Kind.OPERATION_DEFINITION) total += recordsServed.get(definition) ?? 0;
  return total;
}

/**
 * Sends a GraphQL answer: small ones at once; one that listed more than LIST_CHUNK records is
 * serialised a slice per turn (chunked transfer, turns.ts), as it was completed.
 */
export async function sendAnswer(res: ServerResponse, document: DocumentNode, answer: unknown): Promise<void> {
  if (recordsOf(document) <= LIST_CHUNK) return sendJson(res, 200, answer);
  // The document owns the turns, as its resolvers' slices do.
  return sendJsonInTurns(res, 200, answer, {}, document);
}
