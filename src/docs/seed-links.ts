// Rule seed references ("Endpoints › REST management interface › Other operations › GET /pods") → the
// anchor of the deepest matching heading of the rendered specs/SEED.md. Headings match without their
// trailing parenthetical, as specs/rules.yaml's header defines the reference format.
import type { Heading } from './markdown.js';

export const SEED_SOURCE = 'specs/SEED.md';
const PATH_SEPARATOR = ' › ';

const headingKey = (text: string) => text.replace(/\s*\([^)]*\)\s*$/, '').trim();

export type SeedResolver = (reference: string) => { anchor: string; heading: string } | undefined;

/** `headings` in document order, as renderMarkdown returns them for the seed. */
export function seedResolver(headings: readonly Heading[]): SeedResolver {
  // Every heading under the title (depth ≥ 2) keyed by its path of ancestor headings.
  const byPath = new Map<string, Heading>();
  const stack: Heading[] = [];
  for (const heading of headings) {
    if (heading.depth < 2) continue;
    while (stack.length > 0 && (stack[stack.length - 1] as Heading).depth >= heading.depth) stack.pop();
    stack.push(heading);
    const key = stack.map((h) => headingKey(h.text)).join(PATH_SEPARATOR);
    if (!byPath.has(key)) byPath.set(key, heading);
  }
  return (reference) => {
    const parts = reference.split(PATH_SEPARATOR).map((p) => p.trim());
    for (let length = parts.length; length > 0; length--) {
      const heading = byPath.get(parts.slice(0, length).join(PATH_SEPARATOR));
      if (heading) return { anchor: heading.id, heading: heading.text };
    }
    return undefined;
  };
}
