// CHANGELOG.md's unreleased section and its breaking lines (list items starting `- **Breaking**`): a breaking change is acknowledged when one of
// its names (operationId, "METHOD /path", GraphQL path, rule id, export path) is written on such a line.
import type { ContractChange } from './change.js';

/** The text of the first "## Unreleased" section (up to the next "## " heading); undefined when there is none. */
export function unreleasedSection(changelog: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => /^##\s+Unreleased\b/i.test(line));
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^##\s/.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** "RESTV2-SANDBOX-001..008" (also "–" or " to ") names every id of the range. */
function expandRuleRanges(line: string): string {
  return line.replace(/\b([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)-(\d{3})\s*(?:\.\.|–|\s+to\s+)\s*(\d{3})\b/g, (whole, prefix: string, from: string, to: string) => {
    const a = Number(from);
    const b = Number(to);
    if (b < a || b - a > 200) return whole;
    const ids: string[] = [];
    for (let n = a; n <= b; n++) ids.push(`${prefix}-${String(n).padStart(3, '0')}`);
    return `${whole} ${ids.join(' ')}`;
  });
}

export function breakingLines(section: string): string[] {
  return section
    .split('\n')
    .filter((line) => /^\s*[-*]\s+\*\*Breaking\*\*/.test(line))
    .map(expandRuleRanges);
}

function mentions(line: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`).test(line);
}

export function isAcknowledged(change: ContractChange, lines: readonly string[]): boolean {
  return change.names.some((name) => name.length > 0 && lines.some((line) => mentions(line, name)));
}
