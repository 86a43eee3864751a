// State rules: documented rejections of spec-valid requests (the resource state, not the request shape,
// makes them fail). Each lives in specs/rules.yaml as `values.rejects: {operationId: status}` (GraphQL:
// `errors`, an errors[] entry with HTTP 200). This is the allow-list a spec-driven fuzzer needs.
import { rules, type Rule } from '../../generated/rules.js';

export interface StateRule {
  ruleId: string;
  surface: string;
  operationId: string;
  /** HTTP status, or 'errors' for a GraphQL errors[] entry. */
  status: number | 'errors';
}

export const stateRules: readonly StateRule[] = (rules as readonly Rule[]).flatMap((rule) => {
  const rejects = (rule.values as { rejects?: Record<string, number | 'errors'> } | undefined)?.rejects ?? {};
  return Object.entries(rejects).map(([operationId, status]) => ({ ruleId: rule.id, surface: rule.surface, operationId, status }));
});

/** Rule ids that allow `operationId` to answer `status` (REST v1 / queue v2 ids, or a GraphQL field name). */
export function allowedBy(operationId: string, status: number | 'errors'): string[] {
  return stateRules.filter((r) => r.operationId === operationId && r.status === status).map((r) => r.ruleId);
}
