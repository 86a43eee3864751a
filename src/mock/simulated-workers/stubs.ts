// Stub workers: rules `{match, output | error | durationMs | stream}` tried in order (WireMock-style request
// matching, Microcks-style dispatch on the JSON body). The first rule whose `match` is a JSON subset of the
// job input decides the job; a rule without `match` is a default.
import type { MockDirective } from '../jobs/simulate.js';
import { MAX_STREAM_CHUNKS, MAX_STUB_DURATION_MS, MAX_STUB_RULES, type StubRule } from './types.js';

const RULE_KEYS = new Set(['match', 'output', 'error', 'durationMs', 'stream']);

/** Checks a stubs document (a list of rules, or `{rules: [...]}`); returns the rules or the first problem. */
export function parseStubRules(document: unknown): StubRule[] | string {
  const rules = isPlainObject(document) && Object.keys(document).length === 1 && 'rules' in document ? document['rules'] : document;
  if (!Array.isArray(rules)) return 'must be a list of rules (or {"rules": [...]})';
  if (rules.length > MAX_STUB_RULES) return `has ${rules.length} rules; at most ${MAX_STUB_RULES}`;
  for (const [i, rule] of rules.entries()) {
    const problem = ruleProblem(rule);
    if (problem) return `rules[${i}]${problem}`;
  }
  return rules as StubRule[];
}

function ruleProblem(rule: unknown): string | undefined {
  if (!isPlainObject(rule)) return ' must be an object';
  for (const key of Object.keys(rule)) if (!RULE_KEYS.has(key)) return `.${key} is not a rule field (known: ${[...RULE_KEYS].join(', ')})`;
  if ('output' in rule && 'error' in rule) return ' has both output and error; give one';
  const d = rule['durationMs'];
  if (d !== undefined && (typeof d !== 'number' || !Number.isInteger(d) || d < 0 || d > MAX_STUB_DURATION_MS)) {
    return `.durationMs must be an integer 0..${MAX_STUB_DURATION_MS}`;
  }
  const s = rule['stream'];
  if (s !== undefined && (!Array.isArray(s) || s.length > MAX_STREAM_CHUNKS)) return `.stream must be a list of at most ${MAX_STREAM_CHUNKS} chunks`;
  if (rule['error'] === null) return '.error must not be null';
  return undefined;
}

/** JSON subset: every key of an object pattern matches in the value, arrays element by element, scalars equal. */
export function isJsonSubset(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) {
    return Array.isArray(value) && pattern.length === value.length && pattern.every((p, i) => isJsonSubset(p, value[i]));
  }
  if (isPlainObject(pattern)) {
    if (!isPlainObject(value)) return false;
    for (const key of Object.keys(pattern)) {
      if (!Object.hasOwn(value, key) || !isJsonSubset(pattern[key], value[key])) return false;
    }
    return true;
  }
  return pattern === value;
}

/** The rule that decides this input, as a directive the job engine runs; undefined when none matches. */
export function stubDirective(rules: readonly StubRule[], input: Record<string, unknown>, defaultDurationMs: number): MockDirective | undefined {
  const rule = rules.find((r) => r.match === undefined || isJsonSubset(r.match, input));
  if (!rule) return undefined;
  const directive: MockDirective = { durationMs: rule.durationMs ?? defaultDurationMs };
  if ('output' in rule) directive.output = rule.output;
  if (rule.error !== undefined) directive.error = rule.error;
  if (rule.stream) directive.stream = rule.stream;
  // Neither output, error nor stream: the default worker's echo, after the rule's duration.
  return directive;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
