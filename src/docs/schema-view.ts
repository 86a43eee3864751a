// JSON Schema (OpenAPI 3.1) → HTML: a type label per schema and a table of fields with their
// constraints. Named component schemas are links to the page's schema section, so every schema is
// written out once and the pages stay small; inline objects are expanded in place.
import { escapeHtml, inlineValue, schemaAnchor } from './html.js';
import { renderDescription } from './markdown.js';
import { firstSentence } from './cross-links.js';

export type Schema = Record<string, unknown>;

/** Deepest inline nesting written out (deeper fields are left out); bounds the page size. */
const MAX_INLINE_DEPTH = 6;
const SCHEMA_REF = '#/components/schemas/';

export { schemaAnchor };

export function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' && ref.startsWith(SCHEMA_REF) ? decodeURIComponent(ref.slice(SCHEMA_REF.length)) : undefined;
}

/** Follows a local `$ref` (`#/components/...`) once; other values pass through. */
export function deref(doc: Record<string, unknown>, value: unknown): Schema {
  let current = value as Schema;
  for (let hops = 0; hops < 8 && current && typeof current.$ref === 'string' && current.$ref.startsWith('#/'); hops++) {
    let target: unknown = doc;
    for (const part of current.$ref.slice(2).split('/')) {
      target = (target as Record<string, unknown> | undefined)?.[decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'))];
    }
    if (target === undefined) break;
    current = target as Schema;
  }
  return current ?? {};
}

const VARIANT_KEYS = ['oneOf', 'anyOf', 'allOf'] as const;
const VARIANT_WORDS: Record<(typeof VARIANT_KEYS)[number], string> = { oneOf: 'one of', anyOf: 'any of', allOf: 'all of' };

export class SchemaView {
  constructor(private readonly doc: Record<string, unknown>) {}

  /** Short HTML naming the type: `string (date-time)`, `array of Pod`, `one of A | B`. */
  typeLabel(schema: Schema | undefined): string {
    if (!schema || typeof schema !== 'object') return '<span class="type">any</span>';
    const name = refName(schema.$ref);
    if (name !== undefined) return `<a class="type" href="#${escapeHtml(schemaAnchor(name))}">${escapeHtml(name)}</a>`;
    for (const key of VARIANT_KEYS) {
      const parts = schema[key];
      if (Array.isArray(parts) && parts.length > 0 && !schema.type && !schema.properties) {
        return `<span class="type">${VARIANT_WORDS[key]}</span> ${parts.map((p) => this.typeLabel(p as Schema)).join(' | ')}`;
      }
    }
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [String(schema.type)] : [];
    const labels = types.map((type) => {
      if (type === 'array') return `array of ${this.typeLabel(schema.items as Schema | undefined)}`;
      return escapeHtml(type);
    });
    if (labels.length === 0) labels.push(schema.properties ? 'object' : schema.enum ? 'enum' : schema.const !== undefined ? 'const' : 'any');
    const format = typeof schema.format === 'string' ? ` (${escapeHtml(schema.format)})` : '';
    return `<span class="type">${labels.join(' | ')}${format}</span>`;
  }

  /** Constraints and annotations as short phrases (enum, bounds, default, unit, secret…). */
  facts(schema: Schema): string[] {
    const out: string[] = [];
    if (Array.isArray(schema.enum)) out.push(`one of ${schema.enum.map(inlineValue).join(', ')}`);
    if (schema.const !== undefined) out.push(`always ${inlineValue(schema.const)}`);
    const bound = (key: string, words: string) => {
      if (schema[key] !== undefined) out.push(`${words} ${inlineValue(schema[key])}`);
    };
    bound('minimum', '≥');
    bound('exclusiveMinimum', '>');
    bound('maximum', '≤');
    bound('exclusiveMaximum', '<');
    bound('minLength', 'length ≥');
    bound('maxLength', 'length ≤');
    bound('minItems', 'items ≥');
    bound('maxItems', 'items ≤');
    bound('minProperties', 'properties ≥');
    bound('maxProperties', 'properties ≤');
    bound('multipleOf', 'multiple of');
    if (typeof schema.pattern === 'string') out.push(`pattern <code>${escapeHtml(schema.pattern)}</code>`);
    if (schema.uniqueItems === true) out.push('unique items');
    if (schema.default !== undefined) out.push(`default ${inlineValue(schema.default)}`);
    if (typeof schema['x-unit'] === 'string') out.push(`unit ${escapeHtml(schema['x-unit'])}`);
    if (schema['x-secret'] === true) out.push('<strong>secret</strong>: write-only, never in an answer');
    if (typeof schema['x-unique'] === 'string') out.push(`unique per ${escapeHtml(schema['x-unique'])}`);
    if (schema.readOnly === true) out.push('read-only');
    if (schema.writeOnly === true) out.push('write-only');
    if (schema.deprecated === true) out.push('deprecated');
    if (schema.example !== undefined) out.push(`example ${inlineValue(schema.example)}`);
    if (Array.isArray(schema.examples) && schema.examples.length > 0) out.push(`example ${inlineValue(schema.examples[0])}`);
    return out;
  }

  /** Provenance badge for `x-source` (+ note as tooltip). */
  source(schema: Record<string, unknown>): string {
    const source = schema['x-source'];
    if (typeof source !== 'string') return '';
    const note = typeof schema['x-source-note'] === 'string' ? ` title="${escapeHtml(schema['x-source-note'])}"` : '';
    return ` <span class="source source-${escapeHtml(source)}"${note}>x-source: ${escapeHtml(source)}</span>`;
  }

  /** The schema as a block: description, facts and a table of its fields (nothing for a bare `$ref`). */
  block(schema: Schema | undefined): string {
    if (!schema) return '';
    const rows = this.rows(schema, '', 0);
    const facts = this.facts(schema);
    return [
      schema.$ref ? '' : renderDescription(schema.description as string | undefined),
      facts.length > 0 ? `<p class="facts">${facts.join(' · ')}</p>` : '',
      rows.length > 0 ? `<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : '',
    ].join('');
  }

  /** A referenced schema written out (for request and response bodies). */
  expanded(schema: Schema | undefined): string {
    if (!schema) return '';
    const name = refName(schema.$ref);
    if (name === undefined) return this.block(schema);
    return this.block(deref(this.doc, schema));
  }

  private rows(schema: Schema, prefix: string, depth: number): string[] {
    if (depth > MAX_INLINE_DEPTH || schema.$ref) return [];
    const out: string[] = [];
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [name, property] of Object.entries(properties)) {
      out.push(this.row(`${prefix}${name}`, property, required.has(name)));
      out.push(...this.nested(property, `${prefix}${name}`, depth));
    }
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') {
      out.push(this.row(`${prefix}{key}`, extra as Schema, false));
      out.push(...this.nested(extra as Schema, `${prefix}{key}`, depth));
    }
    const items = schema.items as Schema | undefined;
    if (!prefix && schema.type === 'array' && items && !items.$ref) out.push(...this.rows(items, '[].', depth + 1));
    for (const key of VARIANT_KEYS) {
      const parts = schema[key];
      if (!Array.isArray(parts)) continue;
      parts.forEach((part: Schema, index) => {
        const label = `${prefix}(${VARIANT_WORDS[key]} #${index + 1})`;
        if (part.$ref) {
          out.push(`<tr class="variant"><td colspan="3">${escapeHtml(label)}: the fields of ${this.typeLabel(part)}</td></tr>`);
          return;
        }
        const partRows = this.rows(part, prefix, depth + 1);
        if (partRows.length > 0) out.push(`<tr class="variant"><td colspan="3">${escapeHtml(label)}</td></tr>`, ...partRows);
      });
    }
    return out;
  }

  private nested(property: Schema, path: string, depth: number): string[] {
    if (property.$ref) return [];
    if (property.properties || property.additionalProperties || VARIANT_KEYS.some((k) => Array.isArray(property[k]))) {
      return this.rows(property, `${path}.`, depth + 1);
    }
    const items = property.items as Schema | undefined;
    if (items && !items.$ref && (items.properties || VARIANT_KEYS.some((k) => Array.isArray(items[k])))) {
      return this.rows(items, `${path}[].`, depth + 1);
    }
    return [];
  }

  private row(name: string, property: Schema, required: boolean): string {
    const facts = this.facts(property);
    // A `$ref` property shows its own description (3.1 allows siblings), else the target's first sentence.
    const text = property.description ?? (property.$ref ? firstSentence(String(deref(this.doc, property).description ?? '')) : undefined);
    const description = renderDescription(text as string | undefined);
    return `<tr><td class="field-name"><code>${escapeHtml(name)}</code>${required ? ' <span class="required">required</span>' : ''}</td>` +
      `<td>${this.typeLabel(property)}</td>` +
      `<td>${description}${facts.length > 0 ? `<p class="facts">${facts.join(' · ')}</p>` : ''}${this.source(property)}</td></tr>`;
  }
}
