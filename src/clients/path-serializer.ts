/**
 * Path parameter serialisation for openapi-fetch, compiled once per URL template. Our specs use only
 * the `simple` style (`/pods/{podId}`), so a template splits into literal and parameter parts once and
 * each call only joins them: openapi-fetch's default re-scans the template with a regex on every call.
 * A parameter that is missing stays as `{name}`, as with the default, so the server answers 404.
 */
type Part = { literal: string } | { param: string };

const compiled = new Map<string, Part[]>();
const PARAM = /\{([^{}]+)\}/g;

function compile(template: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of template.matchAll(PARAM)) {
    if (match.index > last) parts.push({ literal: template.slice(last, match.index) });
    parts.push({ param: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ literal: template.slice(last) });
  return parts;
}

export function simplePathSerializer(template: string, params: Record<string, unknown>): string {
  let parts = compiled.get(template);
  if (!parts) {
    parts = compile(template);
    // Templates are the clients' fixed operation paths joined to a base URL: a handful per client.
    if (compiled.size < 1000) compiled.set(template, parts);
  }
  let out = '';
  for (const part of parts) {
    if ('literal' in part) {
      out += part.literal;
      continue;
    }
    const value = params[part.param];
    out += value === undefined || value === null ? `{${part.param}}` : encodeURIComponent(String(value));
  }
  return out;
}
