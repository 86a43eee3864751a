// The query parameters whose value is a list, with their OpenAPI `style`/`explode`, per surface and
// operation: the one table src/query-style.ts reads to serialise and parse them (clients, mock,
// conformance, proxy, agreement). Scalars are absent: they travel the same way in every style.
import { listOperations, resolveLocal, type OpenApiDocument, type SurfaceName } from './specs.js';

type Style = { style: string; explode: boolean };

const LIST_STYLES = new Set(['form', 'spaceDelimited', 'pipeDelimited']);

export function queryStylesOf(doc: OpenApiDocument): Record<string, Record<string, Style>> {
  const out: Record<string, Record<string, Style>> = {};
  for (const { path, op } of listOperations(doc)) {
    const item = doc.paths[path] as { parameters?: unknown[] };
    for (const raw of [...(item.parameters ?? []), ...((op.parameters as unknown[] | undefined) ?? [])]) {
      const p = resolveLocal<{ name: string; in: string; style?: string; explode?: boolean; schema?: unknown }>(doc, raw);
      if (p.in !== 'query') continue;
      const schema = resolveLocal<{ type?: unknown }>(doc, p.schema ?? {});
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.includes('array') && !types.includes('object')) continue;
      const style = p.style ?? 'form';
      if (!LIST_STYLES.has(style) || types.includes('object')) {
        throw new Error(`${String(op.operationId)}: query parameter ${p.name} uses style ${style} for ${types.join('|')}, which src/query-style.ts does not serialise`);
      }
      // OpenAPI: explode defaults to true for form, false for the delimited styles.
      const explode = p.explode ?? style === 'form';
      (out[String(op.operationId)] ??= {})[p.name] = { style, explode };
    }
  }
  return out;
}

export function queryStylesModule(bySurface: Record<SurfaceName, Record<string, Record<string, Style>>>): string {
  return [
    `/** List-valued query parameters: surface → operationId → parameter → OpenAPI style/explode. */`,
    `export const queryStyles = ${JSON.stringify(bySurface, null, 2)} as const;`,
    '',
  ].join('\n');
}
