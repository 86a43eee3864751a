// Who links to whom: every operation (OpenAPI and GraphQL root fields) with its page anchor, the rules
// that govern it (its `x-rule-ids` plus every rule naming it in `operations`), and, per rule, the
// operations it names resolved to the right surface (operationIds repeat across surfaces: listPods).
import type { Rule } from '../../generated/rules.js';
import { operationAnchor } from './html.js';
import type { OpenApiSpec } from './sources.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationEntry {
  /** `rest-v1`, `queue-v2`, `rest-v2`, or `graphql` for the GraphQL root fields. */
  specKey: string;
  specLabel: string;
  page: string;
  anchor: string;
  operationId: string;
  /** `GET /pods`, or `mutation saveTemplate` for GraphQL. */
  signature: string;
  summary: string;
}

/** A root field of the GraphQL schema, seen as an operation. */
export interface GraphqlRootField {
  rootType: string;
  operationType: 'query' | 'mutation' | 'subscription';
  name: string;
  description: string;
}

export const GRAPHQL_PAGE = 'graphql.html';
export const graphqlFieldAnchor = (typeName: string, field: string) => `field-${typeName}-${field}`;
export const graphqlTypeAnchor = (typeName: string) => `type-${typeName}`;

export class CrossLinks {
  /** specKey → operationId → entry. */
  readonly operations = new Map<string, Map<string, OperationEntry>>();
  private readonly rulesByOperation = new Map<OperationEntry, Set<string>>();
  private readonly operationsByRule = new Map<string, OperationEntry[]>();
  private readonly knownRules: Set<string>;

  constructor(specs: readonly OpenApiSpec[], graphqlRoots: readonly GraphqlRootField[], rules: readonly Rule[]) {
    this.knownRules = new Set(rules.map((r) => r.id));
    for (const spec of specs) {
      const byId = new Map<string, OperationEntry>();
      for (const [path, item] of Object.entries(spec.doc.paths ?? {})) {
        for (const method of HTTP_METHODS) {
          const op = item[method] as Record<string, unknown> | undefined;
          if (!op || typeof op.operationId !== 'string') continue;
          const entry: OperationEntry = {
            specKey: spec.key, specLabel: spec.label, page: spec.page, anchor: operationAnchor(op.operationId),
            operationId: op.operationId, signature: `${method.toUpperCase()} ${path}`, summary: String(op.summary ?? ''),
          };
          byId.set(op.operationId, entry);
          for (const id of (op['x-rule-ids'] as string[] | undefined) ?? []) this.link(entry, id);
        }
      }
      this.operations.set(spec.key, byId);
    }
    const gql = new Map<string, OperationEntry>();
    for (const root of graphqlRoots) {
      gql.set(root.name, {
        specKey: 'graphql', specLabel: 'GraphQL', page: GRAPHQL_PAGE, anchor: graphqlFieldAnchor(root.rootType, root.name),
        operationId: root.name, signature: `${root.operationType} ${root.name}`, summary: firstSentence(root.description),
      });
    }
    this.operations.set('graphql', gql);
    for (const rule of rules) {
      for (const operationId of rule.operations ?? []) {
        const entry = this.resolve(rule.surface, operationId);
        if (entry) this.link(entry, rule.id);
      }
    }
  }

  /** The operation a rule means by `operationId`: its own surface first, then the others in site order. */
  resolve(surface: string, operationId: string): OperationEntry | undefined {
    const own = this.operations.get(surface)?.get(operationId);
    if (own) return own;
    for (const byId of this.operations.values()) {
      const entry = byId.get(operationId);
      if (entry) return entry;
    }
    return undefined;
  }

  rulesOf(entry: OperationEntry): string[] {
    return [...(this.rulesByOperation.get(entry) ?? [])].sort();
  }

  operationsOf(ruleId: string): OperationEntry[] {
    return this.operationsByRule.get(ruleId) ?? [];
  }

  /** Rule ids named by the specs that the catalogue does not hold (shown, never linked to nothing). */
  isKnownRule(ruleId: string): boolean {
    return this.knownRules.has(ruleId);
  }

  all(): OperationEntry[] {
    return [...this.operations.values()].flatMap((byId) => [...byId.values()]);
  }

  private link(entry: OperationEntry, ruleId: string): void {
    const rules = this.rulesByOperation.get(entry) ?? new Set<string>();
    if (rules.has(ruleId)) return;
    rules.add(ruleId);
    this.rulesByOperation.set(entry, rules);
    const ops = this.operationsByRule.get(ruleId) ?? [];
    ops.push(entry);
    this.operationsByRule.set(ruleId, ops);
  }
}

export function firstSentence(text: string): string {
  const line = text.split('\n')[0] ?? '';
  const end = line.search(/\.(\s|$)/);
  return end === -1 ? line : line.slice(0, end + 1);
}
