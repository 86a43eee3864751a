// The query parameters whose value is a list, with their OpenAPI `style`/`explode`, per surface and
// operation: the one table src/contract/query-style.ts reads to serialise and parse them (clients, mock,
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
        throw new Error(`${String(op.operationId)}: query parameter ${p.name} uses style ${style} for ${types.join('|')}, which src/contract/query-style.ts does not serialise`);
      }
      // OpenAPI: explode defaults to true for form, false for the delimited styles.
      const explode = p.explode ?? style === 'form';
      (out[String(op.operationId)] ??= {})[p.name] = { style, explode };
    }
  }
  return out;
}

/** Name of the shared constant for one style, e.g. `formNotExploded`. */
const styleConstant = ({ style, explode }: Style) => `${style}${explode ? 'Exploded' : 'NotExploded'}`;

/**
 * One table per surface, then the table of every surface built from them: a client imports only its
 * own surface's table, so a bundler leaves the others out (src/contract/query-style-serialize.ts). Each distinct
 * style is one shared constant, which keeps the tables small in a bundle.
 */
export function queryStylesModule(bySurface: Record<SurfaceName, Record<string, Record<string, Style>>>): string {
  const surfaces = Object.keys(bySurface) as SurfaceName[];
  const styles = new Map<string, Style>();
  for (const operations of Object.values(bySurface)) {
    for (const params of Object.values(operations)) for (const style of Object.values(params)) styles.set(styleConstant(style), style);
  }
  const table = (operations: Record<string, Record<string, Style>>) => {
    const lines = Object.entries(operations).map(
      ([operationId, params]) =>
        `  ${JSON.stringify(operationId)}: { ${Object.entries(params).map(([name, style]) => `${JSON.stringify(name)}: ${styleConstant(style)}`).join(', ')} },`,
    );
    return lines.length > 0 ? `{\n${lines.join('\n')}\n}` : '{}';
  };
  return [
    ...[...styles].sort(([a], [b]) => a.localeCompare(b)).map(([name, style]) => `const ${name} = ${JSON.stringify(style)} as const;`),
    '',
    ...surfaces.flatMap((surface) => [
      `/** List-valued query parameters of ${surface}: operationId → parameter → OpenAPI style/explode. */`,
      `export const ${surface}QueryStyles = ${table(bySurface[surface])} as const;`,
      '',
    ]),
    `/** List-valued query parameters: surface → operationId → parameter → OpenAPI style/explode. */`,
    `export const queryStyles = { ${surfaces.map((surface) => `${surface}: ${surface}QueryStyles`).join(', ')} } as const;`,
    '',
  ].join('\n');
}
