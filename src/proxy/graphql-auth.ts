// A GraphQL request carrying no key, judged by what it asks (SDL `x-auth`, contract/graphql-public.ts):
//   public fields only (gpuTypes, listings, allAiApiPublicConfigs)  → answered with data, GQL-PUBLIC-001
//   a public field with an account field, a mutation or introspection → 401 and no data, GQL-PUBLIC-002
//   anything else (account fields, mutations, text that does not validate) → 401, GQL-AUTH-002
import { graphqlLimits } from '../contract/graphql-limits.js';
import { publicQueryFields, unauthenticatedAsk } from '../contract/graphql-public.js';
import { sdl } from '../contract/graphql-shape.js';
import { checkGraphqlLimits } from '../validation/graphql-limits.js';

export interface KeylessFinding {
  ruleId: string;
  /** Set when the answer breaks the rule. */
  problem?: string;
}

let publicFields: ReadonlySet<string> | undefined;

export function judgeKeylessGraphql(operationId: string, query: string | undefined, status: number): KeylessFinding {
  const ask = query === undefined ? 'account' : unauthenticatedAsk(sdl(), query, (publicFields ??= publicQueryFields(sdl())));
  if (ask === 'public') {
    // A public query over an operation limit is refused before anything runs, key or not: 401 is fine then.
    const refused = status === 401 || status === 403;
    const withinLimits = refused && checkGraphqlLimits(sdl(), query!, graphqlLimits()).ok;
    return { ruleId: 'GQL-PUBLIC-001', problem: refused && withinLimits ? `${operationId} asks only public fields (SDL x-auth: none) and was answered ${status} without credentials (expected 200 with data)` : undefined };
  }
  const ruleId = ask === 'mixed' ? 'GQL-PUBLIC-002' : 'GQL-AUTH-002';
  if (status === 401) return { ruleId };
  const why = ask === 'mixed' ? ' selecting an account field, a mutation or introspection besides public fields' : '';
  return { ruleId, problem: `${operationId} answered ${status} to a request without credentials${why} (expected 401)` };
}
