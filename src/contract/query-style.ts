// How list-valued query parameters travel, decided once from the spec's `style`/`explode`
// (generated/query-styles.ts) for every surface and every side: clients, mock, conformance, proxy
// and the agreement phase all serialise and parse through here.
//  - form, explode true (REST v1, the OpenAPI default): one key per item, `gpuTypeId=a&gpuTypeId=b`;
//  - form, explode false (REST v2 catalogue): one key, items joined by a literal comma,
//    `product=POD,SERVERLESS`; a comma inside an item is percent-encoded, so it never splits;
//  - spaceDelimited / pipeDelimited: the same with `%20` / `|`.
// An empty list is the parameter left out (RFC 6570: an empty list is undefined): serialised, it is not
// sent; parsed, a non-exploded key with an empty value (`include=`) counts as not sent.
// Parsing is lenient in one direction only: a non-exploded parameter sent as repeated keys is
// read as the concatenation of the lists (what generic clients such as openapi-fetch's defaults send).
// The serialising half (style/explode → wire) is src/contract/query-style-serialize.ts, kept apart so a client
// bundle holds only it and its own surface's table; this module adds the parser and the lookup over
// every surface's table.
import { queryStyles } from '../../generated/query-styles.js';
import { NO_QUERY_STYLES, operationQueryStyles, type QueryStyle, type QueryStyles } from './query-style-serialize.js';

export { querySuffix, serializeQuery, type QueryStyle, type QueryStyles } from './query-style-serialize.js';
export type StyledSurface = keyof typeof queryStyles;

const NONE = NO_QUERY_STYLES;
/** What a delimiter may look like on the wire once a client or proxy has (re-)encoded it. */
const DELIMITER_ON_WIRE: Record<QueryStyle['style'], RegExp> = { form: /,/, spaceDelimited: /%20|\+/i, pipeDelimited: /\||%7C/i };

/** The list-valued query parameters of one operation (empty when it has none). */
export function queryStylesOf(surface: string, operationId: string): QueryStyles {
  const bySurface = Object.hasOwn(queryStyles, surface) ? (queryStyles as Record<string, Record<string, QueryStyles>>)[surface] : undefined;
  return operationQueryStyles(bySurface, operationId);
}

/**
 * Reads a query string (with or without `?`). A parameter with a declared list style is always a list
 * (split on its delimiter when not exploded); another key is a string, or a list when it repeats or
 * ends in `[]` (PHP-style, which some clients send).
 */
export function parseQuery(search: string, styles: QueryStyles = NONE): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  const raw = search.startsWith('?') ? search.slice(1) : search;
  if (!raw) return query;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    const bracketed = key.endsWith('[]');
    const name = bracketed ? key.slice(0, -2) : key;
    const style = Object.hasOwn(styles, name) ? styles[name] : undefined;
    const existing = Object.hasOwn(query, name) ? query[name] : undefined;
    if (style) {
      // Not exploded, an empty value is the empty list (`include=`, as OpenAPI serialises []): no items,
      // and a parameter with no items at all is left out, as serializeQuery leaves an empty list out.
      const items = style.explode ? [decode(rawValue)] : rawValue === '' ? [] : rawValue.split(DELIMITER_ON_WIRE[style.style]).map(decode);
      if (items.length === 0 && existing === undefined) continue;
      query[name] = [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), ...items];
      continue;
    }
    const value = decode(rawValue);
    if (existing === undefined) query[name] = bracketed ? [value] : value;
    else query[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

/** application/x-www-form-urlencoded decoding (`+` is a space), tolerant of a stray `%`. */
function decode(part: string): string {
  const spaced = part.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
