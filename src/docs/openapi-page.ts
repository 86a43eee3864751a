// One page per bundled OpenAPI spec (generated/<key>/openapi.json): introduction, servers, security,
// root extensions, a contents list by tag, every operation, the webhooks and every component schema.
import { HTTP_METHODS, type CrossLinks, type OperationEntry } from './cross-links.js';
import { escapeHtml, operationAnchor, ruleAnchor } from './html.js';
import { renderDescription, renderInline } from './markdown.js';
import { operationView, responseBody, sharedResponseAnchor, type OperationContext } from './operation-view.js';
import { SchemaView, schemaAnchor, type Schema } from './schema-view.js';
import type { PageOutput, SearchEntry } from './search-index.js';
import type { OpenApiSpec } from './sources.js';
import { tryItHeader, type TryItConfig } from './try-it.js';

interface Located {
  entry: OperationEntry;
  method: string;
  path: string;
  op: Record<string, unknown>;
  pathItem: Record<string, unknown>;
}

export function openApiPage(spec: OpenApiSpec, links: CrossLinks, tryIt?: TryItConfig): PageOutput {
  const { doc } = spec;
  const view = new SchemaView(doc);
  const withPanels = tryIt?.bases[spec.key] !== undefined;
  const ctx: OperationContext = { doc, pagePath: spec.page, view, links, tryIt: withPanels ? spec.key : undefined };
  const entries: SearchEntry[] = [{ t: `${spec.label} reference`, u: spec.page, k: 'page', d: doc.info?.title }];
  const byTag = groupByTag(spec, links);

  const contents = [...byTag.entries()].map(([tag, ops]) =>
    `<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a><ul>${ops.map((o) =>
      `<li><a href="#${escapeHtml(operationAnchor(o.entry.operationId))}"><span class="method method-${o.method}">${o.method.toUpperCase()}</span> <code>${escapeHtml(o.path)}</code></a> ${escapeHtml(o.entry.summary)}</li>`).join('')}</ul></li>`,
  );
  const sections = [...byTag.entries()].map(([tag, ops]) => {
    const tagInfo = ((doc.tags ?? []) as Schema[]).find((t) => t.name === tag);
    for (const o of ops) entries.push({ t: `${o.entry.operationId} — ${o.entry.signature}`, u: `${spec.page}#${o.entry.anchor}`, k: `${spec.label} operation`, d: o.entry.summary });
    return `<section class="tag" id="tag-${escapeHtml(tag)}"><h2>${escapeHtml(tag)}</h2>${renderDescription(tagInfo?.description as string | undefined)}` +
      ops.map((o) => operationView(o.entry, o.method, o.path, o.op, o.pathItem, ctx)).join('\n') + '</section>';
  });

  const webhooks = Object.entries((doc.webhooks ?? {}) as Record<string, Record<string, unknown>>).flatMap(([name, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((method) => {
      const op = item[method] as Record<string, unknown>;
      const id = typeof op.operationId === 'string' ? op.operationId : `webhook-${name}`;
      const entry: OperationEntry = { specKey: spec.key, specLabel: spec.label, page: spec.page, anchor: operationAnchor(id), operationId: id, signature: `webhook ${name}`, summary: String(op.summary ?? '') };
      entries.push({ t: `webhook ${name}`, u: `${spec.page}#${entry.anchor}`, k: `${spec.label} webhook`, d: entry.summary });
      return operationView(entry, method, name, op, item, { ...ctx, tryIt: undefined });
    }),
  );

  const schemas = Object.entries((doc.components?.schemas ?? {}) as Record<string, Schema>).map(([name, schema]) => {
    entries.push({ t: name, u: `${spec.page}#${schemaAnchor(name)}`, k: `${spec.label} schema`, d: typeof schema.description === 'string' ? schema.description : undefined });
    const ruleIds = (schema['x-rule-ids'] as string[] | undefined) ?? [];
    const rules = ruleIds.length ? `<p class="rules">Rules: ${ruleIds.map((id) => `<a class="rule-id" href="rules.html#${escapeHtml(ruleAnchor(id))}">${escapeHtml(id)}</a>`).join(' ')}</p>` : '';
    return `<section class="schema" id="${escapeHtml(schemaAnchor(name))}"><h3>${escapeHtml(name)} <small>${view.typeLabel({ ...schema, $ref: undefined })}</small>${view.source(schema)}</h3>${rules}${view.block(schema)}</section>`;
  });

  const shared = Object.entries((doc.components?.responses ?? {}) as Record<string, Schema>).map(([name, response]) =>
    `<section class="shared-response" id="${escapeHtml(sharedResponseAnchor(name))}"><h3>${escapeHtml(name)}</h3>${responseBody(response, ctx)}</section>`);

  const body = `<h1>${escapeHtml(spec.label)} <small>${escapeHtml(spec.blurb)}</small></h1>
<p class="meta">${escapeHtml(doc.info?.title ?? '')} · version <code>${escapeHtml(doc.info?.version ?? '?')}</code> · OpenAPI <code>${escapeHtml(String(doc.openapi ?? '?'))}</code> · ${links.operations.get(spec.key)?.size ?? 0} operations</p>
${renderDescription(doc.info?.description)}
${servers(doc)}
${security(doc, view)}
${rootExtensions(doc)}
${withPanels && tryIt ? tryItHeader(tryIt, spec.key) : ''}
<nav class="contents" aria-label="Operations"><h2>Operations</h2><ul>${contents.join('')}</ul></nav>
${sections.join('\n')}
${webhooks.length ? `<section id="webhooks"><h2>Webhooks</h2>${webhooks.join('\n')}</section>` : ''}
${shared.length ? `<section id="responses"><h2>Shared responses</h2>${shared.join('\n')}</section>` : ''}
${schemas.length ? `<section id="schemas"><h2>Schemas</h2>${schemas.join('\n')}</section>` : ''}`;
  return { path: spec.page, title: `${spec.label} reference`, body, entries };
}

function groupByTag(spec: OpenApiSpec, links: CrossLinks): Map<string, Located[]> {
  const byTag = new Map<string, Located[]>();
  for (const tag of (spec.doc.tags ?? []) as Schema[]) if (typeof tag.name === 'string') byTag.set(tag.name, []);
  const ops = links.operations.get(spec.key);
  for (const [path, pathItem] of Object.entries(spec.doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = pathItem[method] as Record<string, unknown> | undefined;
      const entry = op && typeof op.operationId === 'string' ? ops?.get(op.operationId) : undefined;
      if (!op || !entry) continue;
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'other';
      const list = byTag.get(tag) ?? [];
      list.push({ entry, method, path, op, pathItem });
      byTag.set(tag, list);
    }
  }
  for (const [tag, list] of byTag) if (list.length === 0) byTag.delete(tag);
  return byTag;
}

function servers(doc: Record<string, unknown>): string {
  const list = (doc.servers ?? []) as Schema[];
  if (list.length === 0) return '';
  const items = list.map((s) => {
    const vars = Object.entries((s.variables ?? {}) as Record<string, Schema>).map(([name, v]) =>
      `<li><code>{${escapeHtml(name)}}</code> default <code>${escapeHtml(String(v.default ?? ''))}</code>${v.description ? ` — ${renderInline(String(v.description))}` : ''}</li>`);
    return `<li><code>${escapeHtml(String(s.url))}</code>${renderDescription(s.description as string | undefined)}${vars.length ? `<ul>${vars.join('')}</ul>` : ''}</li>`;
  });
  return `<h2 id="servers">Servers</h2><ul class="servers">${items.join('')}</ul>`;
}

function security(doc: Record<string, unknown>, view: SchemaView): string {
  const schemes = ((doc.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<string, Schema>;
  const items = Object.entries(schemes).map(([name, s]) =>
    `<li><strong>${escapeHtml(name)}</strong>: <code>${escapeHtml(String(s.type))}</code>${s.scheme ? ` <code>${escapeHtml(String(s.scheme))}</code>` : ''}${s.in ? ` in <code>${escapeHtml(String(s.in))}</code> <code>${escapeHtml(String(s.name))}</code>` : ''}${view.source(s)}${renderDescription(s.description as string | undefined)}</li>`);
  return items.length ? `<h2 id="security">Authentication</h2><ul>${items.join('')}</ul>` : '';
}

function rootExtensions(doc: Record<string, unknown>): string {
  const items = Object.entries(doc)
    .filter(([key]) => key.startsWith('x-') && key !== 'x-generated')
    .map(([key, value]) => `<dt><code>${escapeHtml(key)}</code></dt><dd><pre class="json"><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre></dd>`);
  return items.length ? `<h2 id="extensions">Service-wide extensions</h2><dl class="op-facts">${items.join('')}</dl>` : '';
}
