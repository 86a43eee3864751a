// The GraphQL reference, built with graphql-js over specs/graphql/schema.graphql: root operations
// first, then every type with its fields, arguments, input fields and enum values, each with its
// description and provenance (the `x-source:` line of a description), plus the committed operation
// documents (with a try-it panel on the mock-served site).
import {
  buildSchema, GraphQLEnumType, GraphQLInputObjectType, GraphQLInterfaceType, GraphQLObjectType, GraphQLScalarType,
  GraphQLUnionType, getNamedType, isSpecifiedScalarType, type GraphQLArgument, type GraphQLField, type GraphQLInputField,
  type GraphQLNamedType, type GraphQLSchema, type GraphQLType,
} from 'graphql';
import { GRAPHQL_PAGE, graphqlFieldAnchor, graphqlTypeAnchor, type CrossLinks, type GraphqlRootField } from './cross-links.js';
import { escapeHtml, ruleAnchor } from './html.js';
import { GRAPHQL_LIMIT_RULE, limitsFromDescription } from '../contract/graphql-limits.js';
import { renderDescription, renderInline } from './markdown.js';
import type { PageOutput, SearchEntry } from './search-index.js';
import type { TryItConfig } from './try-it.js';

export interface GraphqlDocument {
  /** File name under specs/graphql/operations/. */
  file: string;
  text: string;
}

export function parseSchema(sdl: string): GraphQLSchema {
  return buildSchema(sdl);
}

export function graphqlRootFields(schema: GraphQLSchema): GraphqlRootField[] {
  const roots: [GraphQLObjectType | null | undefined, GraphqlRootField['operationType']][] = [
    [schema.getQueryType(), 'query'], [schema.getMutationType(), 'mutation'], [schema.getSubscriptionType(), 'subscription'],
  ];
  return roots.flatMap(([type, operationType]) =>
    type ? Object.values(type.getFields()).map((f) => ({ rootType: type.name, operationType, name: f.name, description: f.description ?? '' })) : []);
}

/** Splits the trailing `x-source: …` line off a description. */
function splitSource(description: string | null | undefined): { text: string; source?: string; note?: string } {
  const text = description ?? '';
  const match = /\n?x-source:\s*(seed|observed|assumed)\b\s*(?:[—-]\s*)?(.*)$/s.exec(text);
  if (!match) return { text };
  return { text: text.slice(0, match.index).trim(), source: match[1], note: match[2]?.trim() || undefined };
}

function described(description: string | null | undefined): string {
  const { text, source, note } = splitSource(description);
  const badge = source ? `<span class="source source-${source}"${note ? ` title="${escapeHtml(note)}"` : ''}>x-source: ${source}</span>${note ? ` <span class="source-note">${renderInline(note)}</span>` : ''}` : '';
  return `${renderDescription(text)}${badge ? `<p>${badge}</p>` : ''}`;
}

function typeRef(type: GraphQLType): string {
  const named = getNamedType(type);
  const text = String(type);
  const at = text.indexOf(named.name);
  return `<code>${escapeHtml(text.slice(0, at))}<a href="#${graphqlTypeAnchor(named.name)}">${escapeHtml(named.name)}</a>${escapeHtml(text.slice(at + named.name.length))}</code>`;
}

function argsTable(args: readonly (GraphQLArgument | GraphQLInputField)[], head: string): string {
  if (args.length === 0) return '';
  const rows = args.map((a) =>
    `<tr><td class="field-name"><code>${escapeHtml(a.name)}</code></td><td>${typeRef(a.type)}</td><td>${a.defaultValue !== undefined ? `<code>${escapeHtml(JSON.stringify(a.defaultValue))}</code>` : ''}</td><td>${described(a.description)}${a.deprecationReason ? `<p class="badge">deprecated: ${escapeHtml(a.deprecationReason)}</p>` : ''}</td></tr>`);
  return `<table class="fields"><thead><tr><th>${head}</th><th>Type</th><th>Default</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function rulesFor(typeName: string, fieldName: string, links: CrossLinks): string {
  const entry = links.operations.get('graphql')?.get(fieldName);
  if (!entry || entry.anchor !== graphqlFieldAnchor(typeName, fieldName)) return '';
  const ids = links.rulesOf(entry);
  return ids.length ? `<p class="rules">Rules: ${ids.map((id) => `<a class="rule-id" href="rules.html#${escapeHtml(ruleAnchor(id))}">${escapeHtml(id)}</a>`).join(' ')}</p>` : '';
}

function fieldView(type: GraphQLObjectType | GraphQLInterfaceType, field: GraphQLField<unknown, unknown>, links: CrossLinks): string {
  const anchor = graphqlFieldAnchor(type.name, field.name);
  return `<div class="gql-field" id="${escapeHtml(anchor)}"><h4><a href="#${escapeHtml(anchor)}"><code>${escapeHtml(field.name)}</code></a>: ${typeRef(field.type)}${field.deprecationReason ? ' <span class="badge">deprecated</span>' : ''}</h4>` +
    `${described(field.description)}${rulesFor(type.name, field.name, links)}${argsTable(field.args, 'Argument')}</div>`;
}

function kindOf(type: GraphQLNamedType): string {
  if (type instanceof GraphQLObjectType) return 'type';
  if (type instanceof GraphQLInputObjectType) return 'input';
  if (type instanceof GraphQLEnumType) return 'enum';
  if (type instanceof GraphQLInterfaceType) return 'interface';
  if (type instanceof GraphQLUnionType) return 'union';
  return 'scalar';
}

function typeView(type: GraphQLNamedType, links: CrossLinks, entries: SearchEntry[]): string {
  const anchor = graphqlTypeAnchor(type.name);
  const kind = kindOf(type);
  entries.push({ t: type.name, u: `${GRAPHQL_PAGE}#${anchor}`, k: `GraphQL ${kind}`, d: splitSource(type.description).text });
  let inner = '';
  if (type instanceof GraphQLObjectType || type instanceof GraphQLInterfaceType) {
    const interfaces = type.getInterfaces();
    inner = (interfaces.length ? `<p>Implements ${interfaces.map((i) => typeRef(i)).join(', ')}</p>` : '') +
      Object.values(type.getFields()).map((f) => {
        entries.push({ t: `${type.name}.${f.name}`, u: `${GRAPHQL_PAGE}#${graphqlFieldAnchor(type.name, f.name)}`, k: 'GraphQL field', d: splitSource(f.description).text });
        return fieldView(type, f, links);
      }).join('');
  } else if (type instanceof GraphQLInputObjectType) {
    inner = argsTable(Object.values(type.getFields()), 'Input field');
  } else if (type instanceof GraphQLEnumType) {
    inner = `<table class="fields"><thead><tr><th>Value</th><th>Description</th></tr></thead><tbody>${type.getValues().map((v) => `<tr><td><code>${escapeHtml(v.name)}</code></td><td>${described(v.description)}</td></tr>`).join('')}</tbody></table>`;
  } else if (type instanceof GraphQLUnionType) {
    inner = `<p>One of ${type.getTypes().map((t) => typeRef(t)).join(', ')}</p>`;
  } else if (type instanceof GraphQLScalarType && isSpecifiedScalarType(type)) {
    inner = '<p>Built-in scalar of GraphQL.</p>';
  }
  return `<section class="gql-type" id="${escapeHtml(anchor)}"><h3><span class="kind">${kind}</span> <a href="#${escapeHtml(anchor)}">${escapeHtml(type.name)}</a></h3>${described(type.description)}${inner}</section>`;
}

/** An operation document with the fragments it spreads, so it runs on its own. */
function runnable(doc: GraphqlDocument, all: readonly GraphqlDocument[]): string {
  const parts = [doc.text.trim()];
  for (let i = 0; i < parts.length && i < all.length + 1; i++) {
    for (const [, name] of (parts[i] ?? '').matchAll(/\.\.\.\s*([_A-Za-z][_0-9A-Za-z]*)/g)) {
      const fragment = all.find((d) => new RegExp(`fragment\\s+${name}\\b`).test(d.text));
      if (fragment && !parts.includes(fragment.text.trim())) parts.push(fragment.text.trim());
    }
  }
  return parts.join('\n\n');
}

function documentsView(documents: readonly GraphqlDocument[], tryIt: boolean): string {
  const operations = documents.filter((d) => /\b(query|mutation|subscription)\b/.test(d.text.replace(/#.*$/gm, '')));
  const blocks = documents.map((d) => {
    const panel = tryIt && operations.includes(d)
      ? `<details class="try-it" data-spec="graphql" data-method="POST" data-path=""><summary>Try it against this mock</summary><form class="try-it-form">` +
        `<label class="body"><span>Query</span><textarea name="graphql:query" rows="10" spellcheck="false">${escapeHtml(runnable(d, documents))}</textarea></label>` +
        `<label class="body"><span>Variables (JSON)</span><textarea name="graphql:variables" rows="4" spellcheck="false">{}</textarea></label>` +
        `<button type="submit">Send POST</button></form><div class="try-it-result" hidden><p class="try-it-status"></p><pre class="json"><code></code></pre></div></details>`
      : '';
    return `<section class="gql-document" id="doc-${escapeHtml(d.file)}"><h3><code>${escapeHtml(d.file)}</code></h3><pre><code>${escapeHtml(d.text.trim())}</code></pre>${panel}</section>`;
  });
  return `<section id="documents"><h2>Operation documents</h2><p>The committed documents under <code>specs/graphql/operations/</code>; the typed client and the pacts use exactly these.</p>${blocks.join('')}</section>`;
}

/** The operation limits the schema description states (rules GRAPHQL-COST-*), as a table. */
function limitsView(schema: GraphQLSchema): string {
  const limits = limitsFromDescription(schema.description ?? '');
  const rule = (id: string) => `<a class="rule-id" href="rules.html#${escapeHtml(ruleAnchor(id))}">${escapeHtml(id)}</a>`;
  const rows = limits.map((l) => `<tr><td><code>${escapeHtml(l.name)}</code></td><td>${l.max}</td><td>${renderInline(l.what)}</td><td>${rule(GRAPHQL_LIMIT_RULE[l.name])}</td></tr>`).join('');
  return `<section id="limits"><h2>Operation limits</h2><p>Every document is measured before it runs; one over a limit is refused with HTTP 200, no data and one <code>errors[]</code> entry naming the limit, its maximum and the measured value (rules GRAPHQL-COST-001 to GRAPHQL-COST-008; the numbers are assumed, RunPod publishes none).</p>` +
    `<table><thead><tr><th>Limit</th><th>At most</th><th>What is counted</th><th>Rule</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

export function graphqlPage(schema: GraphQLSchema, documents: readonly GraphqlDocument[], links: CrossLinks, tryIt?: TryItConfig): PageOutput {
  const entries: SearchEntry[] = [{ t: 'GraphQL reference', u: GRAPHQL_PAGE, k: 'page', d: 'templates and secrets' }];
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t): t is GraphQLObjectType => !!t);
  const others = Object.values(schema.getTypeMap())
    .filter((t) => !t.name.startsWith('__') && !roots.includes(t as GraphQLObjectType))
    .sort((a, b) => kindOf(a).localeCompare(kindOf(b)) || a.name.localeCompare(b.name));
  const rootViews = roots.map((t) => typeView(t, links, entries));
  const typeViews = others.map((t) => typeView(t, links, entries));
  const contents = [...roots, ...others].map((t) => `<li><a href="#${graphqlTypeAnchor(t.name)}"><span class="kind">${kindOf(t)}</span> ${escapeHtml(t.name)}</a></li>`).join('');
  const base = tryIt?.bases['graphql'];
  const setup = base === undefined ? '' :
    `<aside class="try-it-setup" data-bases="${escapeHtml(JSON.stringify(tryIt?.bases ?? {}))}"><p><strong>Try it.</strong> This page is served by the reference mock: the panels under "Operation documents" POST to <code>${escapeHtml(base)}</code> on this server.</p>` +
    `<label><span>API key</span><input id="try-it-key" type="password" autocomplete="off" placeholder="mock-key unless the mock was started with --api-key"></label></aside>`;
  const body = `<h1>GraphQL <small>templates and secrets</small></h1>
<p class="meta">Address <code>{graphql_url}</code> (no version segment); the key goes in <code>?api_key=</code> or <code>Authorization: Bearer</code>. Built with graphql-js from <code>specs/graphql/schema.graphql</code>: ${roots.length + others.length} types.</p>
${setup}
<nav class="contents" aria-label="Types"><h2>Types</h2><ul class="columns">${contents}</ul></nav>
${limitsView(schema)}
<section id="operations"><h2>Root operations</h2>${rootViews.join('')}</section>
<section id="types"><h2>Types</h2>${typeViews.join('')}</section>
${documentsView(documents, base !== undefined)}`;
  return { path: GRAPHQL_PAGE, title: 'GraphQL reference', body, entries };
}
