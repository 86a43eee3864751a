// Validation errors by document text: validation depends on the schema and the text alone, and clients send
// the same few documents again and again (graphql-js validation was ~6% of a conformance run's CPU).
import { validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { RecentMemo } from '../../contract/recent-memo.js';

/** The most recently used documents remembered per schema. */
export const VALIDATED_MAX = 256;
/** Longer documents are validated every time (a memo of them would hold too much). */
export const VALIDATED_SOURCE_MAX_CHARS = 8 * 1024;

const memos = new WeakMap<GraphQLSchema, RecentMemo<string, readonly { message: string }[]>>();

/**
 * The messages graphql-js's validate gives for `document` (parsed from `source`), from the memo when the same
 * text was validated recently. Messages are kept as validate wrote them; the caller redacts per request.
 */
export function validationErrors(schema: GraphQLSchema, source: string, document: DocumentNode): readonly { message: string }[] {
  if (source.length > VALIDATED_SOURCE_MAX_CHARS) return validate(schema, document);
  let memo = memos.get(schema);
  if (!memo) memos.set(schema, (memo = new RecentMemo(VALIDATED_MAX)));
  return memo.get(source, () => validate(schema, document).map((e) => ({ message: e.message })));
}

/** How many documents the memo of `schema` holds (tests). */
export const validationMemoSize = (schema: GraphQLSchema): number => memos.get(schema)?.size ?? 0;
