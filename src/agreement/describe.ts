// A request as a failure report prints it: method, path, query and body, with every secret value
// (x-secret / writeOnly fields, whatever their length, and the run's own fixture secrets) replaced,
// and long bodies cut.
import { serializeQuery } from '../contract/query-style.js';
import type { RequestCase } from './requests.js';
import type { Schema } from './schema.js';

const BODY_CHARS = 600;
const REDACTED = '[secret]';

export function describeRequest(c: RequestCase, endpointId: string | undefined, secrets: readonly string[]): string {
  const path = c.op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(c.path[name] ?? ''));
  const base = c.op.surface === 'restV1' ? '/v1' : c.op.surface === 'restV2' ? '/v2' : c.op.surface === 'queueV2' ? `/v2/${endpointId ?? '{endpointId}'}` : '/graphql';
  // The query as sent (lists as the spec declares them: REST v2 `product=POD,SERVERLESS`).
  const query = decodeURIComponent(serializeQuery(c.query, c.op.queryStyles));
  let body = '';
  if (c.bodyMode === 'json') body = ` ${c.op.surface === 'graphql' ? `${c.op.graphql!.operationName} variables=` : 'body='}${JSON.stringify(redactSecrets(c))}`;
  // The raw text may carry secrets: print the body it was cut from, redacted.
  else if (c.bodyMode === 'raw') body = ` malformed JSON (${c.rawBody?.length ?? 0} chars: the JSON of ${c.op.surface === 'graphql' ? 'the GraphQL request with variables' : 'body'}=${JSON.stringify(redactSecrets(c)) ?? '{}'} cut by its last character)`;
  else if (c.bodyMode === 'empty') body = ' (empty body)';
  let text = `${c.op.method} ${base}${path}${query ? `?${query}` : ''}${body}`;
  for (const secret of secrets) if (secret.length >= 8) text = text.split(secret).join(REDACTED);
  return text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS - 3)}...` : text;
}

/** String values the request sends in x-secret or writeOnly fields. */
export function secretValues(c: RequestCase): string[] {
  const found: string[] = [];
  mapSecrets(c, (value) => {
    found.push(value);
    return value;
  });
  return found;
}

/** The body with every x-secret / writeOnly string replaced. */
function redactSecrets(c: RequestCase): unknown {
  return mapSecrets(c, () => REDACTED);
}

function mapSecrets(c: RequestCase, replace: (value: string) => string): unknown {
  if (!c.op.body || c.body === undefined) return c.body;
  const walk = (node: unknown, raw: Schema | undefined): unknown => {
    if (!raw || node === null || node === undefined) return node;
    const schema = c.op.resolve(raw);
    if (typeof node === 'string') return schema['x-secret'] || schema.writeOnly ? replace(node) : node;
    if (Array.isArray(node)) return node.map((item) => walk(item, schema.items));
    if (typeof node === 'object') {
      const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, schema.properties?.[key] ?? extra)]));
    }
    return node;
  };
  return walk(c.body, c.op.body.schema);
}
