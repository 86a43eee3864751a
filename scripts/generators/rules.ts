// Typed rule catalogue (rule IDs as a union type) from specs/rules.yaml.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './output.js';

export async function rulesModule(): Promise<{ module: string; count: number }> {
  const catalogue = parse(await readFile(join(repoRoot, 'specs/rules.yaml'), 'utf8')) as { rules: { id: string }[] };
  const rules = catalogue.rules;
  const module = [
    `export type RuleCheck = 'black-box' | 'clock' | 'mock-only';`,
    `export type Rule = { id: string; title: string; seed: string; surface: string; check: RuleCheck; tier: string; source: string; values?: Record<string, unknown>; operations?: string[]; 'why-not-black-box'?: string };`,
    `export const rules = ${JSON.stringify(rules, null, 2)} as const satisfies readonly Rule[];`,
    `export type RuleId = (typeof rules)[number]['id'];`,
    '',
  ].join('\n');
  return { module, count: rules.length };
}
