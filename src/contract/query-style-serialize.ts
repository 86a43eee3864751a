// The serialising half of src/contract/query-style.ts, the one place that decides from the spec's
// `style`/`explode` how a list-valued query parameter travels (the rules are listed there). It imports
// no table: a client passes its own surface's (generated/query-styles.ts), so a bundle carries neither
// the other surfaces' tables nor the parser the mock and the proxy use.

export interface QueryStyle {
  style: 'form' | 'spaceDelimited' | 'pipeDelimited';
  explode: boolean;
}

export type QueryStyles = Readonly<Record<string, QueryStyle>>;

export const NO_QUERY_STYLES: QueryStyles = Object.freeze({});
const DELIMITER: Record<QueryStyle['style'], string> = { form: ',', spaceDelimited: '%20', pipeDelimited: '|' };

/** The list-valued query parameters of one operation in one surface's table (empty when it has none). */
export function operationQueryStyles(table: Readonly<Record<string, QueryStyles>> | undefined, operationId: string): QueryStyles {
  return (table && Object.hasOwn(table, operationId) ? table[operationId] : undefined) ?? NO_QUERY_STYLES;
}

/**
 * A query string (without `?`) for the given values. undefined and null are left out, as are empty
 * lists (RFC 6570: an empty list is undefined). Scalars are their String(); non-string items of a
 * list too. A list given for a parameter without a declared style goes out exploded (one key each).
 */
export function serializeQuery(query: Readonly<Record<string, unknown>> | undefined, styles: QueryStyles = NO_QUERY_STYLES): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    const key = encodeURIComponent(name);
    if (!Array.isArray(value)) {
      pairs.push(`${key}=${encodeURIComponent(text(value))}`);
      continue;
    }
    if (value.length === 0) continue;
    const style = Object.hasOwn(styles, name) ? styles[name] : undefined;
    if (!style || style.explode) {
      for (const item of value) pairs.push(`${key}=${encodeURIComponent(text(item))}`);
    } else {
      pairs.push(`${key}=${value.map((item) => encodeURIComponent(text(item))).join(DELIMITER[style.style])}`);
    }
  }
  return pairs.join('&');
}

/** `?` + serializeQuery, or '' when nothing is sent. */
export function querySuffix(query: Readonly<Record<string, unknown>> | undefined, styles: QueryStyles = NO_QUERY_STYLES): string {
  const text = serializeQuery(query, styles);
  return text ? `?${text}` : '';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}
