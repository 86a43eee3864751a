// Turns Ajv errors into plain {path, message} issues with JSON pointers rooted at /body, /query, /path.
import type { ErrorObject } from 'ajv';

export type ValidationIssue = {
  /** JSON Pointer into the request or response: `/body/policy/ttl`, `/query/wait`, `/path/jobId`. */
  path: string;
  message: string;
};

export function toIssues(errors: readonly ErrorObject[] | null | undefined, prefix: string): ValidationIssue[] {
  if (!errors) return [];
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const issue = { path: `${prefix}${error.instancePath}${locationSuffix(error)}`, message: describe(error) };
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/** Points at the offending property itself for "required" and "additional/unevaluatedProperties" errors. */
function locationSuffix(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `/${escape(String(params.missingProperty))}`;
  if (error.keyword === 'additionalProperties') return `/${escape(String(params.additionalProperty))}`;
  // REST v2 closes allOf-composed shapes with unevaluatedProperties: same meaning for the caller.
  if (error.keyword === 'unevaluatedProperties') return `/${escape(String(params.unevaluatedProperty))}`;
  return '';
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not a known property';
    // A property an alternative of a oneOf excludes (createSandbox: templateId | imageName, never both).
    case 'false schema':
      return 'is not allowed here: give exactly one of the alternatives';
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.path || '/'} ${i.message}`).join('; ');
}
