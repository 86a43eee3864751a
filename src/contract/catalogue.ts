// The rule catalogue: generated/rules.ts, written from specs/rules.yaml by `npm run generate` (committed and
// drift-checked, so the runtime needs no YAML parser).
import { rules as generatedRules } from '../../generated/rules.js';

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
  if (generated.length === 0) throw new Error('the rule catalogue generated/rules.ts is empty: run `npm run generate`');
  return (cached = generated);
}

export function ruleById(id: string): CatalogueRule | undefined {
  return loadCatalogue().find((r) => r.id === id);
}
