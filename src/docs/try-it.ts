// The try-it panel of the mock-served site: a form per operation whose request goes to the mock that
// serves the page (same origin, so no CORS is needed; the mock's OPTIONS/CORS answer other origins).
// The client side is assets/try-it.js; the API key lives in the page's one key field (sessionStorage,
// never in the URL), and the mock never echoes it.
import { escapeHtml } from './html.js';

export interface TryItParameter {
  name: string;
  in: string;
  required: boolean;
  example?: string;
}

export interface TryItConfig {
  /** Spec key (`rest-v1`, `queue-v2`, `rest-v2`, `graphql`) → base path on the serving origin; `{endpointId}` becomes a field. */
  bases: Record<string, string>;
}

export interface TryItPanelInput {
  spec: string;
  operationId: string;
  method: string;
  path: string;
  parameters: TryItParameter[];
  body: unknown;
}

/** Longest body the panel prefills (characters); longer examples are cut to `{}`. */
const MAX_PREFILL_CHARS = 20_000;

/** Examples are hints (placeholders), never values: a prefilled query example would filter the answer unasked. */
const field = (label: string, name: string, example: string | undefined, required: boolean) =>
  `<label><span>${escapeHtml(label)}${required ? ' *' : ''}</span><input name="${escapeHtml(name)}"${example === undefined ? '' : ` placeholder="${escapeHtml(example)}"`}${required ? ' required' : ''}></label>`;

export function tryItPanel(input: TryItPanelInput): string {
  const fields = input.parameters
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => field(`${p.name} (${p.in})`, `${p.in}:${p.name}`, p.example, p.required || p.in === 'path'));
  let body = '';
  if (input.body !== undefined) {
    const text = JSON.stringify(input.body, null, 2);
    body = `<label class="body"><span>Body (JSON)</span><textarea name="body" rows="8" spellcheck="false">${escapeHtml(text.length > MAX_PREFILL_CHARS ? '{}' : text)}</textarea></label>`;
  }
  return `<details class="try-it" data-spec="${escapeHtml(input.spec)}" data-method="${escapeHtml(input.method.toUpperCase())}" data-path="${escapeHtml(input.path)}">
<summary>Try it against this mock</summary>
<form class="try-it-form">${fields.join('')}${body}<button type="submit">Send ${escapeHtml(input.method.toUpperCase())}</button></form>
<div class="try-it-result" hidden><p class="try-it-status"></p><pre class="json"><code></code></pre></div>
</details>`;
}

/** The page-wide key field and the base addresses, once per page that has panels. */
export function tryItHeader(config: TryItConfig, spec: string): string {
  const base = config.bases[spec];
  if (base === undefined) return '';
  const endpoint = base.includes('{endpointId}')
    ? `<label><span>endpointId *</span><input id="try-it-endpoint" placeholder="an endpoint id (create one with REST v1 createEndpoint)"></label>`
    : '';
  return `<aside class="try-it-setup" data-bases="${escapeHtml(JSON.stringify(config.bases))}">
<p><strong>Try it.</strong> This page is served by the reference mock: every panel below sends its request to <code>${escapeHtml(base === '' ? '/' : base)}</code> on this server.</p>
<label><span>API key</span><input id="try-it-key" type="password" autocomplete="off" placeholder="mock-key unless the mock was started with --api-key"></label>${endpoint}
</aside>`;
}
