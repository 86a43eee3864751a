// The rule catalogue: generated/rules.ts when generated, otherwise specs/rules.yaml itself.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { rules as generatedRules } from '../../generated/rules.js';
import { packageFile } from './package-files.js';

export type Tier = 'safe' | 'full' | 'slow';
export type RuleCheckKind = 'black-box' | 'clock' | 'mock-only';

export interface CatalogueRule {
  id: string;
  title: string;
  seed: string;
  surface: string;
  check: RuleCheckKind;
  tier: Tier;
  source: string;
  values?: Record<string, unknown>;
  operations?: readonly string[];
  'why-not-black-box'?: string;
}

let cached: readonly CatalogueRule[] | undefined;

export function loadCatalogue(): readonly CatalogueRule[] {
  if (cached) return cached;
  const generated = generatedRules as unknown as readonly CatalogueRule[];
  if (generated.length > 0) return (cached = generated);
  const text = readFileSync(packageFile('specs/rules.yaml'), 'utf8');
  const doc = parse(text) as { rules?: CatalogueRule[] };
  return (cached = doc.rules ?? []);
}

export function ruleById(id: string): CatalogueRule | undefined {
  return loadCatalogue().find((r) => r.id === id);
}
