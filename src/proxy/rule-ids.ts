// Which rule of specs/rules.yaml each per-exchange judgement enforces, and violations carrying its level.
// Only existing rule ids are used: every one already has a conformance check of its own (GraphQL
// operation limits: LIMIT_RULE in graphql-limits.ts).
import { rules } from '../../generated/rules.js';
import { levelOf } from '../contract/levels.js';
import type { Violation } from './exchange.js';
import type { SecretKind } from './secrets.js';
import { LIMIT_RULE } from './graphql-limits.js';

const sourceOf = new Map<string, string>(rules.map((r) => [r.id, r.source]));

/** The first id of the list that the catalogue has (REST v2 rules arrive with issue 13). */
function firstKnown(...ids: string[]): string {
  const id = ids.find((candidate) => sourceOf.has(candidate));
  if (!id) throw new Error(`none of the rules ${ids.join(', ')} is in specs/rules.yaml`);
  return id;
}

export const RULE: {
  unauthenticated(surface: string): string;
  leak(kind: SecretKind, surface?: string): string;
  errorBody(surface: string): string;
  header(name: string, status: number, surface: string): string;
  answer(requestValid: boolean | undefined): string;
  methodNotAllowed(surface: string): string;
  crossAccount(method: string, path: string | undefined): string;
} = {
  /** A request without credentials must be answered 401. */
  unauthenticated: (surface: string) =>
    surface === 'restV1' ? 'AUTH-001' : surface === 'queueV2' ? 'AUTH-004' : surface === 'graphql' ? 'GQL-AUTH-002' : firstKnown('RESTV2-AUTH-001', 'AUTH-001'),
  /** A secret the client sent appears in an answer. */
  leak: (kind: SecretKind, surface?: string) =>
    kind === 'registry password' ? 'SECRET-001'
      // A secret value in a REST v2 answer: that surface's own rule (GraphQL's SECRET-002 where the catalogue lacks it).
      : kind === 'secret value' ? (surface === 'restV2' ? firstKnown('RESTV2-SECRET-002', 'SECRET-002') : 'SECRET-002')
        : kind === 's3 accessSecret' ? 'SECRET-003' : 'AUTH-006',
  /** An error answer (4xx, 5xx) whose body is not the surface's error shape. */
  errorBody: (surface: string) =>
    surface === 'restV1' ? 'REST-ERROR-001' : surface === 'queueV2' ? 'QUEUE-ERROR-003' : surface === 'graphql' ? 'GQL-ERROR-001' : firstKnown('RESTV2-ERROR-001', 'AGREE-VALID-001'),
  /** A required answer header is missing or malformed. */
  header: (name: string, status: number, surface: string) => {
    if (status === 429 && name === 'retry-after') return surface === 'restV2' ? firstKnown('RESTV2-RATE-002', 'RATE-429-001') : 'RATE-429-001';
    if (status === 405 && name === 'allow') return RULE.methodNotAllowed(surface);
    return 'AGREE-VALID-001';
  },
  /**
   * An undocumented status, or a success body not matching the spec: AGREE-VALID-001 for a request the
   * spec accepts (or one too large to judge), AGREE-INVALID-001 for one it refuses.
   */
  answer: (requestValid: boolean | undefined) => (requestValid === false ? 'AGREE-INVALID-001' : 'AGREE-VALID-001'),
  /** A method the path does not serve must be answered 405 with Allow. */
  methodNotAllowed: (surface: string) => (surface === 'restV2' ? firstKnown('RESTV2-HTTP-001', 'HTTP-ALLOW-001') : 'HTTP-ALLOW-001'),
  /** An answer to one key carrying an object id first seen in another key's traffic: a read by id, a list, or a change (GraphQL: read). */
  crossAccount: (method: string, path: string | undefined) =>
    method !== 'GET' && path !== undefined ? 'ISOLATION-WRITE-001' : path !== undefined && !path.includes('{') ? 'ISOLATION-LIST-001' : 'ISOLATION-READ-001',
};

export function violation(ruleId: string, surface: string, operationId: string, message: string): Violation {
  const source = sourceOf.get(ruleId);
  if (source === undefined) throw new Error(`rule ${ruleId} is not in specs/rules.yaml`);
  return { surface, operationId, ruleId, level: levelOf(source), message };
}

/** Every rule id a judgement can name (for the report's rule table and the catalogue test). */
export function judgedRuleIds(): string[] {
  const ids = new Set<string>();
  for (const surface of ['restV1', 'queueV2', 'graphql', 'restV2']) {
    ids.add(RULE.unauthenticated(surface));
    ids.add(RULE.errorBody(surface));
  }
  for (const kind of ['API key', 'registry password', 'secret value', 's3 accessSecret']) ids.add(RULE.leak(kind));
  ids.add(RULE.leak('secret value', 'restV2'));
  for (const surface of ['restV1', 'queueV2', 'restV2']) {
    ids.add(RULE.header('retry-after', 429, surface));
    ids.add(RULE.methodNotAllowed(surface));
  }
  ids.add('GQL-PUBLIC-001'); // a keyless GraphQL request of public fields only, graphql-auth.ts
  ids.add('GQL-PUBLIC-002'); // … of a public field among account fields, a mutation or introspection
  ids.add(RULE.answer(true));
  ids.add(RULE.answer(false));
  for (const [method, path] of [['GET', '/pods/{podId}'], ['GET', '/pods'], ['POST', '/pods/{podId}/stop']] as const) ids.add(RULE.crossAccount(method, path));
  for (const id of Object.values(LIMIT_RULE)) ids.add(id);
  return [...ids].sort();
}

export const titleOf = (ruleId: string): string => rules.find((r) => r.id === ruleId)?.title ?? '';
