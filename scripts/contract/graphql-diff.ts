// The GraphQL SDL diff: GraphQL Inspector's core library classifies each change (BREAKING / DANGEROUS /
// NON_BREAKING, as graphql-js's own findBreakingChanges extended); description-only changes are left out.
import { createRequire } from 'node:module';
import type * as Inspector from '@graphql-inspector/core';
import type * as GraphQL from 'graphql';

// Both through require: GraphQL Inspector and the schemas it compares must share one graphql-js instance
// (a bundler resolving graphql's "module" field for us and Node its "main" for Inspector would make two).
const require = createRequire(import.meta.url);
const { diff, CriticalityLevel } = require('@graphql-inspector/core') as typeof Inspector;
const { buildSchema } = require('graphql') as typeof GraphQL;
import type { ContractChange, Level } from './change.js';

const LEVEL: Record<string, Level> = {
  [CriticalityLevel.Breaking]: 'breaking',
  [CriticalityLevel.Dangerous]: 'dangerous',
  [CriticalityLevel.NonBreaking]: 'safe',
};

export async function diffGraphql(beforeSdl: string, afterSdl: string): Promise<ContractChange[]> {
  if (beforeSdl === afterSdl) return [];
  const changes = await diff(buildSchema(beforeSdl), buildSchema(afterSdl));
  const out: ContractChange[] = [];
  for (const change of changes) {
    if (/DESCRIPTION/.test(String(change.type))) continue;
    const path = change.path ?? '';
    const parts = path.split('.');
    // `Query.pods.input` is acknowledged by its own path or by its field `Query.pods` / `pods`.
    const names = [...new Set([path, parts.slice(0, 2).join('.'), parts[1] ?? parts[0] ?? ''].filter(Boolean))];
    const type = String(change.type);
    const action = /REMOVED/.test(type) ? 'removed' : /ADDED/.test(type) ? 'added' : 'changed';
    out.push({ surface: 'graphql', level: LEVEL[change.criticality.level] ?? 'dangerous', party: 'caller', action, subject: path || type, what: `${path ? `\`${path}\`: ` : ''}${change.message}`, names, ...(/^FIELD_(ADDED|REMOVED)$/.test(type) && /^(Query|Mutation|Subscription)\.[^.]+$/.test(path) ? { operation: action as 'added' | 'removed' } : {}) });
  }
  return out;
}
