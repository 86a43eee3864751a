// One OpenAPI operation as HTML: method and path, summary, description, every `x-` extension (rate
// limit, provenance, limits…), the rules that govern it (linked), parameters, request body, responses
// with headers, schemas and examples, and, on the mock-served site, a try-it panel.
import type { CrossLinks, OperationEntry } from './cross-links.js';
import { escapeHtml, jsonBlock, operationAnchor, ruleAnchor } from './html.js';
import { renderDescription, renderInline } from './markdown.js';
import { deref, SchemaView, type Schema } from './schema-view.js';
import { relativeHref } from './shell.js';
import { tryItPanel, type TryItParameter } from './try-it.js';

export interface OperationContext {
  doc: Record<string, unknown>;
  pagePath: string;
  view: SchemaView;
  links: CrossLinks;
  /** Set on the mock-served site: the spec key the try-it panel sends to. */
  tryIt?: string;
}

/** Extensions with their own rendering; every other `x-` key is listed as it is. */
const SHOWN_APART = new Set(['x-source', 'x-source-note', 'x-rule-ids', 'x-rate-limit', 'x-required-scope', 'x-synonym-of']);

export function operationView(entry: OperationEntry, method: string, path: string, op: Record<string, unknown>, pathItem: Record<string, unknown>, ctx: OperationContext): string {
  const parameters = mergeParameters(ctx.doc, pathItem.parameters, op.parameters);
  const body = op.requestBody ? deref(ctx.doc, op.requestBody) : undefined;
  return `<section class="operation" id="${escapeHtml(operationAnchor(entry.operationId))}" data-operation="${escapeHtml(entry.operationId)}">
<h3><span class="method method-${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code> <a class="opid" href="#${escapeHtml(operationAnchor(entry.operationId))}">${escapeHtml(entry.operationId)}</a></h3>
<p class="summary">${escapeHtml(String(op.summary ?? ''))}${op.deprecated === true ? ' <span class="badge">deprecated</span>' : ''}</p>
${renderDescription(op.description as string | undefined)}
${factsList(op, ctx)}
${rulesLine(entry, ctx)}
${parametersTable(parameters, ctx.view)}
${body ? requestBody(body, ctx.view) : ''}
${responses(op.responses as Record<string, unknown> | undefined, ctx)}
${ctx.tryIt ? tryItPanel({ spec: ctx.tryIt, operationId: entry.operationId, method, path, parameters: parameters.map(toTryItParameter), body: exampleBody(body, ctx.doc) }) : ''}
</section>`;
}

function factsList(op: Record<string, unknown>, ctx: OperationContext): string {
  const items: string[] = [];
  const rate = op['x-rate-limit'] as Record<string, unknown> | undefined;
  if (rate) {
    const concurrent = rate.concurrent === null || rate.concurrent === undefined ? 'no concurrent limit stated' : `${String(rate.concurrent)} concurrent`;
    items.push(`<dt>Rate limit <code>x-rate-limit</code></dt><dd>${escapeHtml(String(rate.requestsPer10s))} requests per 10 s, ${escapeHtml(concurrent)}${ctx.view.source(rate)}</dd>`);
  }
  if (typeof op['x-required-scope'] === 'string') items.push(`<dt>Key scope <code>x-required-scope</code></dt><dd><code>${escapeHtml(op['x-required-scope'])}</code></dd>`);
  if (typeof op['x-synonym-of'] === 'string') {
    const target = op['x-synonym-of'];
    items.push(`<dt>Synonym of <code>x-synonym-of</code></dt><dd><a href="#${escapeHtml(operationAnchor(target))}">${escapeHtml(target)}</a></dd>`);
  }
  if (typeof op['x-source'] === 'string') {
    const note = typeof op['x-source-note'] === 'string' ? ` — ${renderInline(op['x-source-note'])}` : '';
    items.push(`<dt>Source <code>x-source</code></dt><dd><span class="source source-${escapeHtml(op['x-source'])}">${escapeHtml(op['x-source'])}</span>${note}</dd>`);
  }
  for (const [key, value] of Object.entries(op)) {
    if (!key.startsWith('x-') || SHOWN_APART.has(key)) continue;
    items.push(`<dt><code>${escapeHtml(key)}</code></dt><dd>${extensionValue(value)}</dd>`);
  }
  return items.length > 0 ? `<dl class="op-facts">${items.join('')}</dl>` : '';
}

function extensionValue(value: unknown): string {
  if (value !== null && typeof value === 'object') return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
  return `<code>${escapeHtml(String(value))}</code>`;
}

function rulesLine(entry: OperationEntry, ctx: OperationContext): string {
  const ids = ctx.links.rulesOf(entry);
  if (ids.length === 0) return '';
  const links = ids.map((id) =>
    ctx.links.isKnownRule(id)
      ? `<a class="rule-id" href="${escapeHtml(relativeHref(ctx.pagePath, `rules.html#${ruleAnchor(id)}`))}">${escapeHtml(id)}</a>`
      : `<span class="rule-id unknown" title="not in specs/rules.yaml">${escapeHtml(id)}</span>`,
  );
  return `<p class="rules">Rules: ${links.join(' ')}</p>`;
}

type Parameter = Schema & { name: string; in: string };

function mergeParameters(doc: Record<string, unknown>, shared: unknown, own: unknown): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const list of [shared, own]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const param = deref(doc, raw) as Parameter;
      if (typeof param.name === 'string') byKey.set(`${param.in}:${param.name}`, param);
    }
  }
  return [...byKey.values()];
}

function parametersTable(parameters: Parameter[], view: SchemaView): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map((p) => {
    const schema = (p.schema ?? {}) as Schema;
    const facts = view.facts(schema);
    if (p.example !== undefined) facts.push(`example <code>${escapeHtml(JSON.stringify(p.example))}</code>`);
    return `<tr><td class="field-name"><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="required">required</span>' : ''}</td><td>${escapeHtml(p.in)}</td>` +
      `<td>${view.typeLabel(schema)}</td><td>${renderDescription(p.description as string | undefined)}${facts.length ? `<p class="facts">${facts.join(' · ')}</p>` : ''}${view.source(p)}</td></tr>`;
  });
  return `<h4>Parameters</h4><table class="fields"><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function requestBody(body: Schema, view: SchemaView): string {
  const content = (body.content ?? {}) as Record<string, Schema>;
  const parts = Object.entries(content).map(([mediaType, media]) =>
    `<p>Content type <code>${escapeHtml(mediaType)}</code>: ${view.typeLabel(media.schema as Schema | undefined)}</p>${view.expanded(media.schema as Schema | undefined)}${examples(media)}`,
  );
  return `<h4>Request body${body.required === true ? ' <span class="required">required</span>' : ''}</h4>${renderDescription(body.description as string | undefined)}${view.source(body)}${parts.join('')}`;
}

const SHARED_RESPONSE = '#/components/responses/';
export const sharedResponseAnchor = (name: string) => `response-${name}`;

/**
 * Responses by status. A shared response (`$ref` into components/responses) is one line linking to the
 * page's "Shared responses" section, where it is written out once: the error answers repeat on every
 * operation and would otherwise make up most of the page.
 */
function responses(all: Record<string, unknown> | undefined, ctx: OperationContext): string {
  if (!all) return '';
  const blocks = Object.entries(all).map(([status, raw]) => {
    const response = deref(ctx.doc, raw);
    const badge = `<span class="status status-${escapeHtml(status[0] ?? 'x')}xx">${escapeHtml(status)}</span> ${escapeHtml(firstLine(response.description))}`;
    const ref = (raw as Schema | undefined)?.$ref;
    if (typeof ref === 'string' && ref.startsWith(SHARED_RESPONSE)) {
      const name = decodeURIComponent(ref.slice(SHARED_RESPONSE.length));
      return `<p class="response shared">${badge} — <a href="#${escapeHtml(sharedResponseAnchor(name))}">${escapeHtml(name)}</a></p>`;
    }
    return `<details class="response"${status.startsWith('2') ? ' open' : ''}><summary>${badge}</summary>${responseBody(response, ctx)}</details>`;
  });
  return `<h4>Responses</h4>${blocks.join('')}`;
}

/** Description, provenance, headers and content of one response. */
export function responseBody(response: Schema, ctx: Pick<OperationContext, 'doc' | 'view'>): string {
  const headers = Object.entries((response.headers ?? {}) as Record<string, unknown>).map(([name, h]) => {
    const header = deref(ctx.doc, h);
    return `<tr><td><code>${escapeHtml(name)}</code>${header.required === true ? ' <span class="required">required</span>' : ''}</td><td>${ctx.view.typeLabel(header.schema as Schema | undefined)}</td><td>${renderDescription(header.description as string | undefined)}</td></tr>`;
  });
  const content = Object.entries((response.content ?? {}) as Record<string, Schema>).map(([mediaType, media]) =>
    `<p>Content type <code>${escapeHtml(mediaType)}</code>: ${ctx.view.typeLabel(media.schema as Schema | undefined)}</p>${ctx.view.expanded(media.schema as Schema | undefined)}${examples(media)}`,
  );
  return `${renderDescription(response.description as string | undefined)}${ctx.view.source(response)}` +
    `${headers.length ? `<table class="fields"><thead><tr><th>Header</th><th>Type</th><th>Description</th></tr></thead><tbody>${headers.join('')}</tbody></table>` : ''}${content.join('')}`;
}

function firstLine(text: unknown): string {
  return typeof text === 'string' ? (text.split('\n')[0] ?? '') : '';
}

function examples(media: Schema): string {
  const out: string[] = [];
  if (media.example !== undefined) out.push(`<p class="example-title">Example</p>${jsonBlock(media.example)}`);
  for (const [name, ex] of Object.entries((media.examples ?? {}) as Record<string, Schema>)) {
    const title = typeof ex.summary === 'string' ? ex.summary : name;
    out.push(`<p class="example-title">Example: ${escapeHtml(title)}</p>${jsonBlock(ex.value)}`);
  }
  return out.join('');
}

/** The first example of a JSON request body, to prefill the try-it panel. */
function exampleBody(body: Schema | undefined, doc: Record<string, unknown>): unknown {
  const media = (body?.content as Record<string, Schema> | undefined)?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values((media.examples ?? {}) as Record<string, Schema>)[0];
  if (first && first.value !== undefined) return first.value;
  const schema = deref(doc, media.schema);
  return schema.example ?? {};
}

function toTryItParameter(p: Parameter): TryItParameter {
  const schema = (p.schema ?? {}) as Schema;
  const example = p.example ?? schema.example ?? schema.default;
  return { name: p.name, in: p.in, required: p.required === true, example: example === undefined ? undefined : String(example) };
}
