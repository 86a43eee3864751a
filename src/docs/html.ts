// Small HTML helpers shared by the page renderers: escaping, anchors, JSON blocks.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** A stable anchor id: lower case, letters, digits and dashes (`POST /run` → `post-run`). */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'section';
}

/** Pretty-printed JSON in a code block. */
export function jsonBlock(value: unknown): string {
  return `<pre class="json"><code>${escapeHtml(JSON.stringify(value, null, 2) ?? 'undefined')}</code></pre>`;
}

/** `<code>` for a short value shown inline (enum members, defaults). */
export function inlineValue(value: unknown): string {
  return `<code>${escapeHtml(typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value))}</code>`;
}

/** Anchor id of an operation on its spec page. */
export function operationAnchor(operationId: string): string {
  return `op-${operationId}`;
}

/** Anchor id of a rule on the rule catalogue. */
export function ruleAnchor(ruleId: string): string {
  return `rule-${ruleId}`;
}

/** Anchor id of a component schema on its spec page. */
export function schemaAnchor(name: string): string {
  return `schema-${name}`;
}
