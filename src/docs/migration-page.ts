// The REST v1 → REST v2 migration map (specs/migration/rest-v1-to-v2.yaml, via generated/migration.ts):
// per REST v1 operation, its REST v2 replacement (or why there is none), renamed path parameters,
// constants, the answer's list key, and where every query and body field goes.
import type { CrossLinks } from './cross-links.js';
import { escapeHtml, inlineValue } from './html.js';
import type { FieldEntry, FieldMap, MigrationMap, OperationMapping } from '../migration/index.js';
import type { PageOutput, SearchEntry } from './search-index.js';

export const MIGRATION_PAGE = 'migration.html';
const migrationAnchor = (v1OperationId: string) => `migrate-${v1OperationId}`;
/** Deepest `by` nesting written out; the map's own nesting is two levels. */
const MAX_CASE_DEPTH = 6;

function opLink(links: CrossLinks, spec: string, operationId: string): string {
  const entry = links.operations.get(spec)?.get(operationId);
  return entry ? `<a href="${escapeHtml(`${entry.page}#${entry.anchor}`)}"><code>${escapeHtml(operationId)}</code></a>` : `<code>${escapeHtml(operationId)}</code>`;
}

export function fieldEntryText(entry: FieldEntry, depth = 0): string {
  if (typeof entry === 'string') return `→ <code>${escapeHtml(entry)}</code>`;
  if ('drop' in entry) return `<span class="dropped">dropped</span>: ${escapeHtml(entry.drop)}`;
  if ('usedBy' in entry) return `read by <code>${escapeHtml(entry.usedBy)}</code>${entry.note ? ` (${escapeHtml(entry.note)})` : ''}`;
  if ('by' in entry) {
    if (depth >= MAX_CASE_DEPTH) return `depends on <code>${escapeHtml(entry.by)}</code>`;
    const cases = Object.entries(entry.cases).map(([value, inner]) => `<li><code>${escapeHtml(entry.by)}</code> ${value === 'absent' || value === 'default' ? escapeHtml(value) : `= ${inlineValue(value)}`}: ${fieldEntryText(inner, depth + 1)}</li>`);
    return `depends on <code>${escapeHtml(entry.by)}</code><ul>${cases.join('')}</ul>`;
  }
  const parts = [`→ <code>${escapeHtml(entry.to)}</code>`];
  if (entry.transform) parts.push(`transform <code>${escapeHtml(entry.transform)}</code>`);
  if (entry.values) parts.push(`values ${Object.entries(entry.values).map(([a, b]) => `${inlineValue(a)} → ${inlineValue(b)}`).join(', ')}`);
  if (entry.skip) parts.push(`skipped for ${entry.skip.map(inlineValue).join(', ')}`);
  if (entry.note) parts.push(escapeHtml(entry.note));
  return parts.join(' · ');
}

function fieldTable(title: string, fields: FieldMap | undefined): string {
  if (!fields || Object.keys(fields).length === 0) return '';
  const rows = Object.entries(fields).map(([name, entry]) => `<tr><td class="field-name"><code>${escapeHtml(name)}</code></td><td>${fieldEntryText(entry)}</td></tr>`);
  return `<h4>${escapeHtml(title)}</h4><table class="fields"><thead><tr><th>REST v1 field</th><th>REST v2</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function mappingView(v1Id: string, m: OperationMapping, links: CrossLinks): string {
  const target = 'none' in m.v2
    ? `<span class="dropped">no REST v2 equivalent</span>: ${escapeHtml(m.v2.none)}`
    : `${opLink(links, 'rest-v2', m.v2.operationId)} <code>${escapeHtml(`${m.v2.method} ${m.v2.path}`)}</code>`;
  const facts = [`<dt>REST v1</dt><dd>${opLink(links, 'rest-v1', v1Id)} <code>${escapeHtml(m.v1)}</code></dd>`, `<dt>REST v2</dt><dd>${target}</dd>`];
  if (m.pathParams) facts.push(`<dt>Path parameters</dt><dd>${Object.entries(m.pathParams).map(([a, b]) => `<code>{${escapeHtml(a)}}</code> → <code>{${escapeHtml(b)}}</code>`).join(', ')}</dd>`);
  if (m.set) facts.push(`<dt>Constants</dt><dd>${Object.entries(m.set).map(([k, v]) => `<code>${escapeHtml(k)}</code> = ${inlineValue(v)}`).join(', ')}</dd>`);
  const answer = [`v1 ${m.response.v1Status}`];
  if (m.response.v2Status !== undefined) answer.push(`v2 ${m.response.v2Status}`);
  if (m.response.list) answer.push(`v2 wraps the list in <code>${escapeHtml(m.response.list)}</code>`);
  facts.push(`<dt>Answer</dt><dd>${answer.join(' · ')}</dd>`);
  if (m.body?.defaults) facts.push(`<dt>v1 defaults made explicit</dt><dd>${Object.entries(m.body.defaults).map(([k, v]) => `<code>${escapeHtml(k)}</code> = ${inlineValue(v)}`).join(', ')}</dd>`);
  if (m.body?.fill) facts.push(`<dt>Filled in</dt><dd>${Object.entries(m.body.fill).map(([k, v]) => `<code>${escapeHtml(k)}</code>: ${inlineValue(v)}`).join('; ')}</dd>`);
  return `<section class="migration" id="${escapeHtml(migrationAnchor(v1Id))}"><h3><a href="#${escapeHtml(migrationAnchor(v1Id))}">${escapeHtml(v1Id)}</a></h3><dl class="op-facts">${facts.join('')}</dl>` +
    `${fieldTable('Query parameters', m.query)}${fieldTable('Body fields', m.body?.fields)}</section>`;
}

export function migrationPage(map: MigrationMap, links: CrossLinks): PageOutput {
  const entries: SearchEntry[] = [{ t: 'REST v1 → v2 migration map', u: MIGRATION_PAGE, k: 'page', d: 'migrate rest v1 to rest v2' }];
  const ops = Object.entries(map.operations);
  const summary = ops.map(([v1Id, m]) => {
    entries.push({ t: `migrate ${v1Id}`, u: `${MIGRATION_PAGE}#${migrationAnchor(v1Id)}`, k: 'migration', d: 'none' in m.v2 ? `no REST v2 equivalent: ${m.v2.none}` : `REST v2 ${m.v2.operationId} ${m.v2.method} ${m.v2.path}` });
    const v2 = 'none' in m.v2 ? '<span class="dropped">none</span>' : `${opLink(links, 'rest-v2', m.v2.operationId)} <code>${escapeHtml(`${m.v2.method} ${m.v2.path}`)}</code>`;
    return `<tr><td><a href="#${escapeHtml(migrationAnchor(v1Id))}"><code>${escapeHtml(v1Id)}</code></a></td><td><code>${escapeHtml(m.v1)}</code></td><td>${v2}</td></tr>`;
  });
  const errors = map.errors;
  const body = `<h1>REST v1 → REST v2 migration map <small>${ops.length} operations</small></h1>
<p>From <code>specs/migration/rest-v1-to-v2.yaml</code>: which REST v2 operation (server <code>${escapeHtml(map.v2.server)}</code>) replaces each REST v1 operation and where each request field goes. The converters <code>migrate.&lt;v1OperationId&gt;()</code> are driven by the same file.</p>
<table class="fields"><thead><tr><th>REST v1 operation</th><th>REST v1</th><th>REST v2</th></tr></thead><tbody>${summary.join('')}</tbody></table>
<section id="errors"><h2>Error bodies</h2>
<p>REST v1 <code>${escapeHtml(errors.v1.contentType)}</code> (${errors.v1.fields.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')}) → REST v2 <code>${escapeHtml(errors.v2.contentType)}</code> (${errors.v2.fields.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')}).</p>
${fieldTable('Fields', errors.fields)}
<h4>Added in REST v2</h4><ul>${Object.entries(errors.added).map(([k, v]) => `<li><code>${escapeHtml(k)}</code>: ${escapeHtml(v)}</li>`).join('')}</ul>
<h4>New statuses</h4><ul>${Object.entries(errors.newStatuses).map(([k, v]) => `<li><code>${escapeHtml(k)}</code>: ${escapeHtml(v)}</li>`).join('')}</ul></section>
<section id="operations"><h2>Operations</h2>${ops.map(([id, m]) => mappingView(id, m, links)).join('\n')}</section>`;
  return { path: MIGRATION_PAGE, title: 'REST v1 → v2 migration', body, entries };
}
