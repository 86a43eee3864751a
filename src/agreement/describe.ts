// A request as a failure report prints it: method, path, query and body, with every secret value
// (x-secret / writeOnly fields, the suite's own secrets) replaced, and long bodies cut.
import type { RequestCase } from './requests.js';
import type { Schema } from './schema.js';

const BODY_CHARS = 600;

export function describeRequest(c: RequestCase, endpointId: string | undefined, secrets: readonly string[]): string {
  const path = c.op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(c.path[name] ?? ''));
  const base = c.op.surface === 'restV1' ? '/v1' : c.op.surface === 'queueV2' ? `/v2/${endpointId ?? '{endpointId}'}` : '/graphql';
  const query = Object.entries(c.query).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('&');
  let body = '';
  if (c.bodyMode === 'json') body = ` ${c.op.surface === 'graphql' ? `${c.op.graphql!.operationName} variables=` : 'body='}${JSON.stringify(c.body)}`;
  else if (c.bodyMode === 'raw') body = ` raw body=${JSON.stringify(c.rawBody)}`;
  else if (c.bodyMode === 'empty') body = ' (empty body)';
  let text = `${c.op.method} ${base}${path}${query ? `?${query}` : ''}${body}`;
  for (const secret of secrets) if (secret.length >= 3) text = text.split(secret).join('[secret]');
  return text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS - 3)}...` : text;
}

/** String values the request sends in x-secret or writeOnly fields. */
export function secretValues(c: RequestCase): string[] {
  if (!c.op.body || c.body === undefined) return [];
  const found: string[] = [];
  const walk = (node: unknown, raw: Schema | undefined): void => {
    if (!raw || node === null || node === undefined) return;
    const schema = c.op.resolve(raw);
    if (typeof node === 'string') {
      if (schema['x-secret'] || schema.writeOnly) found.push(node);
      return;
    }
    if (Array.isArray(node)) return node.forEach((item) => walk(item, schema.items));
    if (typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
        walk(value, schema.properties?.[key] ?? extra);
      }
    }
  };
  walk(c.body, c.op.body.schema);
  return found;
}
