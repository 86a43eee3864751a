// GRAPHQL-COST-* from outside: an answer that served data to an operation over one of the SDL's
// operation limits (measured on the request as the mock measures it), or that holds more records
// (items of lists of objects) than the records limit, is a violation of that limit's rule.
import { readFileSync } from 'node:fs';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { GRAPHQL_LIMIT_RULE, graphqlLimits } from '../contract/graphql-limits.js';
import { packageFile } from '../contract/package-files.js';
import { checkGraphqlLimits } from '../validation/graphql-limits.js';

/** The rule of each limit (specs/rules.yaml). */
export const LIMIT_RULE = GRAPHQL_LIMIT_RULE;

let schema: GraphQLSchema | undefined;
const sdl = () => (schema ??= buildSchema(readFileSync(packageFile('specs/graphql/schema.graphql'), 'utf8')));

/** Items of lists of objects anywhere in `value`, counting stops past `max` (bounded work on huge answers). */
export function recordsIn(value: unknown, max: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= max) {
    const next = stack.pop();
    if (Array.isArray(next)) {
      for (const item of next) {
        if (item !== null && typeof item === 'object' && !Array.isArray(item)) count++;
        stack.push(item);
      }
    } else if (next !== null && typeof next === 'object') {
      for (const item of Object.values(next)) if (item !== null && typeof item === 'object') stack.push(item);
    }
  }
  return count;
}

export interface LimitFinding {
  ruleId: string;
  message: string;
}

/** What a served GraphQL answer breaks of the operation limits (nothing when it served no data). */
export function graphqlLimitFindings(query: string, answer: unknown): { checked: string[]; findings: LimitFinding[] } {
  const data = (answer as { data?: unknown } | null | undefined)?.data;
  if (data === undefined || data === null) return { checked: [], findings: [] };
  const limits = graphqlLimits();
  const checked = [LIMIT_RULE.records];
  const findings: LimitFinding[] = [];
  const measured = checkGraphqlLimits(sdl(), query, limits);
  if (!measured.ok && 'breach' in measured) {
    const { limit, max, found } = measured.breach;
    checked.push(LIMIT_RULE[limit]);
    findings.push({ ruleId: LIMIT_RULE[limit], message: `GraphQL served data to an operation over the ${limit} limit (at most ${max}, found ${found}): it must be refused before running` });
  }
  const records = recordsIn(data, limits.records);
  if (records > limits.records) {
    findings.push({ ruleId: LIMIT_RULE.records, message: `GraphQL answered more than ${limits.records} records (items of lists of objects): the records limit refuses such an answer` });
  }
  return { checked, findings };
}
