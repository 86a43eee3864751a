// One disagreement between a pact interaction and the spec (REST and GraphQL checks alike).
export interface SpecIssue {
  path: string;
  message: string;
}
